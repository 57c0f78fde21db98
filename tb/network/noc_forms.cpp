#include "noc_forms.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "noc_graph.h"

namespace creditloop {

namespace {

// The path of a packet from s to d: each hop's (node, port, allowed VCs), the first VC allowed
// taken on the way (the class a dateline packet is in is the same whichever VC of it it holds).
struct Hop {
    int node, port;
    unsigned mask;
};
std::vector<Hop> path(const NocConfig& c, int s, int d) {
    std::vector<Hop> hops;
    int here = s, in_port = 0, in_vc = 0;
    for (int guard = 0; guard < 4 * c.nodes() + 4; ++guard) {
        NocConfig dor = c;
        if (c.topo == 2) dor.routing = 0;   // adaptive: its escape path (minimal, dimension order)
        const NocRoute r = noc_route(dor, here, d, in_port, in_vc);
        if (r.port == 0) break;
        hops.push_back({here, r.port, r.mask});
        int w = 0;
        while (w < c.v && !((r.mask >> w) & 1u)) ++w;
        in_port = r.port;
        in_vc = w;
        here = c.next(here, r.port);
        if (here < 0) break;
    }
    return hops;
}

int popcount(unsigned m) {
    int k = 0;
    for (; m; m &= m - 1) ++k;
    return k;
}

}  // namespace

int noc_hops(const NocConfig& c, int s, int d) { return int(path(c, s, d).size()); }

long long tail_delay(const NocConfig& c, int flits) {
    std::vector<long long> leave(size_t(flits), 0);
    for (int i = 1; i < flits; ++i) {
        leave[size_t(i)] = leave[size_t(i - 1)] + 1;
        if (i >= c.b) leave[size_t(i)] = std::max(leave[size_t(i)], leave[size_t(i - c.b)] + credit_rtt(c));
    }
    return leave.back();
}

// The VC is free once the tail's credit is back, RTT after the tail left.
long long vc_period(const NocConfig& c, int flits) { return tail_delay(c, flits) + credit_rtt(c); }

NocBounds network_bounds(const NocConfig& c, const NocTraffic& t) {
    NocBounds b;
    std::map<std::pair<int, int>, double> load;                    // (node, port) -> load
    std::map<std::tuple<int, int, unsigned>, double> class_load;   // (node, port, VCs allowed)
    std::vector<double> sink(size_t(c.nodes()), 0.0);
    double pairs = 0.0, hops = 0.0;
    for (int s = 0; s < c.nodes(); ++s) {
        const auto dests = pattern_destinations(c, t, s);
        for (int d : dests) {
            const double p = 1.0 / double(dests.size());
            const auto route = path(c, s, d);
            for (const Hop& h : route) {
                load[{h.node, h.port}] += p;
                class_load[{h.node, h.port, h.mask}] += p;
            }
            sink[size_t(d)] += p;
            hops += double(route.size());
            pairs += 1.0;
        }
    }
    b.average_hops = pairs > 0 ? hops / pairs : 0.0;
    b.zero_load = b.average_hops * (c.l + 2) + 2 + double(tail_delay(c, t.flits));
    double worst = 0.0;
    for (const auto& [at, value] : load)
        if (value > worst) {
            worst = value;
            b.channel_load_at = "channel " + std::to_string(at.first) + "." + std::to_string(at.second);
        }
    for (int n = 0; n < c.nodes(); ++n)
        if (sink[size_t(n)] > worst) {
            worst = sink[size_t(n)];
            b.channel_load_at = "the sink of node " + std::to_string(n);
        }
    b.channel_load = worst > 0 ? std::min(1.0, 1.0 / worst) : 1.0;
    b.credit_known = !(c.topo == 2 && c.routing != 0);
    b.credit = 1.0;
    const double per_vc = double(t.flits) / double(vc_period(c, t.flits));
    for (const auto& [at, value] : class_load) {
        const double capacity = std::min(1.0, popcount(std::get<2>(at)) * per_vc);
        if (value > 0 && capacity / value < b.credit) {
            b.credit = capacity / value;
            b.credit_at = "channel " + std::to_string(std::get<0>(at)) + "." + std::to_string(std::get<1>(at));
        }
    }
    return b;
}

}  // namespace creditloop
