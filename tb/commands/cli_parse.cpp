#include "cli_parse.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <vector>

namespace creditloop {

namespace {

std::string range_text(long long low, long long high, const std::string& meaning) {
    return std::to_string(low) + ".." + std::to_string(high) + meaning;
}

// "--B: 1 required INT missing" -> "--B"
std::string option_of(const std::string& what) { return what.substr(0, what.find(':')); }

std::string joined(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
    return out;
}

// CLI11 fills an option's value with the next word even when that word is another option
// ("--B --out dir" gives --B the value "--out"): the option whose value is one of the app's
// option names, or "".
std::string value_taken_from_option(const CLI::App& app) {
    for (const CLI::Option* option : app.get_options()) {
        for (const auto& value : option->results())
            if (value.rfind("-", 0) == 0 && app.get_option_no_throw(value.substr(0, value.find('='))))
                return option->get_name();
    }
    return "";
}

// The words no option took, in the user's order, named in one line: the first unknown option,
// else the first stray word.
std::string extras_line(const CLI::App& app, std::vector<std::string> extras) {
    // "--" ends the options but no command takes words after it: name what follows it instead.
    if (extras.size() > 1) extras.erase(std::remove(extras.begin(), extras.end(), "--"), extras.end());
    const auto option = std::find_if(extras.begin(), extras.end(), [](const std::string& w) { return w.rfind("-", 0) == 0; });
    const std::string named = option != extras.end() ? *option : extras.empty() ? std::string() : extras.front();
    return (option != extras.end() ? "unknown option '" : "unexpected argument '") + named + "' for '" + app.get_name() +
           "': see '" + app.get_name() + " --help'";
}

// CLI11's error as creditloop's one line.
std::string one_line(const CLI::App& app, const CLI::ParseError& e) {
    const std::string what = e.what();
    // CLI11's own message lists the extra words last first; remaining() has them in the order
    // given. An unknown option is named before a missing required one ("gtkw --frob" says
    // --frob is unknown, not that --waves is missing).
    const std::vector<std::string> extras = app.remaining();
    if (!extras.empty() && (dynamic_cast<const CLI::ExtrasError*>(&e) || dynamic_cast<const CLI::RequiredError*>(&e)))
        return extras_line(app, extras);
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
        const auto override_at = what.find(" was given a disallowed flag override");
        return override_at != std::string::npos ? "--" + what.substr(0, override_at) + " takes no value"
                                                : option_of(what) + " needs a value";
    }
    if (dynamic_cast<const CLI::ConversionError*>(&e)) return what + ": see '" + app.get_name() + " --help'";
    // Validation ("--B: 0 is out of range: allowed 1..4096"), exclusions ("--x excludes --y"),
    // requirements: CLI11's own line names the option.
    return what;
}

}  // namespace

bool parse_command(CLI::App& app, const std::vector<std::string>& args, ParseError& error) {
    std::vector<std::string> reversed(args.rbegin(), args.rend());   // CLI11 takes them last first
    try {
        app.parse(reversed);
        const std::string starved = value_taken_from_option(app);
        if (starved.empty()) return true;
        error.message = starved + " needs a value";
    } catch (const CLI::CallForHelp&) {
        error.help = true;
        error.message = app.help();
    } catch (const CLI::ParseError& e) {
        const std::string starved = value_taken_from_option(app);
        error.message = starved.empty() ? one_line(app, e) : starved + " needs a value";
    }
    return false;
}

int refuse(const std::string& problem, int exit_code) {
    std::cerr << "creditloop: " << problem << "\n";
    return exit_code;
}

int parse_failed(const ParseError& error) {
    if (error.help) {
        std::cout << error.message;
        return 0;
    }
    return refuse(error.message);
}

CLI::Option* add_flag(CLI::App& app, const std::string& name, bool& target, const std::string& description) {
    return app.add_flag(name, target, description)->disable_flag_override();
}

CLI::Validator whole_number(long long low, long long high, const std::string& meaning) {
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            char* end = nullptr;
            errno = 0;
            const long long value = std::strtoll(text.c_str(), &end, 10);
            if (text.empty() || !end || *end != '\0' || errno != 0)
                return text + " is not a whole number: allowed " + range_text(low, high, meaning);
            if (value < low || value > high) return text + " is out of range: allowed " + range_text(low, high, meaning);
            return "";
        },
        range_text(low, high, ""));
}

CLI::Validator probability(const std::string& symbol, bool one_allowed) {
    const std::string allowed = "0 <= " + symbol + (one_allowed ? " <= 1" : " < 1");
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            char* end = nullptr;
            const double p = std::strtod(text.c_str(), &end);
            if (text.empty() || *end != '\0' || !(p >= 0.0 && (one_allowed ? p <= 1.0 : p < 1.0)))
                return text + " is out of range: allowed " + allowed;
            return "";
        },
        allowed);
}

CLI::Validator one_of(const std::vector<std::string>& allowed, const std::string& what) {
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            for (const auto& a : allowed)
                if (text == a) return "";
            return text + " is not " + what + "; allowed: " + joined(allowed, ", ");
        },
        joined(allowed, "|"));
}

CLI::Validator log_level() { return one_of({"off", "error", "warn", "info", "debug"}, "a log level"); }

CLI::Validator stages_limit() { return whole_number(1, kMaxStages, " (stages each way)"); }
CLI::Validator buffer_slots_limit() { return whole_number(1, kMaxBufferSlots, " (receiver slots)"); }
CLI::Validator batch_limit() { return whole_number(1, kMaxBufferSlots, " and at most B (return batch)"); }

void add_link_options(CLI::App& app, int& stages, int& buffer_slots, int* batch) {
    app.add_option("--L", stages, "stages each way")->check(stages_limit())->capture_default_str();
    app.add_option("--B", buffer_slots, "receiver slots = credits")->check(buffer_slots_limit())->capture_default_str();
    if (batch) app.add_option("--K", *batch, "return batch (at most B)")->check(batch_limit())->capture_default_str();
}

void add_run_output_options(CLI::App& app, RunOutput& out) {
    add_flag(app, "--model", out.model_only, "check the golden model alone (no RTL)");
    add_flag(app, "--systemc", out.systemc, "the RTL verilated with --sc under an sc_clock (the same checks)");
    add_flag(app, "--json", out.json, "print one JSON object");
    app.add_option("--waves", out.waves, "waveform of the whole run (.vcd, or .fst with --fst)");
    add_flag(app, "--fst", out.fst, "FST waves instead of VCD");
    add_flag(app, "--force", out.force, "overwrite an existing --waves file");
    app.add_option("--log-level", out.log_level, "off|error|warn|info|debug (debug prints every cycle)")->check(log_level());
    app.add_option("--plusarg", out.plusargs, "+NAME=VALUE (or +NAME) for the RTL's $value$plusargs/$test$plusargs, repeatable")
        ->check([](const std::string& arg) {
            return arg.size() > 1 && arg[0] == '+' ? std::string() : "a plusarg starts with '+' (+NAME=VALUE): got '" + arg + "'";
        });
}

}  // namespace creditloop
