// The regression's results (regression_detail.h): the summary table, each failure with the
// command that reruns it and its waves, the functional coverage, the JUnit file (written, and read
// back for RERUN=failed) and the exit code.
#include <csignal>

#include <unistd.h>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "channels_command.h"
#include "coverage_report.h"
#include "interrupt.h"
#include "junit.h"
#include "regression_detail.h"
#include "report.h"
#include "report_folder.h"

namespace fs = std::filesystem;

namespace creditloop {

using namespace regression_detail;

namespace {

// PASS, PASS (caught), PASS (caught by the design's assertion X at file:line) or FAIL.
std::string verdict_word(const CaseOutcome& o) {
    if (!o.passed()) return "FAIL";
    if (!o.caught_as_expected) return "PASS";
    return o.caught_by.empty() ? "PASS (caught)" : "PASS (caught by " + o.caught_by + ")";
}


// The options that pick the RTL, for rerun lines.
std::string dut_arguments(const RegressCommand& command) {
    std::string out;
    for (const auto& arg : rtl_arguments(command)) out += " " + arg;
    return out;
}

std::string pad(const std::string& text, size_t width) {
    return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

// The `creditloop run` arguments that rerun case `c` exactly.
std::string rerun_arguments(const RegressionCase& c, const RegressCommand& command) {
    return c.channels ? channel_run_arguments(*c.channels) : run_arguments(c.spec) + dut_arguments(command);
}

std::string signal_name(int signal) {
    return signal == SIGINT ? "SIGINT (Ctrl-C)" : signal == SIGTERM ? "SIGTERM" : "signal " + std::to_string(signal);
}

// The JUnit file. Every selected test is in it: a finished one with its verdict, one stopped by
// Ctrl-C as an error of type "interrupted", one never started as skipped. Each carries its index
// in the whole (unsharded) selection, so shards merge back into the unsharded file's order.
bool write_junit(const std::string& path, const std::vector<RegressionCase>& cases, const std::vector<size_t>& indices,
                 size_t selected, const std::vector<CaseOutcome>& outcomes, const RegressCommand& command,
                 const std::string& program, const CoverageTally& coverage) {
    size_t failures = 0, errors = 0, skipped = 0;
    double total = 0.0;
    // Why tests were left unrun: a signal, or a disk that filled up.
    std::string stop_reason = interrupt_requested() ? "the regression was interrupted by " + signal_name(interrupt_signal()) : "";
    for (const auto& o : outcomes)
        if (o.disk_error && stop_reason.empty()) stop_reason = "the regression stopped: " + o.error;
    for (const auto& o : outcomes) {
        failures += o.finished() && !o.disk_error && !o.passed() ? 1 : 0;
        errors += o.ending == CaseOutcome::Ending::interrupted || o.disk_error ? 1 : 0;
        skipped += o.ending == CaseOutcome::Ending::not_run ? 1 : 0;
        total += o.seconds;
    }
    pugi::xml_document doc;
    auto suite = start_junit_suite(doc);
    suite.append_attribute("tests") = static_cast<unsigned long long>(cases.size());
    suite.append_attribute("failures") = static_cast<unsigned long long>(failures);
    suite.append_attribute("errors") = static_cast<unsigned long long>(errors);
    suite.append_attribute("skipped") = static_cast<unsigned long long>(skipped);
    suite.append_attribute("time") = total;
    const auto property = [](pugi::xml_node properties, const char* name, const std::string& value) {
        auto p = properties.append_child("property");
        p.append_attribute("name") = name;
        p.append_attribute("value") = value.c_str();
    };
    auto suite_properties = suite.append_child("properties");
    property(suite_properties, "seed", std::to_string(command.seed));
    property(suite_properties, "filter", command.filter);
    property(suite_properties, "tests.total", std::to_string(selected));
    // The RTL the run checked (a JSON list of options), so RERUN=failed reruns it on the same RTL.
    property(suite_properties, "rtl.arguments", nlohmann::json(rtl_arguments(command)).dump());
    if (command.shards) property(suite_properties, "shard", std::to_string(command.shard) + "/" + std::to_string(command.shards));
    if (interrupt_requested()) property(suite_properties, "interrupted", signal_name(interrupt_signal()));
    // The functional coverage totals; every bin with its count is in the JSON named here.
    property(suite_properties, "coverage.bins_hit", std::to_string(coverage.hit()));
    property(suite_properties, "coverage.bins_total", std::to_string(coverage.total()));
    std::string unhit;
    for (const auto& name : coverage.unhit()) unhit += (unhit.empty() ? "" : " ") + name;
    property(suite_properties, "coverage.bins_unhit", unhit);
    property(suite_properties, "coverage.file", fs::path(coverage_json_path(path)).filename().string());
    for (size_t i = 0; i < cases.size(); ++i) {
        const auto& c = cases[i];
        const auto& o = outcomes[i];
        const auto slash = c.name.find('/');
        auto test = suite.append_child("testcase");
        test.append_attribute("classname") = ("creditloop." + c.name.substr(0, slash)).c_str();
        test.append_attribute("name") = c.name.substr(slash + 1).c_str();
        test.append_attribute("time") = o.seconds;
        auto properties = test.append_child("properties");
        property(properties, "seed", std::to_string(c.channels ? c.channels->seed : c.spec.stimulus.seed));
        property(properties, "config", c.channels ? channel_run_arguments(*c.channels) : describe(c.spec));
        property(properties, "index", std::to_string(indices[i]));
        if (!o.caught_by.empty()) property(properties, "caught_by", o.caught_by);
        // The columns of the summary table and what a failure shows, for the HTML report.
        if (o.finished() && !o.disk_error) {
            property(properties, "verdict", verdict_word(o));
            if (!c.channels) {
                property(properties, "cycles", std::to_string(o.result.cycles));
                property(properties, "measured", three_decimals(o.result.throughput));
                property(properties, "predicted", three_decimals(o.result.predicted_throughput));
            } else if (o.channels) {
                property(properties, "cycles", std::to_string(o.channels->cycles));
                property(properties, "measured", three_decimals(o.channels->link_throughput));
            }
        }
        if (c.seed_throughput) property(properties, "seed_value", *c.seed_throughput);
        if (o.first_violation()) property(properties, "first_violation", violation_line(*o.first_violation()));
        property(properties, "rerun", program + " run " + rerun_arguments(c, command));
        if (!o.waves.empty()) property(properties, "waves", o.waves);
        if (!o.gtkw.empty()) property(properties, "gtkw", o.gtkw);
        const std::string rerun = "rerun: " + program + " run " + rerun_arguments(c, command);
        if (o.ending == CaseOutcome::Ending::interrupted) {
            auto error = test.append_child("error");
            error.append_attribute("type") = "interrupted";
            error.append_attribute("message") = ("interrupted by " + signal_name(interrupt_signal())).c_str();
            error.text() = rerun.c_str();
        } else if (o.ending == CaseOutcome::Ending::not_run) {
            // o.error says when: "interrupted while building" (the bank builds never finished).
            test.append_child("skipped").append_attribute("message") =
                ((o.error.empty() ? "not run: " : "not run (" + o.error + "): ") + stop_reason).c_str();
        } else if (o.disk_error) {
            auto error = test.append_child("error");
            error.append_attribute("type") = "io";
            error.append_attribute("message") = o.error.c_str();
            error.text() = rerun.c_str();
        } else if (!o.passed()) {
            std::string message = o.error;
            if (message.empty() && o.first_violation()) message = violation_line(*o.first_violation());
            if (message.empty()) message = o.seed_check_failure;
            auto failure = test.append_child("failure");
            failure.append_attribute("message") = message.c_str();
            failure.text() = (rerun + (o.waves.empty() ? "" : "\nwaves: gtkwave " + o.waves + " " + o.gtkw)).c_str();
        }
    }
    // Write beside the target and rename, so a reader never sees half a file.
    std::error_code ec;
    if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path(), ec);
    const std::string temporary = path + "." + std::to_string(::getpid()) + ".tmp";   // two runs at once: each its own
    if (!doc.save_file(temporary.c_str(), "  ")) {
        fs::remove(temporary, ec);   // a full disk: the last complete file stays as it was
        return false;
    }
    fs::rename(temporary, path, ec);
    return !ec;
}

}  // namespace

// The tests of an earlier JUnit file that did not pass: failed, interrupted or never run.
Problem tests_to_rerun(const std::string& junit, uint64_t seed, std::set<std::string>& tests) {
    pugi::xml_document doc;
    const auto parsed = doc.load_file(junit.c_str());
    if (!parsed)
        return "cannot read " + junit + " (" + parsed.description() + "): run make sim first, or name the JUnit file to rerun from";
    const auto suite = doc.child("testsuites").child("testsuite");
    if (!suite) return junit + " is no JUnit file of creditloop regress (no testsuites/testsuite)";
    const auto seed_property = suite.child("properties").find_child_by_attribute("property", "name", "seed");
    if (seed_property && seed_property.attribute("value").as_ullong() != seed)
        return junit + " was run with seed " + seed_property.attribute("value").as_string() + ", this run has " +
                  std::to_string(seed) + ": rerun with SEED=" + seed_property.attribute("value").as_string() +
                  " (--seed), or its random tests would be others";
    for (auto test : suite.children("testcase")) {
        if (!test.child("failure") && !test.child("error") && !test.child("skipped")) continue;
        std::string classname = test.attribute("classname").as_string();
        if (classname.rfind("creditloop.", 0) == 0) classname = classname.substr(11);
        tests.insert(classname + "/" + test.attribute("name").as_string());
    }
    return std::nullopt;
}

Problem adopt_rtl_options(RegressCommand& command, const std::string& junit) {
    pugi::xml_document doc;
    if (!doc.load_file(junit.c_str())) return std::nullopt;   // tests_to_rerun names the problem
    const std::string text = doc.child("testsuites")
                                 .child("testsuite")
                                 .child("properties")
                                 .find_child_by_attribute("property", "name", "rtl.arguments")
                                 .attribute("value")
                                 .as_string();
    if (text.empty()) return std::nullopt;
    std::vector<std::string> earlier;
    try {
        earlier = nlohmann::json::parse(text).get<std::vector<std::string>>();
    } catch (const nlohmann::json::exception&) {
        return junit + ": its rtl.arguments property is not a JSON list of options: rerun make sim whole";
    }
    const auto given = rtl_arguments(command);
    const auto joined = [](const std::vector<std::string>& args) {
        std::string out;
        for (const auto& a : args) out += (out.empty() ? "" : " ") + a;
        return out.empty() ? std::string("creditloop's own RTL") : out;
    };
    if (!given.empty() && given != earlier)
        return junit + " was run on " + joined(earlier) + ", not " + joined(given) +
               ": rerun with the same RTL options, or with none to take that run's";
    if (earlier.empty() || !given.empty()) return std::nullopt;
    ParseError error;
    const auto parsed = parse_regress(earlier, error);
    if (!parsed) return junit + ": its RTL options (" + joined(earlier) + ") no longer parse: rerun make sim whole";
    command.rtl_dir = parsed->rtl_dir;
    command.rtl_options = parsed->rtl_options;
    command.counter_file = parsed->counter_file;
    command.return_file = parsed->return_file;
    command.link_map = parsed->link_map;
    command.mutant = parsed->mutant;
    command.werror = parsed->werror;
    std::cout << "creditloop regress: on the RTL of that run: " << joined(earlier) << "\n";
    return std::nullopt;
}

namespace regression_detail {

int report_regression(const std::vector<RegressionCase>& cases, const std::vector<size_t>& indices, size_t selected,
                      const std::vector<CaseOutcome>& outcomes, const RegressCommand& command, const std::string& program) {
    // The summary table.
    std::ostringstream table;
    table << "\n" << pad("test", 34) << pad("configuration", 26) << pad("cycles", 8) << pad("measured", 10)
          << pad("predicted", 11) << pad("seed", 7) << "verdict\n";
    size_t failed = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        const auto& c = cases[i];
        const auto& o = outcomes[i];
        failed += o.finished() && !o.disk_error && !o.passed() ? 1 : 0;
        if (c.channels) {
            const ChannelLinkConfig& cc = c.channels->config;
            if (!o.finished() || o.disk_error) {
                table << pad(c.name, 34)
                      << (o.disk_error ? "its waves could not be written" : o.ending == CaseOutcome::Ending::interrupted ? "interrupted" : "not run")
                      << "\n";
                continue;
            }
            table << pad(c.name, 34)
                  << pad(std::to_string(cc.channels.size()) + (cc.channels.size() == 1 ? " channel, L" : " channels, L") +
                             std::to_string(cc.stages),
                         26)
                  << pad(std::to_string(o.channels ? o.channels->cycles : 0), 8)
                  << pad(o.channels ? three_decimals(o.channels->link_throughput) : "-", 10) << pad("-", 11)
                  << pad(c.seed_throughput.value_or("-"), 7)
                  << verdict_word(o) << "\n";
            continue;
        }
        if (!o.finished()) {
            table << pad(c.name, 34) << pad(c.spec.config.key(), 26)
                  << (o.ending == CaseOutcome::Ending::interrupted ? "interrupted" : o.error.empty() ? "not run" : "not run (" + o.error + ")") << "\n";
            continue;
        }
        if (o.disk_error) {
            table << pad(c.name, 34) << pad(c.spec.config.key(), 26) << "its waves could not be written\n";
            continue;
        }
        table << pad(c.name, 34) << pad(c.spec.config.key(), 26) << pad(std::to_string(o.result.cycles), 8)
              << pad(three_decimals(o.result.throughput), 10) << pad(three_decimals(o.result.predicted_throughput), 11)
              << pad(c.seed_throughput.value_or("-"), 7) << verdict_word(o) << "\n";
    }
    std::cout << table.str();

