// `creditloop prove`: the proof of make formal (docs/formal.md) on your own counter or link, through
// the same maps as `run` (docs/prove.md). The map is read, your RTL preprocessed and the wrapper or
// the testbench top generated exactly as for a simulation; then scripts/prove.py proves, on every
// configuration of a grid, that the credits are conserved, that no flit arrives at a full receiver
// and that nothing is sent at zero credits, by k-induction with yosys, yosys-smtbmc and z3. A
// counterexample is written as waves and as a replay file that `creditloop run --replay` feeds to
// the simulation, which must show the same check failing at the same cycle.
#pragma once

#include <string>
#include <vector>

namespace creditloop {

// args exclude "creditloop prove"; `program` is how to call creditloop again (for the replays).
// 0 every configuration proved; 1 a property refuted; 4 none refuted but some unknown up to k;
// 2 bad input or RTL the proof cannot read (one line); 3 a tool missing.
int run_prove(const std::vector<std::string>& args, const std::string& program);

}  // namespace creditloop
