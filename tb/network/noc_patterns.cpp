// The traffic patterns of a network run: where each node sends (noc_run.h).
#include "noc_run.h"

#include <string>
#include <vector>

namespace creditloop {

const char* pattern_name(NocPattern p) {
    switch (p) {
    case NocPattern::uniform: return "uniform";
    case NocPattern::transpose: return "transpose";
    case NocPattern::neighbor: return "neighbor";
    default: return "hops";
    }
}

std::string pattern_problem(const NocConfig& c, const NocTraffic& t) {
    if (t.pattern == NocPattern::transpose && (c.topo != 2 || c.nx != c.ny))
        return "--pattern transpose needs a square mesh (mesh:XxX): it sends node (x, y) to node (y, x)";
    if (t.pattern == NocPattern::hops && (t.hops < 1 || t.hops >= c.nodes()))
        return "hops:" + std::to_string(t.hops) + " needs 1 <= hops < " + std::to_string(c.nodes());
    return "";
}

std::vector<int> pattern_destinations(const NocConfig& c, const NocTraffic& t, int s) {
    const int n = c.nodes();
    switch (t.pattern) {
    case NocPattern::uniform: {
        std::vector<int> all;
        for (int d = 0; d < n; ++d)
            if (d != s) all.push_back(d);
        return all;
    }
    case NocPattern::transpose: {
        const int d = (s % c.nx) * c.nx + s / c.nx;
        return d == s ? std::vector<int>{} : std::vector<int>{d};
    }
    case NocPattern::neighbor:
        // The next node: + 1 round a ring; east on a mesh, from the last column to the first.
        return {c.topo == 2 ? (s / c.nx) * c.nx + (s % c.nx + 1) % c.nx : (s + 1) % n};
    default: return {(s + t.hops) % n};
    }
}

}  // namespace creditloop
