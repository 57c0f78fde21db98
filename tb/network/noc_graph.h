// The two graphs of a credit network (docs/network.md).
//   The channel dependency graph (Dally and Seitz), from the routing function alone: a channel
//   is an output VC towards another router (node, port, VC); an edge c1 -> c2 when a packet
//   holding c1 may ask for c2 next. Built by following, for every source and destination, every
//   path the route function allows (the RTL's own route block, evaluated), so only the
//   dependencies a packet can create are in it.
//   The wait-for graph of the VC buffers, every cycle: an edge from a buffer whose head flit
//   waits for an output VC to the buffer downstream that holds its slots. A cycle whose buffers
//   have all waited, none moving, for the bound is a deadlock.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "noc_model.h"

namespace creditloop {

// A buffer or channel as people read it: "node.port.vc".
std::string noc_place(int node, int port, int vc);

struct NocDependencyGraph {
    size_t edges = 0;
    std::vector<std::string> cycle;   // one cycle, channels in order; empty: acyclic
    std::string problem;              // an escape graph's: a head offered no escape VC
};
// `route(here, dest, in_port, in_vc)`: the routing function (port 0: arrived).
using NocRouteFn = std::function<NocRoute(int here, int dest, int in_port, int in_vc)>;
// escape_vc >= 0: the escape VCs' extended dependency graph instead (Duato): an edge between two
// escape channels when a packet holding the first may ask for the second next or after any number
// of hops on the other VCs; and every head must be offered the escape VC. Adaptive routing cannot
// deadlock when this graph is acyclic, whatever cycles the whole graph has.
NocDependencyGraph dependency_graph(const NocConfig& c, const NocRouteFn& route, int escape_vc = -1);

struct NocDeadlock {
    uint64_t first_cycle = 0, reported_at = 0;
    std::vector<std::string> buffers;   // "node.port.vc", in the order they wait on each other
    std::string line() const;           // "from cycle 5 (reported at 11): 1.1.0 -> 2.1.0 -> ... -> 1.1.0"
};

// The detector. Buffers are numbered node * 20 + port * 4 + vc (noc_dut.h's slots); waits[b]
// lists the buffers b's head waits for this cycle.
class DeadlockDetector {
public:
    // The bound: 2L + 4 cycles. Within L every credit on its way to a buffer of the cycle has
    // arrived, within L more every flit on its way into one, within 2 more that flit is at its
    // buffer's head; after that nothing in the cycle changes unless one of its buffers moves.
    DeadlockDetector(int nodes, int l);
    static uint64_t bound(int l) { return 2 * uint64_t(l) + 4; }
    // Returns the deadlock the first time one is found.
    const NocDeadlock* observe(const std::vector<std::vector<int>>& waits, uint64_t now);

private:
    static constexpr uint64_t kNever = ~uint64_t{0};
    std::vector<uint64_t> since_;
    uint64_t bound_;
    bool found_ = false;
    NocDeadlock deadlock_;
};

}  // namespace creditloop
