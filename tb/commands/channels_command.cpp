#include "channels_command.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "channel_gtkw.h"
#include "channel_library.h"
#include "channel_scoreboards.h"
#include "cli_parse.h"
#include "closed_forms.h"
#include "log.h"
#include "mutant_patch.h"
#include "mutants.h"
#include "process.h"
#include "progress.h"

namespace fs = std::filesystem;

namespace creditloop {

bool is_channel_run(const std::vector<std::string>& args) {
    for (const auto& a : args)
        for (const char* option : {"--preset", "--channel", "--channels"})
            if (a == option || a.rfind(std::string(option) + "=", 0) == 0) return true;
    return false;
}

namespace {

constexpr long long kMaxCycles = 100000000000LL;
constexpr long long kMaxSeed = 0x7FFFFFFFFFFFFFFFLL;

std::string fmt_number(double v) {
    std::string s = fmt::format("{}", v);
    return s;
}

// A JSON number that is a whole number an int holds, or nothing. nlohmann's get<int>() would
// convert a float with a plain cast, undefined behaviour out of int's range (fuzz_channel_file
// found {"L": 11111111111111111122222222}), and wrap a large integer to a small one.
std::optional<int> whole_int(const nlohmann::json& value) {
    if (!value.is_number_integer()) return std::nullopt;
    if (value.is_number_unsigned())
        return value.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int>::max())
                   ? std::optional<int>(static_cast<int>(value.get<uint64_t>()))
                   : std::nullopt;
    const int64_t v = value.get<int64_t>();
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) return std::nullopt;
    return static_cast<int>(v);
}

std::string channel_text(const ChannelSpec& c) {
    std::string out = "name=" + c.name + ",credits=" + std::to_string(c.credits) + ",batch=" + std::to_string(c.batch);
    if (c.split) out += ",data=" + std::to_string(c.data_credits) + ",data_batch=" + std::to_string(c.data_batch);
    if (c.full_rate) out += ",full_rate=1";
    out += ",unit=" + std::to_string(c.unit) + ",bytes=" + std::to_string(c.traffic.min_bytes) + "-" +
           std::to_string(c.traffic.max_bytes) + ",load=" + fmt_number(c.traffic.load);
    out += c.traffic.drain_every > 0 ? ",drain_every=" + std::to_string(c.traffic.drain_every)
                                     : ",drain=" + fmt_number(c.traffic.drain);
    return out;
}

}  // namespace

std::string read_channel_description(const std::string& path, ChannelLinkConfig& config) {
    std::ifstream in(path);
    if (!in) return "--channels " + path + ": cannot read it (does it exist?)";
    std::ostringstream text;
    text << in.rdbuf();
    return parse_channel_description(text.str(), path, config);
}

std::string parse_channel_description(const std::string& json_text, const std::string& path, ChannelLinkConfig& config) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::exception& e) {
        return "--channels " + path + " is not JSON (" + e.what() + ")";
    }
    const std::string where = "--channels " + path + ": ";
    try {
        if (!j.is_object()) return where + "the top level must be an object with a \"channels\" list";
        for (const auto& [key, value] : j.items()) {
            if (key == "protocol") {
                const std::string p = value.get<std::string>();
                if (p != "generic" && p != "chi" && p != "pcie" && p != "ib")
                    return where + "protocol '" + p + "': generic, chi, pcie or ib";
                config.protocol = p == "chi" ? ChannelProtocol::chi : p == "pcie" ? ChannelProtocol::pcie
                                  : p == "ib" ? ChannelProtocol::ib : ChannelProtocol::generic;
            } else if (key == "L") {
                const auto stages = whole_int(value);
                if (!stages) return where + "L = " + value.dump() + ": a whole number of stages (1..1024)";
                config.stages = *stages;
            } else if (key == "shared_pool") {
                config.shared_pool = value.get<bool>();
            } else if (key == "shared_return") {
                config.shared_return = value.get<bool>();
            } else if (key == "channels") {
                if (!value.is_array()) return where + "\"channels\" must be a list of objects";
                config.channels.clear();
                for (const auto& ch : value) {
                    ChannelSpec spec;
                    spec.name = "C" + std::to_string(config.channels.size());
                    // The same keys as --channel, as JSON values: {"name": "REQ", "credits": 15, "bytes": [1, 64]}.
                    std::string text;
                    for (const auto& [k, v] : ch.items()) {
                        std::string item;
                        if (k == "bytes" && v.is_array() && v.size() == 2) {
                            const auto low = whole_int(v[0]), high = whole_int(v[1]);
                            if (!low || !high) return where + "bytes = " + v.dump() + ": [MIN, MAX] in whole bytes";
                            item = std::to_string(*low) + "-" + std::to_string(*high);
                        }
                        else if (v.is_string()) item = v.get<std::string>();
                        else if (v.is_boolean()) item = v.get<bool>() ? "1" : "0";
                        else item = v.dump();
                        text += (text.empty() ? "" : ",") + k + "=" + item;
                    }
                    const std::string problem = apply_channel_text(spec, text);
                    if (!problem.empty()) return where + problem;
                    config.channels.push_back(spec);
                }
            } else {
                return where + "unknown key '" + key + "' (known: protocol, L, shared_pool, shared_return, channels)";
            }
        }
    } catch (const nlohmann::json::exception& e) {
        return where + "a value has the wrong type (" + e.what() + ")";
    }
    if (!j.contains("channels")) return where + "no \"channels\" list: describe at least one channel";
    return "";
}

