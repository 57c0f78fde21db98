// libFuzzer target: the option parser of every creditloop subcommand, dispatched as main() does
// (tb/commands/main.cpp), with the pure step after it where a command has one (size's
// calculator, sweep's plan, the policy table's rows).
//
// The input is a command line, one argument a line: the subcommand, then its arguments
// (fuzz/corpus/cli/ holds the documented commands). A parse must succeed or fail with one
// error line; --help must give the help text. A `run` that parses must come back whole from
// the rerun line creditloop prints for it (run_arguments(), channel_run_arguments()): a failing
// run's rerun line is the one command a user copies.
//
// Only `run --channels FILE` reads a file: FILE is taken from the scratch directory, which holds
// a valid description (link.json), so no input reaches outside it.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "channels_command.h"
#include "cli.h"
#include "faults_command.h"
#include "fuzz_support.h"
#include "gtkw_command.h"
#include "mutants.h"
#include "mutation.h"
#include "policy_table.h"
#include "size_command.h"
#include "speed.h"
#include "sweep.h"
#include "sweep_plan.h"

using namespace creditloop;
using namespace creditloop::fuzz;

namespace {

std::vector<std::string> words_of(const std::string& line) {
    std::vector<std::string> words;
    std::istringstream in(line);
    for (std::string word; in >> word;) words.push_back(word);
    return words;
}

// What every parse owes its caller, whatever the input.
template <typename Parsed>
bool answered(const std::optional<Parsed>& parsed, const ParseError& error, const char* parser) {
    if (parsed) return true;
    if (error.help) expect(!error.message.empty(), parser, "--help gave no help text");
    else expect_one_line(error.message, parser);
    return false;
}

// `run FILE`'s description file, under the scratch directory; false when the input names one
// elsewhere (a path), which the target does not follow.
bool channels_in_scratch(std::vector<std::string>& args) {
    for (size_t i = 0; i < args.size(); ++i) {
        std::string* file = nullptr;
        std::string prefix;
        if (args[i] == "--channels" && i + 1 < args.size()) {
            file = &args[i + 1];
        } else if (args[i].rfind("--channels=", 0) == 0) {
            file = &args[i];
            prefix = "--channels=";
        }
        if (!file) continue;
        const std::string name = file->substr(prefix.size());
        if (name.find('/') != std::string::npos || name == "." || name == "..") return false;
        *file = prefix + scratch_dir() + "/" + name;
    }
    return true;
}

void link_run(const std::vector<std::string>& args) {
    ParseError error;
    const auto cmd = parse_run(args, error);
    if (!answered(cmd, error, "parse_run")) return;
    systemc_refuses(*cmd);
    const std::string rerun = run_arguments(cmd->spec);
    ParseError again_error;
    const auto again = parse_run(words_of(rerun), again_error);
    expect(again.has_value(), "run's rerun line does not parse", "'" + rerun + "': " + again_error.message);
    expect(run_arguments(again->spec) == rerun, "run's rerun line gives another run", rerun + " | " + run_arguments(again->spec));
}

void channel_run(std::vector<std::string> args) {
    if (!channels_in_scratch(args)) return;
    ParseError error;
    const auto cmd = parse_channel_run(args, error);
    if (!answered(cmd, error, "parse_channel_run")) return;
    const std::string rerun = channel_run_arguments(cmd->spec);
    ParseError again_error;
    const auto again = parse_channel_run(words_of(rerun), again_error);
    expect(again.has_value(), "the channel run's rerun line does not parse", "'" + rerun + "': " + again_error.message);
    expect(channel_run_arguments(again->spec) == rerun, "the channel run's rerun line gives another run",
           rerun + " | " + channel_run_arguments(again->spec));
}

void size(const std::vector<std::string>& args) {
    SizeParseError error;
    const auto inputs = parse_size(args, error);
    if (!inputs) {
        expect_one_line(error.message, "parse_size");
        return;
    }
    if (inputs->help) return;
    const auto result = compute_size(*inputs, error);
    if (!result) {
        expect_one_line(error.message, "compute_size");
        return;
    }
    size_text(*inputs, *result);
    size_json(*inputs, *result);
}

void sweep(const std::vector<std::string>& args) {
    ParseError error;
    const auto spec = parse_sweep(args, error);
    if (!spec) {
        if (!error.help) expect_one_line(error.message, "parse_sweep");
        return;
    }
    // The plan holds a point per (L, K, drain, B): a grid of millions is a real sweep's choice,
    // but no parser's bug, and would only slow the fuzzer down.
    const size_t points = spec->stages.size() * spec->batches.size() * spec->drain_periods.size() * spec->buffers.size();
    if (points > 20000) return;
    SweepResult plan;
    const std::string problem = plan_sweep(*spec, plan);
    if (!problem.empty()) expect_one_line(problem, "plan_sweep");
}

void policies(const std::vector<std::string>& args) {
    ParseError error;
    const auto spec = parse_policy_table(args, error);
    if (!answered(spec, error, "parse_policy_table")) return;
    for (const PolicyRow& row : policy_rows(*spec))
        if (auto problem = validate(policy_run_spec(*spec, row.config, spec->loads.front()))) expect_one_line(*problem, "policies");
}

template <typename Parse>
void plain(Parse parse, const std::vector<std::string>& args, const char* parser) {
    ParseError error;
    answered(parse(args, error), error, parser);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // A valid description for `run --channels link.json` (docs/channels.md's example).
    std::ofstream(std::string(scratch_dir()) + "/link.json")
        << R"({"L": 4, "shared_return": true, "channels": [{"name": "REQ", "credits": 15, "bytes": [1, 64]},)"
           R"( {"name": "DAT", "credits": 15, "unit": 32, "bytes": 64}]})";
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size_in_bytes) {
    std::vector<std::string> args = lines_of(text_of(data, size_in_bytes));
    if (args.empty()) return 0;
    const std::string sub = args.front();
    args.erase(args.begin());
    if (sub == "run" && is_channel_run(args)) channel_run(args);
    else if (sub == "run") link_run(args);
    else if (sub == "regress") plain(parse_regress, args, "parse_regress");
    else if (sub == "mutants") plain(parse_mutants, args, "parse_mutants");
    else if (sub == "hol") plain(parse_hol, args, "parse_hol");
    else if (sub == "faults") plain(parse_faults, args, "parse_faults");
    else if (sub == "speed") plain(parse_speed, args, "parse_speed");
    else if (sub == "gtkw") plain(parse_gtkw, args, "parse_gtkw");
    else if (sub == "mutation") plain(parse_mutation, args, "parse_mutation");
    else if (sub == "size") size(args);
    else if (sub == "sweep") sweep(args);
    else if (sub == "policies") policies(args);
    return 0;
}
