// `creditloop network`: a credit network (docs/network.md) on the RTL in lockstep with the model:
// its channel dependency graph from the RTL's route block, its zero-load latency against the
// closed form for every pair, then seeded traffic at one offered rate with throughput, latency
// and per-link credit use measured against the closed forms, every scoreboard on, and the
// deadlock detector. `--table DIR` runs make network's grid instead: a table and one
// latency-against-offered-load plot per setup.
#pragma once

#include <string>
#include <vector>

namespace creditloop {

int run_network_command(const std::vector<std::string>& args, const std::string& program);

}  // namespace creditloop
