// `creditloop network`: a credit network (docs/network.md) on the RTL in lockstep with the model:
// its channel dependency graph from the RTL's route block, its zero-load latency against the
// closed form for every pair, then seeded traffic at one offered rate with throughput, latency
// and per-link credit use measured against the closed forms, every scoreboard on, and the
// deadlock detector. `--table DIR` runs make network's grid instead: a table and one
// latency-against-offered-load plot per setup.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "dut_library.h"
#include "network_library.h"
#include "noc_run.h"
#include "parse_error.h"

namespace creditloop {

int run_network_command(const std::vector<std::string>& args, const std::string& program);

// One run as the options describe it (parse_network in network_command.cpp).
struct NetworkRequest {
    NocRunSpec spec;
    std::string pattern;   // as given
};
// The options of one run, read and checked; nullopt with `error` on bad input or --help.
std::optional<NetworkRequest> parse_network_request(const std::vector<std::string>& args, ParseError& error);

// A run's checks, in order: the dependency graph (a dateline or dimension order must give an
// acyclic one), zero-load latency per pair, then the traffic run's scoreboards, the deadlock
// verdict and the closed-form bound. Prints its lines to `out`.
struct NetworkVerdict {
    int failures = 0;
    std::string first_check;   // the check that failed first ("lockstep", "conservation", ...)
};
NetworkVerdict check_network(const NetworkRequest& request, NocDut* dut, std::ostream& out, NocRunResult* result = nullptr);

// Builds what `wanted` needs, a progress line shown only while building; the first error, if any.
Problem build_networks(const std::vector<NetworkWanted>& wanted, const DutSources& sources, const std::string& what);

// `creditloop network --mutants`: every rtl/mutants/noc/*.mutant on the run its
// `// creditloop-network:` line gives (one bank for all), each of which must fail first at the
// check its `expect=` names. A table, one line a mutant; exit 1 when one escapes or is caught by
// another check.
int run_network_mutants(const DutSources& sources, const std::string& program);

}  // namespace creditloop
