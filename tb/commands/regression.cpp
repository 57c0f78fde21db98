#include "regression.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include <unistd.h>

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "block_swap.h"
#include "channel_gtkw.h"
#include "channel_library.h"
#include "channels_command.h"
#include "coverage_report.h"
#include "dut_library.h"
#include "own_link.h"
#include "port_map.h"
#include "gtkw.h"
#include "interrupt.h"
#include "junit.h"
#include "log.h"
#include "parallel.h"
#include "process.h"
#include "progress.h"
#include "report.h"

namespace fs = std::filesystem;

namespace creditloop {

namespace {

struct CaseOutcome {
    RunResult result;
    std::optional<ChannelRunResult> channels;   // a multi-channel case's result
    bool caught_as_expected = false;             // a case that must be caught was, by its checks
    std::string seed_check_failure;   // the seed prints another number
    std::string waves;                // path, when written
    std::string gtkw;                 // its GTKWave save file
    std::string error;                // could not run at all
    double seconds = 0.0;
    // Ctrl-C or SIGTERM (interrupt.h): a test stopped mid-run, or never started. Neither is a verdict.
    enum class Ending { finished, interrupted, not_run } ending = Ending::finished;
    bool disk_error = false;          // its waves could not be written (error says why)
    bool finished() const { return ending == Ending::finished; }
    bool passed() const {
        return finished() && error.empty() && ((channels ? channels->passed : result.passed) || caught_as_expected) &&
               seed_check_failure.empty();
    }
    const Violation* first_violation() const { return channels ? channels->first_violation() : result.first_violation(); }
};

// Waves are written to "<file>.part" and renamed when the run ends whole: a file under its own
// name is always complete. An interrupted run's or a failed write's part is removed. "" when the
// file is in place, else the write's error.
std::string settle_waves(const std::string& waves, const std::string& trace_error, bool interrupted) {
    std::error_code ec;
    const std::string part = waves + ".part";
    if (interrupted || !trace_error.empty()) {
        fs::remove(part, ec);
        return trace_error;
    }
    fs::rename(part, waves, ec);
    return ec ? "cannot write " + waves + ": " + ec.message() : "";
}

// What a case's run tells about waves and interruptions, into its outcome.
void note_run_end(CaseOutcome& outcome, const std::string& waves, const std::string& trace_error, bool interrupted,
                  bool traced) {
    if (interrupted) outcome.ending = CaseOutcome::Ending::interrupted;
    if (!traced) return;
    const std::string problem = settle_waves(waves, trace_error, interrupted);
    if (!problem.empty()) {
        outcome.error = problem;
        outcome.disk_error = true;
    }
}

std::string file_name_of(const std::string& test) {
    std::string out = test;
    for (char& c : out)
        if (c == '/') c = '_';
    return out;
}

// Loaded plugins, shared by the worker threads.
class LibraryCache {
public:
    explicit LibraryCache(DutSources sources) : sources_(std::move(sources)) {}
    const DutLibrary* get(const LinkConfig& config, std::string& error) {
        std::lock_guard<std::mutex> guard(mutex_);
        auto& slot = libraries_[config.key()];
        if (!slot) slot = DutLibrary::load(config, sources_, error);
        return slot.get();
    }
    const DutSources& sources() const { return sources_; }

private:
    DutSources sources_;
    std::mutex mutex_;
    std::map<std::string, std::unique_ptr<DutLibrary>> libraries_;
};


// The run again under the SystemC harness: "" when its JSON is the C++ harness's, field for
// field (the source aside), else what differs.
}  // namespace

std::string systemc_disagreement(const RegressionCase& c, const RunResult& cpp, const DutSources& sources) {
    std::string error;
    const std::string harness = systemc_harness(c.spec.config, sources, error);
    if (harness.empty()) return error;
    std::vector<std::string> argv = systemc_command(harness, c.spec);
    argv.push_back("--json");
    std::string text;
    const int status = run_capture(argv, text);
    RunResult expected = cpp;
    expected.source = "systemc";
    const nlohmann::ordered_json want = run_json_value(c.spec, expected);
    const int want_status = cpp.passed ? 0 : 1;
    nlohmann::ordered_json got;
    try {
        got = nlohmann::ordered_json::parse(text);
    } catch (const nlohmann::json::exception&) {
        return "the SystemC harness printed no JSON (exit " + std::to_string(status) + "): '" + text.substr(0, 120) + "'";
    }
    if (got == want && status == want_status) return "";
    // Name the fields that differ, with both values (the first few).
    std::string fields;
    int named = 0;
    for (const auto& op : nlohmann::ordered_json::diff(want, got)) {
        const std::string path = op.value("path", "");
        if (named++ == 4) {
            fields += ", ...";
            break;
        }
        const auto pointer = nlohmann::ordered_json::json_pointer(path);
        fields += (fields.empty() ? "" : ", ") + path + ": C++ " + (want.contains(pointer) ? want.at(pointer).dump() : "(none)") +
                  ", SystemC " + (got.contains(pointer) ? got.at(pointer).dump() : "(none)");
    }
    if (fields.empty()) fields = "exit " + std::to_string(status) + " where the C++ harness gave " + std::to_string(want_status);
    return "the SystemC harness disagrees with the C++ harness: " + fields;
}

namespace {

// A case that must be caught (expect_caught): caught means the expected checks fired, and the
// RTL still agrees with the model (the fault is the environment's, not the design's).
void judge_caught(const RegressionCase& c, bool passed, const std::vector<Violation>& violations, CaseOutcome& outcome) {
    if (c.expect_caught.empty()) return;
    std::string missing;
    for (const auto& check : c.expect_caught) {
        bool fired = false;
        for (const auto& v : violations) fired = fired || v.check == check;
        if (!fired) missing += (missing.empty() ? "" : ", ") + check;
    }
    bool design = false;
    for (const auto& v : violations) design = design || v.check == "lockstep" || v.check == "rtl.assertion";
    outcome.caught_as_expected = !passed && missing.empty() && !design;
    if (passed)
        outcome.error = "must be caught (by " + c.expect_caught.front() + "), but every check passed";
    else if (!missing.empty())
        outcome.error = "must be caught by " + missing + ", which did not fire";
    else if (design)
        outcome.error = "the RTL disagreed with the model (or an RTL assertion failed) under the injected faults";
}

// A multi-channel case: the checkout's channel_link in lockstep with the channel model.
CaseOutcome run_channel_case(const RegressionCase& c, const DutSources& sources, const RegressCommand& command,
                             const std::string& extension) {
    CaseOutcome outcome;
    const auto start = std::chrono::steady_clock::now();
    const ChannelRunSpec& spec = *c.channels;
    auto library = ChannelLibrary::load({spec.config, {}}, sources, outcome.error);
    if (!library) return outcome;
    const std::string waves = (fs::path(command.waves_dir) / (file_name_of(c.name) + extension)).string();
    ChannelRunOptions options;
    if (command.waves) options.trace_path = waves + ".part";
    {
        auto dut = library->create();
        outcome.channels = run_channels(dut.get(), spec, options);
    }
    note_run_end(outcome, waves, outcome.channels->trace_error, outcome.channels->interrupted, command.waves);
    if (!outcome.finished() || outcome.disk_error) return outcome;
    judge_caught(c, outcome.channels->passed, outcome.channels->violations, outcome);
    if (c.seed_throughput && three_decimals(outcome.channels->link_throughput) != *c.seed_throughput)
        outcome.seed_check_failure = "throughput " + three_decimals(outcome.channels->link_throughput) +
                                     " but the seed prints " + *c.seed_throughput;
    if (command.waves || !outcome.passed()) {
        if (!outcome.passed() && !command.waves) {
            // Replay with waves around the first violation: the same cycles, bit for bit.
            const uint64_t first = outcome.channels->first_violation_cycle.value_or(0);
            options.trace_path = waves + ".part";
            options.trace_from = first > 200 ? first - 200 : 0;
            if (outcome.channels->first_violation_cycle) options.stop_after_violation = 20;
            auto dut = library->create();
            const ChannelRunResult replay = run_channels(dut.get(), spec, options);
            note_run_end(outcome, waves, replay.trace_error, replay.interrupted, true);
            if (!outcome.finished() || outcome.disk_error) return outcome;
        }
        outcome.waves = waves;
        outcome.gtkw = write_channel_gtkw(waves, spec.config, library->trace_scope(), outcome.channels->first_violation());
    }
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return outcome;
}

CaseOutcome run_case(const RegressionCase& c, LibraryCache& libraries, const RegressCommand& command,
                     const std::string& extension) {
    if (c.channels) return run_channel_case(c, libraries.sources(), command, extension);
    CaseOutcome outcome;
    const auto start = std::chrono::steady_clock::now();
    const DutLibrary* library = libraries.get(c.spec.config, outcome.error);
    if (!library) return outcome;
    const std::string waves = (fs::path(command.waves_dir) / (file_name_of(c.name) + extension)).string();
    {
        auto dut = library->create();
        RunOptions options;
        if (command.waves) options.trace_path = waves + ".part";
        outcome.result = run_link(dut.get(), c.spec, options);
        note_run_end(outcome, waves, outcome.result.trace_error, outcome.result.interrupted, command.waves);
        if (!outcome.finished() || outcome.disk_error) return outcome;
        if (command.waves) {
            outcome.waves = waves;
            outcome.gtkw = write_gtkw(waves, c.spec.config, library->trace_scope(), outcome.result.first_violation(), 0);
        }
    }
    if (c.systemc) {
        outcome.error = systemc_disagreement(c, outcome.result, libraries.sources());
        // Ctrl-C reaches the SystemC harness too (one process group): its death is no verdict.
        if (!outcome.error.empty() && interrupt_requested()) {
            outcome.ending = CaseOutcome::Ending::interrupted;
            return outcome;
        }
    }
    judge_caught(c, outcome.result.passed, outcome.result.violations, outcome);
    if (c.seed_throughput && three_decimals(outcome.result.throughput) != *c.seed_throughput)
        outcome.seed_check_failure = "throughput " + three_decimals(outcome.result.throughput) +
                                     " but the seed prints " + *c.seed_throughput;
    if (!outcome.passed() && !command.waves) {
        // Replay the same seed with waves on, around the first violation: passing runs pay
        // nothing for waves, and the replay is the same cycles bit for bit.
        auto dut = library->create();
        RunOptions options;
        options.trace_path = waves + ".part";
        const uint64_t first = outcome.result.first_violation_cycle.value_or(0);
        options.trace_from = first > 200 ? first - 200 : 0;
        if (outcome.result.first_violation_cycle) options.stop_after_violation = 20;
        const RunResult replay = run_link(dut.get(), c.spec, options);
        note_run_end(outcome, waves, replay.trace_error, replay.interrupted, true);
        if (!outcome.finished() || outcome.disk_error) return outcome;
        outcome.waves = waves;
        outcome.gtkw = write_gtkw(waves, c.spec.config, library->trace_scope(), outcome.result.first_violation(),
                                  options.trace_from);
    }
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return outcome;
}

// The options that pick the RTL, for rerun lines.
std::string dut_arguments(const RegressCommand& command) {
    std::string out;
    if (!command.rtl_dir.empty()) out += " --rtl " + command.rtl_dir;
    for (const auto& d : command.rtl_options.incdirs) out += " --incdir " + d;
    for (const auto& d : command.rtl_options.defines) out += " --define " + d;
    for (const auto& f : command.rtl_options.file_lists) out += " --file-list " + f;
    if (!command.counter_file.empty()) out += " --counter " + command.counter_file;
    if (!command.return_file.empty()) out += " --return " + command.return_file;
    if (!command.link_map.empty()) out += " --link " + command.link_map;
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
        const std::string rerun = "rerun: " + program + " run " + rerun_arguments(c, command);
        if (o.ending == CaseOutcome::Ending::interrupted) {
            auto error = test.append_child("error");
            error.append_attribute("type") = "interrupted";
            error.append_attribute("message") = ("interrupted by " + signal_name(interrupt_signal())).c_str();
            error.text() = rerun.c_str();
        } else if (o.ending == CaseOutcome::Ending::not_run) {
            test.append_child("skipped").append_attribute("message") = ("not run: " + stop_reason).c_str();
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
    const std::string temporary = path + ".tmp";
    if (!doc.save_file(temporary.c_str(), "  ")) {
        fs::remove(temporary, ec);   // a full disk: the last complete file stays as it was
        return false;
    }
    fs::rename(temporary, path, ec);
    return !ec;
}


// The positions of --shard I/N's tests among `count` (all of them without --shard): every Nth
// from the (I-1)th, so a shard's tests spread over the list's kinds and its builds.
std::vector<size_t> shard_indices(size_t count, const RegressCommand& command) {
    std::vector<size_t> out;
    for (size_t k = 0; k < count; ++k)
        if (!command.shards || k % command.shards == static_cast<size_t>(command.shard - 1)) out.push_back(k);
    return out;
}

// "" when a file can be made in `dir` (made if missing), else why not.
std::string check_writable(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return ec.message();
    const fs::path probe = fs::path(dir) / (".creditloop_probe." + std::to_string(::getpid()));
    {
        std::ofstream out(probe);
        if (!(out << "probe")) return std::strerror(errno != 0 ? errno : EACCES);
    }
    fs::remove(probe, ec);
    return {};
}

}  // namespace

// The tests of an earlier JUnit file that did not pass: failed, interrupted or never run.
std::set<std::string> tests_to_rerun(const std::string& junit, uint64_t seed, std::string& problem) {
    std::set<std::string> out;
    pugi::xml_document doc;
    const auto parsed = doc.load_file(junit.c_str());
    if (!parsed) {
        problem = "cannot read " + junit + " (" + parsed.description() + "): run make sim first, or name the JUnit file to rerun from";
        return out;
    }
    const auto suite = doc.child("testsuites").child("testsuite");
    if (!suite) {
        problem = junit + " is no JUnit file of creditloop regress (no testsuites/testsuite)";
        return out;
    }
    const auto seed_property = suite.child("properties").find_child_by_attribute("property", "name", "seed");
    if (seed_property && seed_property.attribute("value").as_ullong() != seed) {
        problem = junit + " was run with seed " + seed_property.attribute("value").as_string() + ", this run has " +
                  std::to_string(seed) + ": rerun with SEED=" + seed_property.attribute("value").as_string() +
                  " (--seed), or its random tests would be others";
        return out;
    }
    for (auto test : suite.children("testcase")) {
        if (!test.child("failure") && !test.child("error") && !test.child("skipped")) continue;
        std::string classname = test.attribute("classname").as_string();
        if (classname.rfind("creditloop.", 0) == 0) classname = classname.substr(11);
        out.insert(classname + "/" + test.attribute("name").as_string());
    }
    return out;
}

int run_regression(const RegressCommand& command, const std::string& program) {
    return run_regression(command, program, regression_cases(command.seed));
}

int run_regression(const RegressCommand& command, const std::string& program,
                   std::vector<RegressionCase> all_cases) {
    std::vector<RegressionCase> cases;
    for (auto& c : all_cases)
        if (name_matches(c.name, command.filter)) cases.push_back(std::move(c));
    if (cases.empty()) {
        std::cerr << "creditloop regress: no test matches '" << command.filter
                  << "': 'creditloop regress --list' lists them\n";
        return 2;
    }
    if (!command.rerun_failed.empty()) {
        // make sim RERUN=failed: only what did not pass in an earlier run's JUnit file.
        std::string problem;
        const auto wanted = tests_to_rerun(command.rerun_failed, command.seed, problem);
        if (!problem.empty()) {
            std::cerr << "creditloop: " << problem << "\n";
            return 2;
        }
        std::vector<RegressionCase> kept;
        for (auto& c : cases)
            if (wanted.count(c.name)) kept.push_back(std::move(c));
        if (kept.empty()) {
            std::cout << "creditloop regress: every test in " << command.rerun_failed << " passed; nothing to rerun\n";
            return 0;
        }
        cases = std::move(kept);
        std::cout << "creditloop regress: rerunning the " << cases.size() << " tests that did not pass in "
                  << command.rerun_failed << "\n";
    }
    if (command.list) {
        const auto slice = shard_indices(cases.size(), command);
        for (size_t k : slice) {
            const auto& c = cases[k];
            std::cout << c.name << "  " << (c.channels ? channel_run_arguments(*c.channels) : describe(c.spec)) << "\n";
        }
        return 0;
    }

    DutSources sources = DutSources::from_environment();
    sources.fst = command.fst;
#ifdef CREDITLOOP_COVERAGE
    // A code-coverage build (make coverage, docs/coverage.md): every run's DUT writes its counts
    // under $CREDITLOOP_COVERAGE_DIR (by default <build>/coverage_data). The SystemC harness is
    // not instrumented, and its cases repeat C++ runs: they are left out.
    const std::string coverage_dir = (fs::path(sources.build_root) / "coverage_data").string();
    setenv("CREDITLOOP_COVERAGE_DIR", coverage_dir.c_str(), 0);
    std::error_code coverage_ec;
    fs::create_directories(std::getenv("CREDITLOOP_COVERAGE_DIR"), coverage_ec);
    cases.erase(std::remove_if(cases.begin(), cases.end(), [](const RegressionCase& c) { return c.systemc; }), cases.end());
#endif
    if (!command.rtl_dir.empty()) {
        std::vector<std::string> warnings;
        const std::string problem = fs::path(command.rtl_dir).extension() == ".json"
                                        ? use_rtl_map(sources, command.rtl_dir, command.werror, warnings)
                                        : use_rtl_directory(sources, command.rtl_dir, command.rtl_options);
        for (const auto& warning : warnings) std::cerr << "creditloop: warning in your RTL: " << warning << "\n";
        if (!problem.empty()) {
            std::cerr << "creditloop: " << problem << "\n";
            return 2;
        }
    }
    if (!command.link_map.empty() && (!command.rtl_dir.empty() || !command.counter_file.empty() || !command.return_file.empty())) {
        std::cerr << "creditloop: --link is a whole link of your own: drop --rtl, --counter and --return\n";
        return 2;
    }
    if (!command.link_map.empty()) {
        // A link of your own: the runs its receiver can take, fitted to its return latency.
        MappedLink link;
        const std::string problem = swap_mapped_link(sources, command.link_map, command.werror, link);
        if (!problem.empty()) {
            std::cerr << "creditloop: " << problem << "\n";
            return 2;
        }
        for (const auto& warning : link.warnings) std::cerr << "creditloop: warning in your RTL: " << warning << "\n";
        std::vector<RegressionCase> kept;
        size_t skipped = 0;
        for (auto& c : cases) {
            const bool resets = c.spec.stimulus.reset_every || c.spec.stimulus.reset_tx_at || c.spec.stimulus.reset_rx_at;
            if (c.channels || c.systemc || mapped_link_refuses(c.spec) || (link.synchronous_reset && resets)) {
                ++skipped;
                continue;
            }
            fit_to_mapped_link(c.spec, link.return_latency, link.lockstep_signals);
            c.seed_throughput.reset();   // the seeds' numbers are for their round trip, not this one
            kept.push_back(std::move(c));
        }
        cases = std::move(kept);
        std::cout << "creditloop regress: your link is " << link.sender << " and " << link.receiver << " from "
                  << command.link_map << " (return latency " << link.return_latency << "); " << skipped
                  << " tests that need batches, flushes, policies, faults or the checkout's own RTL are skipped\n";
        if (cases.empty()) {
            std::cerr << "creditloop regress: no selected test fits your link\n";
            return 2;
        }
    }
    bool single_credit_return = false, synchronous_reset = false;
    for (const auto& [block, file] : {std::pair<std::string, std::string>{"credit_counter.sv", command.counter_file},
                                      {"credit_return.sv", command.return_file}}) {
        if (file.empty()) continue;
        SwappedBlock swapped;
        // The contract's widths are checked at B = 12; the wrapper is generic in B.
        sources.werror = command.werror;
        const std::string problem = swap_block(sources, block, file, 12, swapped);
        if (!problem.empty()) {
            std::cerr << "creditloop: " << problem << "\n";
            return 2;
        }
        for (const auto& warning : swapped.warnings) std::cerr << "creditloop: warning in your RTL: " << warning << "\n";
        std::cout << "creditloop regress: " << block << " is " << swapped.module << " from " << file << "\n";
        single_credit_return = single_credit_return || swapped.single_credit_return;
        synchronous_reset = synchronous_reset || swapped.synchronous_reset;
    }
    if (synchronous_reset) {
        // A reset that acts at a clock edge cannot take the harness's mid-run reset pulses.
        std::vector<std::string> skipped;
        std::vector<RegressionCase> kept;
        for (auto& c : cases) {
            const auto& s = c.spec.stimulus;
            if (!c.channels && (s.reset_every || s.reset_tx_at || s.reset_rx_at)) skipped.push_back(c.name);
            else kept.push_back(std::move(c));
        }
        cases = std::move(kept);
        std::cout << "creditloop regress: the counter resets synchronously, so " << skipped.size()
                  << " tests that reset mid-run are skipped:";
        for (const auto& name : skipped) std::cout << " " << name;
        std::cout << "\n";
    }
    if (single_credit_return) {
        // A one-bit credit_return takes one credit per cycle: only K = 1 without flushes or a
        // shared return path fits.
        std::vector<std::string> skipped;
        std::vector<RegressionCase> kept;
        for (auto& c : cases) {
            if (!c.channels && returns_several_at_once(c.spec)) skipped.push_back(c.name);
            else kept.push_back(std::move(c));
        }
        cases = std::move(kept);
        std::cout << "creditloop regress: the counter's credit_return is one bit (one credit per cycle), so "
                  << skipped.size() << " tests that return more at once (K > 1, flush, a shared return path, recovery or faults) are skipped:";
        for (const auto& name : skipped) std::cout << " " << name;
        std::cout << "\n";
        if (cases.empty()) {
            std::cerr << "creditloop regress: every selected test returns several credits at once; nothing to run\n";
            return 2;
        }
    }
    if (!command.rtl_dir.empty() || !command.counter_file.empty() || !command.return_file.empty()) {
        // The SystemC harness verilates the checkout's RTL; your own blocks run under the C++ one.
        const auto before = cases.size();
        cases.erase(std::remove_if(cases.begin(), cases.end(),
                                   [](const RegressionCase& c) { return c.systemc || c.channels; }),
                    cases.end());
        if (cases.size() != before)
            std::cout << "creditloop regress: the " << before - cases.size()
                      << " systemc/ and channels/ tests run the checkout's RTL only; skipped for yours\n";
    }
    // A shard (--shard I/N, a cluster's job array): every Nth test of the selection, from the Ith.
    const size_t selected = cases.size();
    const std::vector<size_t> indices = shard_indices(selected, command);
    if (command.shards) {
        std::vector<RegressionCase> slice;
        for (size_t k : indices) slice.push_back(std::move(cases[k]));
        cases = std::move(slice);
        std::cout << "creditloop regress: shard " << command.shard << "/" << command.shards << ": " << cases.size()
                  << " of the " << selected << " selected tests\n";
        if (cases.empty()) std::cout << "creditloop regress: this shard is empty (more shards than tests)\n";
    }
    // Where the results go must take them before any test runs, not after an hour of it.
    for (const auto& [what, dir] : {std::pair<std::string, std::string>{"waves folder", command.waves_dir},
                                    {"JUnit file's folder", fs::path(command.junit).parent_path().string()}}) {
        const std::string problem = check_writable(dir.empty() ? "." : dir);
        if (!problem.empty()) {
            std::cerr << "creditloop regress: cannot write to the " << what << " " << (dir.empty() ? "." : dir) << ": "
                      << problem << ": pick another (" << (what == "waves folder" ? "--waves-dir" : "--junit")
                      << ") or make it writable\n";
            return 2;
        }
    }
    install_interrupt_handlers();

    std::vector<LinkConfig> configs;
    std::vector<ChannelWanted> channel_builds;
    for (const auto& c : cases)
        if (c.channels) channel_builds.push_back({c.channels->config, {}});
    for (const auto& c : cases) {
        if (c.channels) continue;
        bool known = false;
        for (const auto& k : configs) known = known || k == c.spec.config;
        if (!known) configs.push_back(c.spec.config);
    }
    std::cout << "creditloop regress: " << cases.size() << " tests, " << configs.size()
              << " verilated configurations (built together, cached under " << sources.build_root << "/duts)\n"
              << std::flush;
    std::vector<DutBuild> builds;
    for (const auto& config : configs) builds.push_back({config, sources});
    for (const auto& c : cases) {
        if (!c.systemc || c.channels) continue;
        DutBuild sc{c.spec.config, sources};
        sc.sources.systemc = true;
        builds.push_back(sc);
    }
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);   // SystemC's banner
    Progress progress("creditloop regress");
    progress.phase("verilated configurations");
    auto build_errors = builds.empty() ? std::vector<std::string>{}
                                       : build_duts(builds, command.jobs, [&](const std::string& s) { progress.status(s); });
    if (!channel_builds.empty())
        for (const auto& e : build_channel_duts(channel_builds, sources, [&](const std::string& s) { progress.status(s); }))
            build_errors.push_back(e);
    // Ctrl-C reaches the builds' compilers too (one process group): no build failed, the run stopped.
    if (interrupt_requested()) build_errors.clear();
    if (!build_errors.empty()) {
        progress.finish();
        for (const auto& e : build_errors) std::cerr << "creditloop regress: " << e << "\n";
        return 3;
    }

