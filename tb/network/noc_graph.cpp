#include "noc_graph.h"

#include <algorithm>

#include "noc_dut.h"

namespace creditloop {

std::string noc_place(int node, int port, int vc) {
    return std::to_string(node) + "." + std::to_string(port) + "." + std::to_string(vc);
}

namespace {

// One cycle of `edges` (vertex lists) found by depth-first search, only through vertices
// `usable` admits, the first that `accept` takes; empty when there is none.
template <class Usable, class Accept>
std::vector<int> find_cycle(const std::vector<std::vector<int>>& edges, Usable usable, Accept accept) {
    std::vector<int> colour(edges.size(), 0);
    for (size_t root = 0; root < edges.size(); ++root) {
        if (colour[root] || !usable(int(root))) continue;
        std::vector<std::pair<int, size_t>> stack = {{int(root), 0}};
        colour[root] = 1;
        while (!stack.empty()) {
            auto& [v, i] = stack.back();
            if (i == edges[size_t(v)].size()) {
                colour[size_t(v)] = 2;
                stack.pop_back();
                continue;
            }
            const int next = edges[size_t(v)][i++];
            if (!usable(next)) continue;
            if (colour[size_t(next)] == 1) {   // a back edge: the cycle is next ... v on the stack
                std::vector<int> cycle;
                bool in = false;
                for (const auto& entry : stack) {
                    in = in || entry.first == next;
                    if (in) cycle.push_back(entry.first);
                }
                if (accept(cycle)) return cycle;
                continue;
            }
            if (colour[size_t(next)] == 0) {
                colour[size_t(next)] = 1;
                stack.push_back({next, 0});
            }
        }
    }
    return {};
}

}  // namespace

NocDependencyGraph dependency_graph(const NocConfig& c, const NocRouteFn& route, int escape_vc) {
    NocDependencyGraph g;
    const int channels = c.nodes() * kNocSlots;
    std::vector<std::vector<int>> edges(static_cast<size_t>(channels));
    struct State {
        int node, in_port, in_vc, held;   // held: the (escape) channel the packet holds (-1: none yet)
    };
    std::vector<char> seen;
    for (int s = 0; s < c.nodes(); ++s)
        for (int d = 0; d < c.nodes(); ++d) {
            if (s == d) continue;
            // Every state (node, input port, VC, held channel) once per destination.
            seen.assign(size_t(c.nodes()) * kNocSlots * (size_t(channels) + 1), 0);
            std::vector<State> todo;
            for (int w = 0; w < c.v; ++w) todo.push_back({s, 0, w, -1});
            while (!todo.empty()) {
                const State at = todo.back();
                todo.pop_back();
                const size_t key = (size_t(at.node) * kNocSlots + size_t(at.in_port * kNocMaxVcs + at.in_vc)) *
                                       (size_t(channels) + 1) + size_t(at.held + 1);
                if (seen[key]) continue;
                seen[key] = 1;
                const NocRoute r = route(at.node, d, at.in_port, at.in_vc);
                if (r.port == 0) continue;   // delivered
                if (escape_vc >= 0 && !((r.mask >> escape_vc) & 1u) && g.problem.empty())
                    g.problem = "a head at node " + std::to_string(at.node) + " bound for node " + std::to_string(d) +
                                " is offered no escape VC";
                // Every VC the route allows: on its port, and on its second port (adaptive routing).
                for (int k = 0; k < 2 * c.v; ++k) {
                    const int port = k < c.v ? r.port : r.alt_port, w = k % c.v;
                    if (!(((k < c.v ? r.mask : r.alt_mask) >> w) & 1u)) continue;
                    const int next = c.next(at.node, port);
                    if (next < 0) continue;   // off a mesh's edge: the route block's own bug, shown by lockstep
                    const int channel = at.node * kNocSlots + port * kNocMaxVcs + w;
                    const bool counted = escape_vc < 0 || w == escape_vc;
                    if (counted && at.held >= 0) {
                        auto& out = edges[size_t(at.held)];
                        if (std::find(out.begin(), out.end(), channel) == out.end()) out.push_back(channel);
                    }
                    todo.push_back({next, port, w, counted ? channel : at.held});
                }
            }
        }
    for (const auto& e : edges) g.edges += e.size();
    for (int ch : find_cycle(edges, [](int) { return true; }, [](const std::vector<int>&) { return true; }))
        g.cycle.push_back(noc_place(ch / kNocSlots, ch % kNocSlots / kNocMaxVcs, ch % kNocMaxVcs));
    return g;
}

std::string NocDeadlock::line() const {
    std::string text = "from cycle " + std::to_string(first_cycle) + " (reported at " + std::to_string(reported_at) + "): ";
    for (const auto& b : buffers) text += b + " -> ";
    return text + (buffers.empty() ? "" : buffers.front());
}

DeadlockDetector::DeadlockDetector(int nodes, int l)
    : since_(size_t(nodes) * kNocSlots, kNever), bound_(bound(l)) {}

const NocDeadlock* DeadlockDetector::observe(const std::vector<std::vector<int>>& waits, uint64_t now) {
    for (size_t b = 0; b < waits.size() && b < since_.size(); ++b)
        if (waits[b].empty()) since_[b] = kNever;
        else if (since_[b] == kNever) since_[b] = now;
    if (found_) return nullptr;
    // A head refused an output VC waits for any one of several buffers (every VC its route
    // allows, on two ports under adaptive routing): a cycle of waits is a deadlock only when every
    // buffer it waits for, directly or not, has waited, unmoved, for the bound too.
    const auto stuck = [&](const std::vector<int>& cycle) {
        std::vector<char> seen(since_.size(), 0);
        std::vector<int> todo = cycle;
        for (int b : cycle) seen[size_t(b)] = 1;
        while (!todo.empty()) {
            const int b = todo.back();
            todo.pop_back();
            if (since_[size_t(b)] == kNever || now - since_[size_t(b)] < bound_) return false;
            for (int next : waits[size_t(b)])
                if (size_t(next) < seen.size() && !seen[size_t(next)]) {
                    seen[size_t(next)] = 1;
                    todo.push_back(next);
                }
        }
        return true;
    };
    const auto cycle = find_cycle(waits, [&](int b) { return since_[size_t(b)] != kNever; }, stuck);
    if (cycle.empty()) return nullptr;
    uint64_t formed = 0;
    for (int b : cycle) formed = std::max(formed, since_[size_t(b)]);
    found_ = true;
    deadlock_.first_cycle = formed;
    deadlock_.reported_at = now;
    for (int b : cycle) deadlock_.buffers.push_back(noc_place(b / kNocSlots, b % kNocSlots / kNocMaxVcs, b % kNocMaxVcs));
    return &deadlock_;
}

}  // namespace creditloop
