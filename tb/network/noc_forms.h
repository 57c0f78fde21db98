// The closed forms of a credit network (docs/network.md derives each):
//   zero-load latency   h (L + 2) + 2 + s(F): h links of L stages, 2 cycles in each router on the
//                       way and 2 in the destination's, then the tail s(F) cycles behind the head:
//                       F - 1 when the B credits of a VC last the packet (F <= B or B >= RTT),
//                       more when its flits wait for their credits;
//   channel-load bound  a channel's load gamma_c (flits per cycle per unit of per-node injection
//                       rate) from the pattern and the routing's paths; no node can be offered
//                       more than 1 / max gamma_c (nor more than its sink takes);
//   credit bound        a VC is given to one packet at a time and only with all B credits back,
//                       so it carries F flits per F - 1 + RTT cycles (F <= B; RTT = 2L + 3), and
//                       a channel whose packets may use k of its VCs carries at most
//                       min(1, k F / period); for long packets this is seed 001's B / RTT.
// Paths are the model's routing (noc_model.h), which lockstep holds equal to the RTL's.
#pragma once

#include <string>
#include <vector>

#include "noc_model.h"
#include "noc_run.h"

namespace creditloop {

// Links from s to d under the routing (the escape path under adaptive routing: a minimal one).
int noc_hops(const NocConfig& c, int s, int d);
// Cycles from a credit's use to its use again on a link of L stages.
inline int credit_rtt(const NocConfig& c) { return 2 * c.l + 3; }
// Cycles from a packet's head leaving a router to its tail leaving: flit i leaves at
// max(leave of flit i - 1, + 1; leave of flit i - B + RTT).
long long tail_delay(const NocConfig& c, int flits);
inline long long zero_load_latency(const NocConfig& c, int hops, int flits) {
    return (long long)hops * (c.l + 2) + 2 + tail_delay(c, flits);
}
// Cycles a VC is held by one packet of `flits` flits, from its head's allocation to the VC being
// free again with every credit back (B credits, the round trip above).
long long vc_period(const NocConfig& c, int flits);

struct NocBounds {
    double average_hops = 0.0;
    double zero_load = 0.0;          // average over the pattern's pairs
    double channel_load = 0.0;       // flits per node per cycle: 1 / max load (links and sinks)
    double credit = 0.0;             // flits per node per cycle the credit loops allow
    bool credit_known = true;        // false under adaptive routing (the split is the router's choice)
    std::string channel_load_at;     // the channel (or sink) that sets the channel-load bound
    std::string credit_at;
    double saturation() const { return credit_known && credit < channel_load ? credit : channel_load; }
};
NocBounds network_bounds(const NocConfig& c, const NocTraffic& t);

}  // namespace creditloop