std::string channel_run_arguments(const ChannelRunSpec& spec) {
    const ChannelLinkConfig& c = spec.config;
    std::string out = std::string("--protocol ") + protocol_name(c.protocol) + " --L " + std::to_string(c.stages);
    if (c.shared_pool) out += " --shared-pool";
    if (c.shared_return) out += " --shared-return";
    if (c.recovery)
        out += " --recovery --total-bits " + std::to_string(c.total_bits) + " --resend " + std::to_string(c.resend_period);
    for (const auto& ch : c.channels) out += " --channel " + channel_text(ch);
    out += " --cycles " + std::to_string(spec.cycles) + " --seed " + std::to_string(spec.seed);
    const FaultSpec& f = spec.faults;
    if (f.drop_probability > 0.0) out += " --drop " + exact_number(f.drop_probability);
    if (f.drop_at) out += " --drop-at " + std::to_string(*f.drop_at);
    if (f.drop_every) out += " --drop-every " + std::to_string(f.drop_every);
    if (f.corrupt_probability > 0.0) out += " --corrupt " + exact_number(f.corrupt_probability);
    if (f.corrupt_at) out += " --corrupt-at " + std::to_string(*f.corrupt_at);
    if ((f.corrupt_probability > 0.0 || f.corrupt_at) && f.corrupt_add != 1) out += " --corrupt-add " + std::to_string(f.corrupt_add);
    return out;
}

