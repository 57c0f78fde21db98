// `creditloop size`: its options (CLI11) into SizeInputs, and the command. The calculator itself
// is analysis/size_calculator.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "size_calculator.h"

namespace creditloop {

// The options, read and checked; nullopt with one line in `error` (with help set in the inputs
// and the help text in `error`, for --help).
std::optional<SizeInputs> parse_size(const std::vector<std::string>& args, SizeParseError& error);

// `creditloop size ...`: args exclude "creditloop size". Prints to stdout; bad input gets one line
// "creditloop: ..." on stderr and nothing on stdout. Returns 0, or 2 for bad input.
int run_size(const std::vector<std::string>& args);

// The help text's footer: units and examples.
extern const char* const kSizeUsage;

}  // namespace creditloop
