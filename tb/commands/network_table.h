// make network: a grid of credit networks (topology x VCs x routing), each on the RTL in
// lockstep with the model: its channel dependency graph, whether a deadlock was found under
// saturating traffic, the measured saturation against the closed forms, and one SVG per setup
// of latency against offered load with the bounds drawn. Writes DIR/network.md and
// DIR/<setup>.svg; prints the table.
#pragma once

#include <cstdint>
#include <string>

#include "dut_library.h"

namespace creditloop {

int run_network_table(const std::string& dir, bool force, const DutSources& sources, uint64_t seed);

// make sim's network slice (one bank): the one-way ring of 4 with one VC, whose dependency graph
// is a cycle, must deadlock under every node sending three hops ahead (the detector naming its
// four buffers); a dateline ring of 6 under saturating uniform traffic and a 3 x 3 mesh under
// dimension order at 0.3 must pass every check, below their closed-form bounds. One line each.
int run_network_slice(const DutSources& sources, uint64_t seed);

}  // namespace creditloop