std::optional<ChannelRunCommand> parse_channel_run(const std::vector<std::string>& args, ParseError& error) {
    ChannelRunCommand cmd;
    std::string preset, protocol;
    std::vector<std::string> channels;
    std::vector<std::string> stalled;
    std::string description;
    int stages = 0;
    bool shared_pool = false, shared_return = false;
    CLI::App app{"Check the multi-channel link (docs/channels.md), the RTL in lockstep with the golden model.",
                 "creditloop run --preset NAME"};
    app.add_option("--preset", preset, "start from a seed's system: chi, pcie or ib")
        ->check(one_of(channel_presets(), "a channel preset"));
    app.add_option("--channel", channels,
                   "a channel, key=value,...: name, credits, data (header/data channel), batch, data_batch, unit "
                   "(bytes per credit), bytes (N or MIN-MAX), load, drain, drain_every, full_rate; a preset's channel of the same "
                   "name is changed, else one is added")
        ->take_all();
    app.add_option("--channels", description,
                   "the link described in a JSON file: {\"L\": 4, \"shared_return\": true, \"channels\": [{\"name\": "
                   "\"REQ\", \"credits\": 15, \"bytes\": [1, 64]}, ...]} (the --channel keys)");
    app.add_option("--protocol", protocol, "the rules the description must keep: generic, chi (at most 15 credits a channel)")
        ->check(one_of({"generic", "chi", "pcie", "ib"}, "a protocol"));
    app.add_option("--L", stages, "stages on the forward link and every return path")->check(whole_number(1, 1024));
    add_flag(app, "--shared-pool", shared_pool, "every lane draws from one pool (the head-of-line case)");
    add_flag(app, "--shared-return", shared_return, "one (pool, count) credit message per cycle on one return path");
    app.add_option("--stall", stalled, "stall this channel's consumer (drain 0)")->take_all();
    bool recovery = false;
    int total_bits = 0, resend = 0;
    add_flag(app, "--recovery", recovery, "cumulative credit updates per pool, resent every --resend cycles (docs/recovery.md)");
    app.add_option("--total-bits", total_bits, "recovery: width n of the running totals (2^n > 2B for every pool)")
        ->check(whole_number(1, 16));
    app.add_option("--resend", resend, "recovery: cycles between a pool's updates when it has nothing new")
        ->check(whole_number(1, 4096));
    FaultSpec& faults = cmd.spec.faults;
    uint64_t drop_at = 0, corrupt_at = 0;
    app.add_option("--drop", faults.drop_probability, "drop each credit message with probability P")->check(probability("P", true));
    auto* drop_at_option = app.add_option("--drop-at", drop_at, "drop the first credit message arriving at or after cycle C");
    app.add_option("--drop-every", faults.drop_every, "drop every Nth credit message")->check(whole_number(0, kMaxCycles));
    app.add_option("--corrupt", faults.corrupt_probability, "make each credit message larger with probability P")
        ->check(probability("P", true));
    auto* corrupt_at_option = app.add_option("--corrupt-at", corrupt_at, "make the first credit message arriving at or after cycle C larger");
    app.add_option("--corrupt-add", faults.corrupt_add, "by this much (default 1)")->check(whole_number(1, 65535));
    app.add_option("--cycles", cmd.spec.cycles, "cycles to run")->check(whole_number(20, kMaxCycles))->capture_default_str();
    app.add_option("--seed", cmd.spec.seed, "stimulus seed")->check(whole_number(0, kMaxSeed))->capture_default_str();
    add_flag(app, "--model", cmd.model_only, "check the golden model alone (no RTL)");
    add_flag(app, "--json", cmd.json, "print the result as one JSON object");
    app.add_option("--waves", cmd.waves, "write the run's waves (VCD, or FST with --fst) here");
    add_flag(app, "--fst", cmd.fst, "FST waves instead of VCD");
    add_flag(app, "--force", cmd.force, "overwrite an existing waves file");
    app.add_option("--mutant", cmd.mutant, "a mutant of rtl/mutants/channels/ (by name), applied to its block");
    app.add_option("--log-level", cmd.log_level, "spdlog level")->check(log_level())->capture_default_str();
    if (!parse_command(app, args, error)) return std::nullopt;

    ChannelLinkConfig& config = cmd.spec.config;
    if (!preset.empty()) config = *channel_preset(preset);
    if (!description.empty()) {
        const std::string problem = read_channel_description(description, config);
        if (!problem.empty()) {
            error.message = problem;
            return std::nullopt;
        }
    }
    if (!protocol.empty())
        config.protocol = protocol == "chi" ? ChannelProtocol::chi : protocol == "pcie" ? ChannelProtocol::pcie
                          : protocol == "ib" ? ChannelProtocol::ib : ChannelProtocol::generic;
    if (stages) config.stages = stages;
    config.shared_pool = config.shared_pool || shared_pool;
    if (drop_at_option->count()) faults.drop_at = drop_at;
    if (corrupt_at_option->count()) faults.corrupt_at = corrupt_at;
    if (!recovery && (total_bits || resend)) {
        error.message = "--total-bits and --resend tune the recovery protocol: add --recovery";
        return std::nullopt;
    }
    config.recovery = config.recovery || recovery;
    if (resend) config.resend_period = resend;
    config.shared_return = config.shared_return || shared_return;
    for (const auto& text : channels) {
        // The name picks the channel to change; a new name adds one.
        std::string name;
        std::istringstream items(text);
        for (std::string item; std::getline(items, item, ',');)
            if (item.rfind("name=", 0) == 0) name = item.substr(5);
        auto it = std::find_if(config.channels.begin(), config.channels.end(),
                               [&](const ChannelSpec& c) { return !name.empty() && c.name == name; });
        ChannelSpec added;
        ChannelSpec& target = it != config.channels.end() ? *it : added;
        const std::string problem = apply_channel_text(target, text);
        if (!problem.empty()) {
            error.message = problem;
            return std::nullopt;
        }
        if (&target == &added) {
            if (added.name.empty()) added.name = "C" + std::to_string(config.channels.size());
            config.channels.push_back(added);
        }
    }
    for (const auto& name : stalled) {
        auto it = std::find_if(config.channels.begin(), config.channels.end(), [&](const ChannelSpec& c) { return c.name == name; });
        if (it == config.channels.end()) {
            error.message = "--stall " + name + ": no channel of that name";
            return std::nullopt;
        }
        it->traffic.drain = 0.0;
        it->traffic.drain_every = 0;
    }
    if (config.recovery) {
        // The narrowest totals that keep a stale total from looking new in every pool: they wrap soonest.
        const ChannelLayout l = layout(config);
        config.total_bits = 1;
        for (int p = 0; p < l.pools; ++p)
            while ((1LL << config.total_bits) <= 2LL * l.pool_credits[p] && config.total_bits < 16) ++config.total_bits;
        if (total_bits) config.total_bits = total_bits;
    }
    if (auto problem = validate(config)) {
        error.message = *problem;
        return std::nullopt;
    }
    return cmd;
}