    std::error_code ec;
    fs::create_directories(command.waves_dir, ec);
    const std::string extension = command.fst ? ".fst" : ".vcd";
    LibraryCache libraries(sources);
    std::vector<CaseOutcome> outcomes(cases.size());
    progress.phase("tests", cases.size());
    // Each test's verdict line is printed in the regression's order, not as tests finish, so the
    // log is the same at any --jobs (a line waits for the tests listed before it): only the
    // progress lines, which tell wall time, differ between two runs.
    std::mutex verdict_mutex;
    std::vector<char> ended(cases.size(), 0);
    size_t next_verdict = 0;
    const auto print_verdicts = [&] {   // under verdict_mutex
        for (; next_verdict < cases.size() && ended[next_verdict]; ++next_verdict) {
            const auto& o = outcomes[next_verdict];
            if (o.ending == CaseOutcome::Ending::not_run) continue;
            progress.print("[" + std::to_string(next_verdict + 1) + "/" + std::to_string(cases.size()) + "] " +
                           (!o.finished() ? "INTERRUPTED " : o.disk_error ? "NO WAVES " : o.passed() ? "pass " : "FAIL ") +
                           cases[next_verdict].name);
        }
    };
    const auto end_case = [&](size_t i) {
        std::lock_guard<std::mutex> lock(verdict_mutex);
        ended[i] = 1;
        print_verdicts();
    };
    // A full disk stops the regression: every later test would fail the same way.
    std::atomic<bool> disk_full{false};
    parallel_for(cases.size(), command.jobs, [&](size_t i) {
        if (interrupt_requested() || disk_full) {
            outcomes[i].ending = CaseOutcome::Ending::not_run;
            end_case(i);
            return;
        }
        CaseOutcome outcome = run_case(cases[i], libraries, command, extension);
        if (outcome.disk_error) disk_full = true;
        progress.advance();
        {
            std::lock_guard<std::mutex> lock(verdict_mutex);
            outcomes[i] = std::move(outcome);
        }
        end_case(i);
    });
    progress.finish();

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
                  << (o.passed() ? (o.caught_as_expected ? "PASS (caught)" : "PASS") : "FAIL") << "\n";
            continue;
        }
        if (!o.finished()) {
            table << pad(c.name, 34) << pad(c.spec.config.key(), 26)
                  << (o.ending == CaseOutcome::Ending::interrupted ? "interrupted" : "not run") << "\n";
            continue;
        }
        if (o.disk_error) {
            table << pad(c.name, 34) << pad(c.spec.config.key(), 26) << "its waves could not be written\n";
            continue;
        }
        table << pad(c.name, 34) << pad(c.spec.config.key(), 26) << pad(std::to_string(o.result.cycles), 8)
              << pad(three_decimals(o.result.throughput), 10) << pad(three_decimals(o.result.predicted_throughput), 11)
              << pad(c.seed_throughput.value_or("-"), 7) << (o.passed() ? (o.caught_as_expected ? "PASS (caught)" : "PASS") : "FAIL") << "\n";
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
    if (failed) std::cout << "rerun what failed: make sim RERUN=failed\n";
    return failed ? 1 : 0;
}

}  // namespace creditloop
