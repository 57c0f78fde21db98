// `creditloop gtkw`: the GTKWave save file (tb/report/gtkw.h) for waves that creditloop did not
// simulate, so they open with the same layout as a simulation failure's: a formal
// counterexample (scripts/formal.py writes the VCD, then calls this), or waves of your own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "link_config.h"
#include "parse_error.h"

namespace creditloop {

// `creditloop gtkw ...`: args exclude "creditloop gtkw". Writes <waves without extension>.gtkw
// beside the waves and prints the gtkwave command that opens them. Bad input gets one line
// "creditloop: ..." on stderr and exit 2; a save file that cannot be written, exit 3.
int run_gtkw(const std::vector<std::string>& args);

// Its options, read and checked (the waves file itself is looked for by run_gtkw).
struct GtkwCommand {
    std::string waves, scope;
    LinkConfig config;
    bool has_violation = false;      // --check and --cycle: the marker goes on it
    std::string check, signal;
    uint64_t cycle = 0, first_cycle = 0;
};
// nullopt with `error` on bad input or --help (parse_failed()).
std::optional<GtkwCommand> parse_gtkw(const std::vector<std::string>& args, ParseError& error);

}  // namespace creditloop