std::string channel_summary(const ChannelRunSpec& spec, const ChannelRunResult& r) {
    const ChannelLinkConfig& c = spec.config;
    std::ostringstream out;
    out << "creditloop run: " << (c.preset.empty() ? std::string("channels") : c.preset) << " (" << c.channels.size()
        << " channels, L = " << c.stages << ", " << (c.shared_pool ? "one shared pool" : "a pool per lane") << ", "
        << (c.shared_return ? "one shared return path" : "a return path per pool") << "), " << with_thousands(r.cycles)
        << " cycles, seed " << spec.seed << ", checked on the " << r.source << "\n";
    out << fmt::format("  {:<8} {:>10} {:>10} {:>8}\n", "channel", "flits/cyc", "model", "share");
    for (const auto& ch : r.channels)
        out << fmt::format("  {:<8} {:>10.3f} {:>10.3f} {:>7.1f}%\n", ch.name, ch.throughput, ch.model_throughput,
                           100.0 * ch.share);
    out << fmt::format("  {:<10} {:>7} {:>10} {:>14}   (closed-form RTT {})\n", "pool", "credits", "flits/cyc",
                       "measured RTT", r.closed_form_round_trip);
    for (const auto& p : r.pools)
        out << fmt::format("  {:<10} {:>7} {:>10.3f} {:>14}\n", p.name, p.credits, p.throughput,
                           p.throughput > 0 ? fmt::format("{:.1f}", p.measured_round_trip) : std::string("-"));
    if (c.recovery || spec.faults.any()) {
        out << "  faults: " << r.faults.size() << " injected of " << r.return_messages << " credit messages ("
            << describe(spec.faults) << "), recovery " << (c.recovery ? "on" : "off") << "\n";
    }
    out << "  link: " << three_decimals(r.link_throughput) << " flits/cycle; longest wait of an eligible channel: "
        << r.longest_wait << " grants (round-robin bound " << c.channels.size() - 1 << ")\n";
    for (const auto& b : r.scoreboards) out << "  " << b.summary << "\n";
    if (r.rtl_assertion_cycle) out << "  RTL assertion failed at cycle " << *r.rtl_assertion_cycle << "\n";
    if (const Violation* v = r.first_violation()) out << "  first violation: " << violation_line(*v) << "\n";
    out << (r.passed ? "PASS" : "FAIL") << "\n";
    return out.str();
}

std::string channel_json(const ChannelRunSpec& spec, const ChannelRunResult& r) {
    nlohmann::ordered_json j;
    j["source"] = r.source;
    j["preset"] = spec.config.preset;
    j["key"] = spec.config.key();
    j["cycles"] = r.cycles;
    j["seed"] = spec.seed;
    j["window_start"] = r.window_start;
    j["link_throughput"] = r.link_throughput;
    for (const auto& ch : r.channels)
        j["channels"].push_back({{"name", ch.name}, {"throughput", ch.throughput}, {"model_throughput", ch.model_throughput},
                                 {"share", ch.share}});
    for (const auto& p : r.pools)
        j["pools"].push_back({{"name", p.name}, {"credits", p.credits}, {"throughput", p.throughput},
                              {"measured_round_trip", p.measured_round_trip}});
    j["closed_form_round_trip"] = r.closed_form_round_trip;
    j["longest_wait"] = r.longest_wait;
    j["recovery"] = spec.config.recovery;
    j["faults"] = describe(spec.faults);
    j["injected_faults"] = nlohmann::ordered_json::array();
    for (const auto& f : r.faults)
        j["injected_faults"].push_back({{"cycle", f.cycle}, {"pool", f.pool}, {"kind", f.drop ? "drop" : "corrupt"},
                                        {"credits", f.credits}});
    for (const auto& b : r.scoreboards)
        j["scoreboards"].push_back({{"name", b.name}, {"cycles_checked", b.cycles_checked}, {"violations", b.violations}});
    j["violations"] = nlohmann::ordered_json::array();
    for (const auto& v : r.violations)
        j["violations"].push_back({{"cycle", v.cycle}, {"check", v.check}, {"signal", v.signal}, {"expected", v.expected},
                                   {"got", v.got}, {"detail", v.detail}});
    j["passed"] = r.passed;
    return j.dump(2);
}

