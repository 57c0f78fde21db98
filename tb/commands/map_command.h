// `creditloop map FILE.sv...`: a port map of your own RTL, guessed from its ports and parameters
// (tb/dut/port_map_guess.h) and written for you to confirm, each guess with a comment saying where
// it came from. Exit 0 when every role a map needs is placed, 1 when some are not (the map is
// still written, those roles "?", which run refuses with one line), 2 on bad input (one line
// "creditloop: ...", nothing written), 3 when the map cannot be written.
#pragma once

#include <string>
#include <vector>

namespace creditloop {

// args exclude "creditloop map"; `program` is how to call creditloop again (for the run line it prints).
int run_map(const std::vector<std::string>& args, const std::string& program);

}  // namespace creditloop
