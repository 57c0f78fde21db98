// One test of the regression (regression_detail.h): run on its plugin, or under the SystemC
// harness too and compared field for field, judged (a case that must be caught, the seed's
// number), and replayed with waves around its first violation when it fails.
#include <chrono>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "channel_gtkw.h"
#include "channel_library.h"
#include "channels_command.h"
#include "gtkw.h"
#include "interrupt.h"
#include "process.h"
#include "regression_detail.h"
#include "report.h"

namespace fs = std::filesystem;

namespace creditloop {

using namespace regression_detail;

namespace {

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

// `argv` (a SystemC harness with --json) run: nothing when its JSON is `want`, field for field, and
// it exits with the C++ harness's verdict, else what differs.
Problem harness_disagreement(std::vector<std::string> argv, const nlohmann::ordered_json& want, bool passed) {
    argv.push_back("--json");
    std::string text;
    const int status = run_capture(argv, text);
    const int want_status = passed ? 0 : 1;
    nlohmann::ordered_json got;
    try {
        got = nlohmann::ordered_json::parse(text);
    } catch (const nlohmann::json::exception&) {
        return "the SystemC harness printed no JSON (exit " + std::to_string(status) + "): '" + text.substr(0, 120) + "'";
    }
    if (got == want && status == want_status) return std::nullopt;
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

}  // namespace

// The run again under the SystemC harness: nothing when its JSON is the C++ harness's, field for
// field (the source aside), else what differs.
Problem systemc_disagreement(const RegressionCase& c, const RunResult& cpp, const DutSources& sources) {
    std::string error;
    const std::string harness = systemc_harness(c.spec.config, sources, error);
    if (harness.empty()) return error;
    RunResult expected = cpp;
    expected.source = "systemc";
    return harness_disagreement(systemc_command(harness, c.spec), run_json_value(c.spec, expected), cpp.passed);
}

Problem channel_systemc_disagreement(const ChannelRunSpec& spec, const ChannelRunResult& cpp, const DutSources& sources) {
    std::string error;
    const std::string harness = channel_systemc_harness(spec.config, sources, error);
    if (harness.empty()) return error;
    ChannelRunResult expected = cpp;
    expected.source = "systemc";
    return harness_disagreement(channel_systemc_command(harness, spec),
                                nlohmann::ordered_json::parse(channel_json(spec, expected)), cpp.passed);
}

namespace {

// A case that must be caught (expect_caught): caught means the expected checks fired, or the
// design's own assertion did, and the RTL still agrees with the model (the fault is the
// environment's, not the design's).
void judge_caught(const RegressionCase& c, const RunVerdict& verdict, CaseOutcome& outcome) {
    if (c.expect_caught.empty()) return;
    std::string missing;
    for (const auto& check : c.expect_caught) {
        bool fired = false;
        for (const auto& v : verdict.violations) fired = fired || v.check == check;
        if (!fired) missing += (missing.empty() ? "" : ", ") + check;
    }
    bool disagreed = false;
    for (const auto& v : verdict.violations) disagreed = disagreed || v.check == "lockstep";
    const bool by_assertion = verdict.rtl_assertion_cycle && !verdict.rtl_assertion.where.empty();
    outcome.caught_as_expected = !verdict.passed && (missing.empty() || by_assertion) && !disagreed;
    if (outcome.caught_as_expected && by_assertion) outcome.caught_by = design_assertion(verdict.rtl_assertion);
    if (verdict.passed)
        outcome.error = "must be caught (by " + c.expect_caught.front() + "), but every check passed";
    else if (!missing.empty() && !by_assertion)
        outcome.error = "must be caught by " + missing + ", which did not fire";
    else if (disagreed)
        outcome.error = "the RTL disagreed with the model under the injected faults";
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
    if (c.systemc) {
        outcome.error = channel_systemc_disagreement(spec, *outcome.channels, sources).value_or("");
        if (!outcome.error.empty() && interrupt_requested()) {   // Ctrl-C reached the harness too
            outcome.ending = CaseOutcome::Ending::interrupted;
            return outcome;
        }
    }
    judge_caught(c, *outcome.channels, outcome);
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

}  // namespace

namespace regression_detail {

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
        outcome.error = systemc_disagreement(c, outcome.result, libraries.sources()).value_or("");
        // Ctrl-C reaches the SystemC harness too (one process group): its death is no verdict.
        if (!outcome.error.empty() && interrupt_requested()) {
            outcome.ending = CaseOutcome::Ending::interrupted;
            return outcome;
        }
    }
    judge_caught(c, outcome.result, outcome);
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

}  // namespace regression_detail

}  // namespace creditloop