std::vector<ChannelMutant> find_channel_mutants(const std::string& source_root) {
    std::vector<ChannelMutant> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fs::path(source_root) / "rtl" / "mutants" / "channels", ec)) {
        if (entry.path().extension() != ".mutant") continue;
        ChannelMutant m;
        m.name = entry.path().stem().string();
        m.file = entry.path().string();
        auto tags = mutant_tags(m.file);
        m.replaces = tags["replaces"].empty() ? "credit_link.sv" : tags["replaces"];
        m.mutant_class = tags["class"];
        m.expect = tags["expect"];
        out.push_back(m);
    }
    std::sort(out.begin(), out.end(), [](const ChannelMutant& a, const ChannelMutant& b) { return a.name < b.name; });
    return out;
}

std::vector<std::string> channel_mutant_rtl(const DutSources& sources, const ChannelMutant& m, std::string& error) {
    const std::string built =
        build_mutant(m.file, (fs::path(sources.source_root) / "rtl").string(), mutant_build_dir(sources.build_root), error);
    if (built.empty()) return {};
    return channel_rtl_files(sources, built, m.replaces);
}

int run_channel_command(const ChannelRunCommand& cmd) {
    set_log_level(cmd.log_level);
    std::unique_ptr<ChannelLibrary> library;
    std::unique_ptr<ChannelDut> dut;
    const DutSources base = DutSources::from_environment();
    if (!cmd.model_only) {
        if (!cmd.waves.empty()) {
            std::error_code ec;   // a path the system refuses (too long) is bad input, not an exception
            if (fs::exists(cmd.waves, ec) && !cmd.force) {
                std::cerr << "creditloop: --waves " << cmd.waves << " exists: add --force to overwrite it, or pick another path\n";
                return 2;
            }
            if (ec) {
                std::cerr << "creditloop: --waves " << cmd.waves << ": " << ec.message() << "\n";
                return 2;
            }
            const fs::path parent = fs::path(cmd.waves).parent_path();
            if (!parent.empty() && !fs::is_directory(parent, ec)) {
                std::cerr << "creditloop: --waves " << cmd.waves << ": directory " << parent.string() << " does not exist\n";
                return 2;
            }
        }
        DutSources sources = base;
        sources.fst = cmd.fst;
        ChannelWanted wanted{cmd.spec.config, {}};
        if (!cmd.mutant.empty()) {
            const auto mutants = find_channel_mutants(sources.source_root);
            auto it = std::find_if(mutants.begin(), mutants.end(), [&](const ChannelMutant& m) { return m.name == cmd.mutant; });
            if (it == mutants.end()) {
                std::cerr << "creditloop: --mutant " << cmd.mutant << " is not in rtl/mutants/channels/\n";
                return 2;
            }
            std::string problem;
            wanted.rtl = channel_mutant_rtl(sources, *it, problem);
            if (wanted.rtl.empty()) {
                std::cerr << "creditloop: --mutant " << cmd.mutant << ": " << problem << "\n";
                return 2;
            }
        }
        std::string error;
        library = ChannelLibrary::load(wanted, sources, error);
        if (!library) {
            std::cerr << "creditloop: " << error << "\n";
            return 3;
        }
        dut = library->create();
    }
    ChannelRunOptions options;
    options.trace_path = cmd.waves;
    ChannelRunResult result;
    {
        const StdoutToStderr quiet(cmd.json);   // the RTL's own messages must not break the JSON
        result = run_channels(dut.get(), cmd.spec, options);
    }
    if (cmd.json) {
        std::cout << channel_json(cmd.spec, result) << "\n";
    } else {
        std::cout << channel_summary(cmd.spec, result);
        if (!cmd.waves.empty()) {
            fs::path save = cmd.waves;
            save.replace_extension(".gtkw");
            std::string gtkw;
            if (!fs::exists(save) || cmd.force) gtkw = write_channel_gtkw(cmd.waves, cmd.spec.config, library->trace_scope(), result.first_violation());
            std::cout << "waves: gtkwave " << cmd.waves << (gtkw.empty() ? "" : " " + gtkw) << "\n";
        }
    }
    return result.passed ? 0 : 1;
}

// ---- the head-of-line table

