// Command lines through CLI11, for every creditloop subcommand: one CLI::App per subcommand
// (its options, ranges, exclusive options and --help), and one place that turns CLI11's errors
// into creditloop's contract for bad input: one line naming the option, the value and what is
// allowed (the caller prints it and exits 2, having written nothing).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "link_config.h"
#include "parse_error.h"
#include "run_output.h"

namespace creditloop {

// Parse `args` (the subcommand's own arguments) with `app`; false with `error` set on bad input
// or --help.
bool parse_command(CLI::App& app, const std::vector<std::string>& args, ParseError& error);

// A flag: present or absent, never "--flag=value" (that is refused: "--flag takes no value").
CLI::Option* add_flag(CLI::App& app, const std::string& name, bool& target, const std::string& description);

// A whole number in [low, high]; `meaning` follows the range in the error ("1..4096 (receiver slots)").
CLI::Validator whole_number(long long low, long long high, const std::string& meaning = "");
// A probability: 0 <= symbol <= 1, or < 1 when one is not allowed.
CLI::Validator probability(const std::string& symbol, bool one_allowed);
// One of `allowed`; the error says what `value` is not ("a return policy").
CLI::Validator one_of(const std::vector<std::string>& allowed, const std::string& what);
// The log levels spdlog knows.
CLI::Validator log_level();

// The limits of a link's L and B (LinkConfig's kMaxStages, kMaxBufferSlots) as checks, for every
// command that takes them; the error names the range: "--L: 0 is out of range: allowed 1..1024 (stages each way)".
CLI::Validator stages_limit();
CLI::Validator buffer_slots_limit();
CLI::Validator batch_limit();   // 1..kMaxBufferSlots; K <= B is checked after parsing, by validate()

// --L, --B and --K (when `batch` is given) of one credit link, with the limits above.
void add_link_options(CLI::App& app, int& stages, int& buffer_slots, int* batch = nullptr);

// --model, --systemc, --json, --waves, --fst, --force and --log-level.
void add_run_output_options(CLI::App& app, RunOutput& out);

}  // namespace creditloop