    for (size_t i = 0; i < cases.size(); ++i) {
        const auto& o = outcomes[i];
        if (o.passed() || !o.finished() || o.disk_error) continue;
        const auto& c = cases[i];
        std::cout << "\nFAIL " << c.name << " (" << (c.channels ? c.channels->config.key() : describe(c.spec)) << ")\n";
        if (!o.error.empty()) std::cout << "  " << o.error << "\n";
        if (!o.seed_check_failure.empty()) std::cout << "  seed table: " << o.seed_check_failure << "\n";
        if (o.first_violation()) std::cout << "  first violation: " << violation_line(*o.first_violation()) << "\n";
        for (const auto& b : o.channels ? o.channels->scoreboards : o.result.scoreboards)
            if (b.violations) std::cout << "  " << b.summary << "\n";
        std::cout << "  rerun: " << program << " run " << rerun_arguments(c, command) << "\n";
        if (!o.waves.empty()) std::cout << "  waves: gtkwave " << o.waves << (o.gtkw.empty() ? "" : " " + o.gtkw) << "\n";
    }
    if (command.waves) std::cout << "\nwaves of every test under " << command.waves_dir << "/\n";

    // Functional coverage over every run (docs/coverage.md): a SystemC case repeats its C++ run
    // and is not counted twice; a case that could not run adds nothing.
    CoverageTally coverage;
    for (size_t i = 0; i < cases.size(); ++i) {
        const auto& o = outcomes[i];
        if (cases[i].systemc || !o.finished() || o.disk_error) continue;
        if (o.channels) coverage.add(o.channels->coverage);
        else if (!cases[i].channels && o.result.cycles != 0) coverage.add(o.result.coverage);
    }
    const std::string coverage_file = coverage_json_path(command.junit);
    bool partial = interrupt_requested();
    for (const auto& o : outcomes) partial = partial || o.disk_error;
    if (partial)   // the bins a cut-short run missed say nothing: the totals only
        std::cout << "\nfunctional coverage: " << coverage.hit() << " of " << coverage.total() << " bins hit over the "
                  << coverage.runs() << " runs that finished (" << coverage_file << ")\n";
    else
        std::cout << "\n" << coverage_summary(coverage);

