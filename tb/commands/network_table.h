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

}  // namespace creditloop