std::optional<HolCommand> parse_hol(const std::vector<std::string>& args, ParseError& error) {
    HolCommand cmd;
    CLI::App app{"The head-of-line table (seed 003): the same traffic with channel 0's consumer stalled, once with "
                 "a pool per channel and once with one shared pool, against the closed forms.",
                 "creditloop hol"};
    app.add_option("--channels", cmd.channel_counts, "channels of each setup")->check(whole_number(2, kMaxChannels))->take_all();
    app.add_option("--credits", cmd.credit_counts, "credits per channel of each setup")->check(whole_number(1, 15))->take_all();
    app.add_option("--L", cmd.stage_counts, "stages of each setup")->check(whole_number(1, 64))->take_all();
    app.add_option("--cycles", cmd.cycles, "cycles per run (throughput over the second half)")
        ->check(whole_number(200, kMaxCycles))->capture_default_str();
    app.add_option("--seed", cmd.seed, "stimulus seed")->check(whole_number(0, kMaxSeed))->capture_default_str();
    add_flag(app, "--model", cmd.model_only, "the golden model alone (no RTL)");
    if (!parse_command(app, args, error)) return std::nullopt;
    if (cmd.channel_counts.size() != cmd.credit_counts.size() || cmd.channel_counts.size() != cmd.stage_counts.size()) {
        error.message = "--channels, --credits and --L need one value per setup (got " + std::to_string(cmd.channel_counts.size()) +
                        ", " + std::to_string(cmd.credit_counts.size()) + " and " + std::to_string(cmd.stage_counts.size()) + ")";
        return std::nullopt;
    }
    return cmd;
}

int run_hol(const std::vector<std::string>& args) {
    ParseError error;
    const auto cmd = parse_hol(args, error);
    if (!cmd) return parse_failed(error);
    const std::vector<int>& channel_counts = cmd->channel_counts;
    const std::vector<int>& credit_counts = cmd->credit_counts;
    const std::vector<int>& stage_counts = cmd->stage_counts;
    const uint64_t cycles = cmd->cycles, seed = cmd->seed;
    const bool model_only = cmd->model_only;
    std::vector<HolRow> rows;
    std::vector<ChannelRunSpec> specs;
    for (size_t i = 0; i < channel_counts.size(); ++i) {
        for (bool shared : {false, true}) {
            HolRow row{channel_counts[i], credit_counts[i], stage_counts[i], shared};
            row.closed_form = shared ? hol_shared_pool_throughput()
                                     : hol_per_channel_throughput(row.channels - 1, row.credits, round_trip_cycles(row.stages));
            rows.push_back(row);
            specs.push_back({hol_config(row.channels, row.credits, row.stages, shared), cycles, seed});
        }
    }
    const DutSources sources = DutSources::from_environment();
    Progress progress("creditloop hol", stderr);   // the table alone on stdout
    if (!model_only) {
        std::vector<ChannelWanted> wanted;
        for (const auto& s : specs) wanted.push_back({s.config, {}});
        progress.phase("verilated configurations");
        const auto errors = build_channel_duts(wanted, sources, [&](const std::string& s) { progress.status(s); });
        if (!errors.empty()) {
            progress.finish();
            for (const auto& e : errors) std::cerr << "creditloop hol: " << e << "\n";
            return 3;
        }
    }
    progress.phase("runs", specs.size());
    bool all = true;
    for (size_t i = 0; i < specs.size(); ++i) {
        std::unique_ptr<ChannelLibrary> library;
        std::unique_ptr<ChannelDut> dut;
        if (!model_only) {
            std::string e;
            library = ChannelLibrary::load({specs[i].config, {}}, sources, e);
            if (!library) {
                progress.finish();
                std::cerr << "creditloop hol: " << e << "\n";
                return 3;
            }
            dut = library->create();
        }
        const ChannelRunResult r = run_channels(dut.get(), specs[i], {});
        HolRow& row = rows[i];
        row.lowest = 1.0;
        row.highest = 0.0;
        row.meets = true;
        for (int c = 1; c < row.channels; ++c) {
            row.lowest = std::min(row.lowest, r.channels[c].throughput);
            row.highest = std::max(row.highest, r.channels[c].throughput);
            row.meets = row.meets && std::abs(r.channels[c].throughput - row.closed_form) <= 0.002;
        }
        row.passed = r.passed;
        all = all && row.meets && row.passed;
        progress.advance();
    }
    progress.finish();
    std::cout << "Head-of-line blocking (seed 003): channel C0's consumer stalled, every source offering a one-flit "
                 "packet each cycle, "
              << cycles << " cycles, throughput over the second half, " << (model_only ? "golden model" : "RTL in lockstep with the model")
              << ".\n\n"
              << "| channels | B per channel | L | RTT | pools | each other channel: closed form | measured (lowest .. highest) | meets | checks |\n"
              << "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& row : rows) {
        const int rtt = round_trip_cycles(row.stages);
        const std::string form =
            row.shared ? "0 (C0 holds every credit)"
                       : fmt::format("min(1/{}, {}/{}) = {:.3f}", row.channels - 1, row.credits, rtt, row.closed_form);
        std::cout << fmt::format("| {} | {} | {} | {} | {} | {} | {:.3f} .. {:.3f} | {} | {} |\n", row.channels, row.credits,
                                 row.stages, rtt, row.shared ? fmt::format("one shared ({})", row.channels * row.credits)
                                                             : std::string("per channel"),
                                 form, row.lowest, row.highest, row.meets ? "yes" : "NO", row.passed ? "pass" : "FAIL");
    }
    return all ? 0 : 1;
}

}  // namespace creditloop