    const bool written = write_junit(command.junit, cases, indices, selected, outcomes, command, program, coverage) &&
                         write_coverage_json(coverage_file, coverage);
    // The HTML report (docs/report.md), from the files just written.
    bool report_input_problem = false;
    const std::string report_problem =
        written && !command.report_dir.empty()
            ? write_report_folder(command.junit, command.report_dir, DutSources::from_environment().source_root, false,
                                  report_input_problem)
            : "";
    if (!report_problem.empty()) std::cerr << "creditloop regress: " << report_problem << "\n";
    size_t interrupted = 0, not_run = 0;
    std::string disk_problem;
    for (const auto& o : outcomes) {
        interrupted += o.ending == CaseOutcome::Ending::interrupted ? 1 : 0;
        not_run += o.ending == CaseOutcome::Ending::not_run ? 1 : 0;
        if (o.disk_error && disk_problem.empty()) disk_problem = o.error;
    }
    const size_t finished = cases.size() - interrupted - not_run;
    if (!disk_problem.empty()) {
        // One line: what failed, what was kept, what to do.
        std::cerr << "creditloop regress: " << disk_problem << " (the disk is full?): stopped after " << finished << " of "
                  << cases.size() << " tests; " << (written ? "their results are in " + command.junit : "the JUnit file could not be written either, the last complete one is kept")
                  << "; free some space or pick another --waves-dir, then: make sim RERUN=failed\n";
        return 3;
    }
    if (!written) {
        std::cerr << "creditloop regress: cannot write " << command.junit << " or " << coverage_file
                  << " (the disk is full, or the folder is not writable): the last complete files are kept\n";
        return 3;
    }
    if (interrupt_requested()) {
        std::cout << "\ncreditloop regress: interrupted by " << signal_name(interrupt_signal()) << ": " << finished
                  << " finished (" << failed << " failed), " << interrupted << " interrupted, " << not_run
                  << " not run; JUnit: " << command.junit << "\n"
                  << "  rerun what did not pass: make sim RERUN=failed  (creditloop regress --rerun-failed " << command.junit
                  << ")\n";
        return 128 + interrupt_signal();
    }
    std::cout << "\n" << (cases.size() - failed) << " passed, " << failed << " failed (JUnit: " << command.junit
              << ", coverage: " << coverage_file << ")\n";
    if (!command.report_dir.empty() && report_problem.empty())
        std::cout << "report: " << report_index_path(command.report_dir) << "\n";
    if (failed) std::cout << "rerun what failed: make sim RERUN=failed\n";
    return failed ? 1 : !report_problem.empty() ? 3 : 0;
}

}  // namespace regression_detail

}  // namespace creditloop
