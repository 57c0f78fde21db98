// `creditloop sweep`: its options (CLI11) into a SweepSpec, and the command that runs the plan
// (analysis/sweep_plan.h) on the model and the RTL grid and writes the outputs.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "parse_error.h"
#include "sweep_plan.h"

namespace creditloop {

// args exclude "creditloop sweep". nullopt with `error` on bad input (one line naming the option
// and the allowed range) or --help (error.help: the help text).
std::optional<SweepSpec> parse_sweep(const std::vector<std::string>& args, ParseError& error);

// The command. The first form prints to std::cout / std::cerr.
int run_sweep(const std::vector<std::string>& args, const std::string& program);
int run_sweep(const std::vector<std::string>& args, const std::string& program, std::ostream& out,
              std::ostream& err);

extern const char* const kSweepUsage;

}  // namespace creditloop
