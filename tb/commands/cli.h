// Command-line parsing for the creditloop CLI, kept apart from main() so tests can feed it bad
// input. A parse either succeeds or gives one error line that names the option and the fix.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "parse_error.h"
#include "run_output.h"
#include "dut_library.h"
#include "link_run.h"

namespace creditloop {

struct RunCommand : RunOutput {
    RunSpec spec;
    std::string rtl_dir;            // your own RTL instead of rtl/
    std::string counter_file;       // your own credit counter (seed 002's contract)
    std::string return_file;        // your own return logic
    std::string mutant;             // a mutant of rtl/mutants/ in place of its block, or a .mutant patch of a map's file
    bool werror = false;            // warnings in your own RTL stop the run
    std::string link_map;           // a link of your own: a JSON map of its sender and receiver
    RtlOptions rtl_options;         // --incdir, --define, --file-list for --rtl
};

struct RegressCommand {
    std::string filter;             // glob (* ?) or substring of the test name
    uint64_t seed = 1;
    bool waves = false;             // waves for every test, not just failing ones
    bool fst = false;
    std::string junit = "build/results.xml";
    std::string waves_dir = "waves";
    int jobs = 2;
    std::string rtl_dir;            // your own RTL instead of rtl/
    std::string counter_file;       // your own credit counter (seed 002's contract)
    std::string return_file;        // your own return logic
    bool werror = false;            // warnings in your own RTL stop the run
    std::string link_map;           // a link of your own: a JSON map of its sender and receiver
    std::string mutant;             // a .mutant patch of a file of the map given (--counter, --link or --rtl)
    RtlOptions rtl_options;         // --incdir, --define, --file-list for --rtl
    bool list = false;
    bool systemc = false;           // the systemc/ tests too (each builds a SystemC harness)
    std::string log_level = "warn";
    int shard = 0, shards = 0;      // --shard I/N: every Nth selected test from the Ith (0: all)
    std::string rerun_failed;       // a JUnit file: only its tests that did not pass
    std::string report_dir;         // the HTML report's folder (index.html), "" for none
};

// `creditloop merge`: the JUnit files of one regression's shards, into one.
struct MergeCommand {
    std::string junit;                  // the merged file (its coverage JSON beside it)
    std::vector<std::string> shards;    // the shards' JUnit files
    bool force = false;                 // replace an existing merged file
};

struct MutantsCommand;

// args excludes the program name and the subcommand. nullopt with `error` on bad input or --help
// (error.help: print the text and exit 0; see parse_failed()).
std::optional<RunCommand> parse_run(const std::vector<std::string>& args, ParseError& error);
std::optional<RegressCommand> parse_regress(const std::vector<std::string>& args, ParseError& error);
std::optional<MergeCommand> parse_merge(const std::vector<std::string>& args, ParseError& error);
std::optional<MutantsCommand> parse_mutants(const std::vector<std::string>& args, ParseError& error);

// The `creditloop run ...` arguments that reproduce `spec` exactly.
std::string run_arguments(const RunSpec& spec);

// The options that pick the RTL of a run or a regression (--rtl, --incdir, --define,
// --file-list, --counter, --return, --link, --mutant, --werror), as arguments.
template <class Command>
std::vector<std::string> rtl_arguments(const Command& command) {
    std::vector<std::string> out;
    const auto add = [&](const char* option, const std::string& value) {
        if (!value.empty()) out.insert(out.end(), {option, value});
    };
    add("--rtl", command.rtl_dir);
    for (const auto& d : command.rtl_options.incdirs) add("--incdir", d);
    for (const auto& d : command.rtl_options.defines) add("--define", d);
    for (const auto& f : command.rtl_options.file_lists) add("--file-list", f);
    add("--counter", command.counter_file);
    add("--return", command.return_file);
    add("--link", command.link_map);
    add("--mutant", command.mutant);
    if (command.werror) out.push_back("--werror");
    return out;
}

// The SystemC harness runs the checkout's RTL only: the options it cannot take, named, or nothing.
std::optional<std::string> systemc_refuses(const RunCommand& cmd);
// The command line that runs `spec` on the SystemC harness at `harness` (an executable).
std::vector<std::string> systemc_command(const std::string& harness, const RunSpec& spec);
// Hand a run over to its SystemC harness (`harness`, or "" with `error` when it could not be
// built): argv from systemc_command() or channel_systemc_command(). Returns only on failure (3).
int hand_over_to_systemc(const std::string& harness, const std::string& error, std::vector<std::string> argv,
                         bool json, const std::string& log_level);

}  // namespace creditloop
