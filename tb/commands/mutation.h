// `creditloop mutation`: the runner behind `make mutation` (scripts/mutation.py), generated
// mutants of credit_link against the regression's mutation stimulus.
//
// The script asks yosys's `mutate` for mutations of credit_link elaborated at each stimulus set's
// parameters and writes, per set of parameters, one netlist holding all of them, each switched on by
// the plusarg +creditloop_mutant=<id> (0: none). This command
//   --cases            prints the stimulus sets (mutation_cases()) as JSON: name, the Verilog
//                      parameters to elaborate with, and the `creditloop run` arguments;
//   --run MANIFEST     builds every netlist the manifest names (one bank) and runs each mutant
//                      against the stimulus sets of its netlist's parameters, in order until
//                      one catches it, --jobs at a time, writing the verdicts as
//                      JSON (--out): caught or not, the first failing cycle and the checks that
//                      fired, and the command that reruns it. Mutant 0 of each netlist must pass:
//                      otherwise the netlist, not a mutant, is wrong (exit 3).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parse_error.h"

namespace creditloop {

int run_mutation(const std::vector<std::string>& args, const std::string& program);

// Its options, read and checked: --cases, or --run MANIFEST.
struct MutationCommand {
    bool list_cases = false;
    std::string manifest_path;
    std::string out_path;            // "" : the verdicts go to stdout
    uint64_t seed = 1;
    int jobs = 2;
};
// args exclude "creditloop mutation". nullopt with `error` on bad input or --help (parse_failed()).
std::optional<MutationCommand> parse_mutation(const std::vector<std::string>& args, ParseError& error);

// A manifest's text (`path` names it in the errors) checked as --run checks it before building
// anything: the problem, if any, in one line. Reads nothing but the directories it names; runs nothing.
Problem check_mutation_manifest(const std::string& text, const std::string& path, uint64_t seed);

}  // namespace creditloop