namespace creditloop {

std::vector<std::pair<std::string, ChannelRunSpec>> channel_mutation_cases(uint64_t seed) {
    std::vector<std::pair<std::string, ChannelRunSpec>> cases;
    for (const auto& name : channel_presets()) cases.push_back({"channels/" + name, {*channel_preset(name), 4000, seed}});
    // Small pools that run dry, multi-credit packets and a shared return path, all at once.
    ChannelLinkConfig tight;
    tight.preset = "tight";
    tight.stages = 2;
    tight.shared_return = true;
    ChannelSpec a, b, c;
    a.name = "A";
    a.credits = 3;
    a.unit = 8;
    a.traffic = {1, 24, 0.6, 0.7};
    b.name = "B";
    b.split = true;
    b.credits = 2;
    b.data_credits = 5;
    b.data_batch = 2;
    b.unit = 16;
    b.traffic = {0, 64, 0.4, 0.5};
    c.name = "C";
    c.credits = 2;
    c.traffic = {1, 1, 0.9, 0.9};
    tight.channels = {a, b, c};
    cases.push_back({"channels/tight", {tight, 4000, seed}});

    // The corners: eight channels contending (a round-robin pointer must hold 0..7), ten pools on
    // one shared return path (a pool id must hold 0..9), and packets up to the largest a link
    // takes (65535 bytes) with large units, so credit arithmetic near the top of its range runs.
    ChannelLinkConfig wide;
    wide.preset = "wide";
    wide.stages = 2;
    wide.shared_return = true;
    for (int i = 0; i < 8; ++i) {
        ChannelSpec ch;
        ch.name = "W" + std::to_string(i);
        ch.credits = 4 + i;
        ch.traffic = {1, 1, 0.5, 0.8};
        wide.channels.push_back(ch);
    }
    wide.channels[2].unit = 1024;                    // plain, up to 64 credits a packet
    wide.channels[2].credits = 64;
    wide.channels[2].traffic = {60000, 65535, 0.3, 1.0};
    wide.channels[6].split = true;                   // header/data: pools 6 and 7
    wide.channels[6].data_credits = 6;
    wide.channels[6].unit = 16;
    wide.channels[6].traffic = {0, 80, 0.5, 0.9};
    wide.channels[7].split = true;                   // header/data: pools 8 and 9
    wide.channels[7].data_credits = 17;             // a packet's 16 plus a batch's K - 1
    wide.channels[7].data_batch = 2;
    wide.channels[7].unit = 4096;
    wide.channels[7].traffic = {50000, 65535, 0.6, 1.0};
    cases.push_back({"channels/wide", {wide, 4000, seed}});

    // One pool shared by four lanes whose consumers stall half the time: flits pile up in the
    // lanes, and lanes of one pool pop together, so its freed slots must be added, not OR-ed.
    ChannelLinkConfig shared;
    shared.preset = "shared";
    shared.stages = 3;
    shared.shared_pool = true;
    for (int i = 0; i < 4; ++i) {
        ChannelSpec ch;
        ch.name = "S" + std::to_string(i);
        ch.credits = 12;
        ch.traffic = {1, 1, 0.9, 0.5};
        shared.channels.push_back(ch);
    }
    cases.push_back({"channels/shared", {shared, 4000, seed}});

    // Recovery under faults with stalled consumers: updates dropped, and updates made larger by
    // 6, one more than the largest pool's B. A correct sender refuses every enlarged update (so
    // the run passes); a limit of B + 1 accepts one that arrives while the pool's credits are all
    // away, so the limit is tested at exactly B + 1.
    ChannelLinkConfig recovery = tight;
    recovery.preset = "recovery";
    recovery.recovery = true;
    recovery.total_bits = 5;
    recovery.resend_period = 8;
    ChannelRunSpec faults{recovery, 6000, seed};
    faults.faults.drop_probability = 0.03;
    faults.faults.corrupt_probability = 0.03;
    faults.faults.corrupt_add = 6;
    cases.push_back({"channels/recovery", faults});
    return cases;
}

int run_channel_mutants(const std::string& filter, uint64_t seed, const std::string& waves_dir, const std::string& program,
                        bool (*matches)(const std::string&, const std::string&)) {
    const DutSources sources = DutSources::from_environment();
    std::vector<ChannelMutant> mutants;
    for (auto& m : find_channel_mutants(sources.source_root))
        if (matches(m.name, filter)) mutants.push_back(std::move(m));
    if (mutants.empty()) return 0;
    const auto cases = channel_mutation_cases(seed);
    std::cout << "\ncreditloop mutants: " << mutants.size() << " multi-channel mutants (rtl/mutants/channels/), up to "
              << cases.size() << " stimulus sets each\n" << std::flush;
    std::vector<ChannelWanted> wanted;
    std::vector<std::vector<std::string>> rtl;
    std::vector<std::string> problems(mutants.size());
    for (size_t i = 0; i < mutants.size(); ++i) {
        rtl.push_back(channel_mutant_rtl(sources, mutants[i], problems[i]));
        if (rtl.back().empty()) continue;
        for (const auto& [name, spec] : cases) wanted.push_back({spec.config, rtl.back()});
    }
    Progress progress("creditloop mutants (channels)");
    progress.phase("verilated configurations");
    for (const auto& e : build_channel_duts(wanted, sources, [&](const std::string& s) { progress.status(s); }))
        progress.print("creditloop mutants: " + e);
    std::error_code ec;
    fs::create_directories(waves_dir, ec);
    struct Kill {
        bool caught = false;
        std::string case_name, checks, waves, gtkw, error;
        ChannelRunSpec spec;
        Violation first;
    };
    std::vector<Kill> kills(mutants.size());
    progress.phase("mutants", mutants.size());
    for (size_t i = 0; i < mutants.size(); ++i) {
        Kill& kill = kills[i];
        kill.error = problems[i];
        for (const auto& [name, spec] : cases) {
            if (!kill.error.empty()) break;
            std::string error;
            auto library = ChannelLibrary::load({spec.config, rtl[i]}, sources, error);
            if (!library) {
                kill.error = error;
                break;
            }
            ChannelRunOptions options;
            options.stop_after_violation = 0;
            ChannelRunResult result;
            {
                auto dut = library->create();
                result = run_channels(dut.get(), spec, options);
            }
            if (result.passed) continue;
            kill.caught = true;
            kill.case_name = name;
            kill.spec = spec;
            kill.first = result.violations.front();
            for (const auto& v : result.violations)
                if (v.cycle == kill.first.cycle && kill.checks.find(v.check) == std::string::npos)
                    kill.checks += (kill.checks.empty() ? "" : ", ") + v.check;
            options.trace_path = (fs::path(waves_dir) / (mutants[i].name + ".vcd")).string();
            options.trace_from = kill.first.cycle > 200 ? kill.first.cycle - 200 : 0;
            options.stop_after_violation = 20;
            auto dut = library->create();
            run_channels(dut.get(), spec, options);
            kill.waves = options.trace_path;
            kill.gtkw = write_channel_gtkw(kill.waves, spec.config, library->trace_scope(), &kill.first);
            break;
        }
        progress.advance();
        progress.print((kill.caught ? "caught   " : "SURVIVED ") + mutants[i].name);
    }
    progress.finish();
    size_t survivors = 0;
    std::cout << "\n" << fmt::format("{:<30} {:<7} {:<6} {:<44} {}\n", "mutant", "caught", "cycle", "by checks (first cycle)",
                                     "stimulus, waves");
    for (size_t i = 0; i < mutants.size(); ++i) {
        const Kill& k = kills[i];
        survivors += k.caught ? 0 : 1;
        std::cout << fmt::format("{:<30} {:<7} {:<6} {:<44} {}\n", mutants[i].name, k.caught ? "yes" : "NO",
                                 k.caught ? std::to_string(k.first.cycle) : "-", k.caught ? k.checks : "-",
                                 k.caught ? k.case_name + ", gtkwave " + k.waves + " " + k.gtkw : k.error);
        std::cout << "    " << mutants[i].mutant_class << "\n";
        if (k.caught) std::cout << "    first: " << violation_line(k.first) << "\n";
        if (k.caught) std::cout << "    rerun: " << program << " run " << channel_run_arguments(kills[i].spec) << " --mutant " << mutants[i].name << "\n";
    }
    for (size_t i = 0; i < mutants.size(); ++i) {
        if (kills[i].caught) continue;
        std::cout << "\nSURVIVED " << mutants[i].name << ": no check fired; rerun one stimulus set with:\n";
        for (const auto& [name, spec] : cases)
            std::cout << "  " << program << " run " << channel_run_arguments(spec) << " --mutant " << mutants[i].name << "\n";
    }
    std::cout << "\n" << (mutants.size() - survivors) << " of " << mutants.size() << " multi-channel mutants caught\n";
    return static_cast<int>(survivors);
}

}  // namespace creditloop
