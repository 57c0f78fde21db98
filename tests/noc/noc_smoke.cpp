// The credit network's RTL (rtl/noc/) on its own, against closed forms and the channel
// dependency graph's verdict, before a model runs beside it:
//   1. zero-load latency: a one-flit packet from s to d is delivered h * (L + 2) + 2 cycles after
//      it is taken (2 cycles a router, L a link; h the hops of the routing), every pair of nodes;
//   2. random traffic on the networks that cannot deadlock (dateline rings, the dimension-order
//      mesh, the adaptive mesh): every packet delivered once, to its node, its flits in order, and
//      the network drains when the sources stop;
//   3. the channel dependency graph (Dally and Seitz), before any simulation: built by evaluating
//      the RTL's route block (noc_route) on the paths of every source and destination, its cycles
//      reported; the one-way ring with one VC has one (its four links), and so has the adaptive
//      mesh (through its adaptive VCs), the others none. Beside it, the escape VCs' extended
//      graph (Duato): their dependencies direct or through any run of adaptive VCs, which must be
//      acyclic for a routing to be free of deadlock (on a network without adaptive VCs it is the
//      graph itself);
//   4. deadlock: under heavy load (every node sending three hops ahead on the one-way rings, both
//      transposes on the adaptive mesh), a network whose escape graph has a cycle stops delivering
//      and one whose escape graph is acyclic drains;
//   5. in every run above, the golden model (cpp_models/noc_model.h) in lockstep with the RTL:
//      the same flits taken and delivered, every router's VCs holding the same flits and credits,
//      and every head flit waiting for the same buffers, cycle for cycle.
// Exit 0 when every check holds; one line per failed check otherwise.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "Vnoc_smoke_top.h"
#include "noc_model.h"
#include "verilated.h"

namespace {

int failures = 0;
void check(bool ok, const std::string& what) {
    if (!ok) {
        ++failures;
        std::printf("FAIL %s\n", what.c_str());
    }
}

template <class W> bool bit(const W& w, int i) { return (w[i / 32] >> (i % 32)) & 1u; }
bool bit(const SData& w, int i) { return (w >> i) & 1u; }
void set_bit(SData& w, int i, bool v) { w = SData(v ? w | 1u << i : w & ~(1u << i)); }
template <class W> void set_bit(W& w, int i, bool v) {
    if (v) w[i / 32] |= 1u << (i % 32);
    else w[i / 32] &= ~(1u << (i % 32));
}

struct Flit {
    int seq = 0, id = 0, src = 0, dest = 0, vc = 0;
    bool tail = false, head = false;
    uint32_t pack() const {
        return uint32_t(seq & 15) | uint32_t(id & 255) << 4 | uint32_t(src & 15) << 12 | uint32_t(dest & 15) << 16 |
               uint32_t(vc & 3) << 20 | uint32_t(tail) << 22 | uint32_t(head) << 23;
    }
    static Flit unpack(uint32_t w) {
        Flit f;
        f.seq = w & 15;
        f.id = (w >> 4) & 255;
        f.src = (w >> 12) & 15;
        f.dest = (w >> 16) & 15;
        f.vc = (w >> 20) & 3;
        f.tail = (w >> 22) & 1;
        f.head = (w >> 23) & 1;
        return f;
    }
};

struct Route {
    int port;
    unsigned mask;
    int alt_port;
    unsigned alt_mask;
};

// One network of the top: its parameters and its ports.
struct Net {
    const char* name;
    int topo, nx, ny, routing, v, b, l;
    SData* inj_valid;
    VlWide<16>* inj_flit;
    SData* inj_accept;
    SData* ej_valid;
    VlWide<16>* ej_flit;
    SData* ej_ready;
    VlWide<40>* obs_fill;
    VlWide<40>* obs_credits;
    VlWide<200>* obs_wait;
    // The route block's ports.
    CData* r_here;
    CData* r_dest;
    CData* r_in_port;
    CData* r_in_vc;
    CData* r_out_port;
    CData* r_vc_mask;
    CData* r_alt_port;
    CData* r_alt_mask;
    int nodes() const { return nx * ny; }
    creditloop::NocConfig config() const { return {topo, nx, ny, routing, v, b, l}; }
    int ports() const { return topo == 0 ? 2 : topo == 1 ? 3 : 5; }
    // The node output `port` of node n feeds (noc_network.sv's wiring).
    int next(int n, int port) const { return config().next(n, port); }
    Route route(Vnoc_smoke_top& top, int here, int dest, int in_port, int in_vc) const {
        *r_here = CData(here);
        *r_dest = CData(dest);
        *r_in_port = CData(in_port);
        *r_in_vc = CData(in_vc);
        top.eval();
        return {*r_out_port, *r_vc_mask, *r_alt_port, *r_alt_mask};
    }
    // Hops from s to d under the network's routing (noc_route.sv's rule, worked by hand; every
    // path of the adaptive mesh is minimal).
    int hops(int s, int d) const {
        const int n = nodes();
        if (topo == 0) return (d - s + n) % n;
        if (topo == 1) {
            const int forward = (d - s + n) % n;
            return forward <= n - forward ? forward : n - forward;
        }
        return std::abs(d % nx - s % nx) + std::abs(d / nx - s / nx);
    }
    // The VCs a packet may enter on: class 0 under a dateline, any otherwise.
    int entry_vcs() const { return routing == 1 && topo != 2 ? v / 2 : v; }
};

struct Packet {
    int src, dest, id, flits, vc;
};

// The deadlock detector: each cycle, the model's wait-for graph over the VC buffers; a cycle of
// buffers that have all waited, none moving, for `bound` cycles is a deadlock. The bound is 2L + 4:
// within L cycles every credit that was on its way to a buffer of the cycle has arrived, within L
// more every flit on its way into one, and within 2 more that flit is at its buffer's head; after
// that, nothing in the cycle can change unless a buffer of the cycle moves.
// A head refused an output VC waits for any one of several buffers (every VC its route allows, on
// both ports under adaptive routing), so a cycle of waits is a deadlock only when every buffer it
// waits for, directly or not, has waited as long: one that may still move could free a VC.
class DeadlockDetector {
public:
    DeadlockDetector(int buffers, uint64_t bound) : since_(buffers, kNever), bound_(bound) {}

    bool found = false;
    uint64_t first_cycle = 0, reported_at = 0;
    std::vector<int> cycle;   // buffer ids, in the order they wait on each other

    void observe(const creditloop::NocModel& model, uint64_t now) {
        const auto& waits = model.waits();
        for (size_t b = 0; b < waits.size(); ++b)
            if (waits[b].empty()) since_[b] = kNever;
            else if (since_[b] == kNever) since_[b] = now;
        if (found) return;
        // Depth-first search over the waiting buffers.
        std::vector<int> colour(waits.size(), 0);
        for (size_t root = 0; root < waits.size() && !found; ++root) {
            if (colour[root] || since_[root] == kNever) continue;
            std::vector<std::pair<int, size_t>> stack = {{int(root), 0}};
            colour[root] = 1;
            while (!stack.empty() && !found) {
                auto& [b, i] = stack.back();
                if (i == waits[b].size()) {
                    colour[b] = 2;
                    stack.pop_back();
                    continue;
                }
                const int next = waits[b][i++];
                if (since_[next] == kNever) continue;
                if (colour[next] == 1) {
                    std::vector<int> members;
                    uint64_t formed = 0;
                    bool in = false;
                    for (const auto& [k, unused] : stack) {
                        in = in || k == next;
                        if (in) {
                            members.push_back(k);
                            formed = std::max(formed, since_[k]);
                        }
                    }
                    if (now - formed >= bound_ && stuck(waits, members, now)) {
                        found = true;
                        first_cycle = formed;
                        reported_at = now;
                        cycle = members;
                    }
                } else if (colour[next] == 0) {
                    colour[next] = 1;
                    stack.push_back({next, 0});
                }
            }
        }
    }

private:
    // Whether every buffer the members wait for, directly or not, has waited, unmoved, for the bound.
    bool stuck(const std::vector<std::vector<int>>& waits, const std::vector<int>& members, uint64_t now) const {
        std::vector<bool> seen(waits.size(), false);
        std::vector<int> todo = members;
        for (int b : members) seen[b] = true;
        while (!todo.empty()) {
            const int b = todo.back();
            todo.pop_back();
            if (since_[b] == kNever || now - since_[b] < bound_) return false;
            for (int next : waits[b])
                if (!seen[next]) {
                    seen[next] = true;
                    todo.push_back(next);
                }
        }
        return true;
    }

    static constexpr uint64_t kNever = ~uint64_t{0};
    std::vector<uint64_t> since_;   // per buffer: the cycle since which it has waited, unmoved
    uint64_t bound_;
};

class Bench {
public:
    explicit Bench(Net net) : net_(net) {}

    // Packets waiting at each source, sent in order (a packet's flits back to back on its VC).
    std::vector<std::deque<Packet>> queue;
    std::map<std::pair<int, int>, int> next_seq;   // (src, id) -> the next flit expected
    std::map<std::pair<int, int>, uint64_t> taken_at;
    uint64_t delivered_packets = 0, sent_packets = 0, last_delivery = 0;
    std::vector<uint64_t> latencies;

    uint64_t lockstep_cycles = 0;
    std::string first_difference;

    std::unique_ptr<DeadlockDetector> detector;

    const creditloop::NocModel& model() const { return *model_; }

    void reset_state() {
        model_ = std::make_unique<creditloop::NocModel>(net_.config());
        detector = std::make_unique<DeadlockDetector>(net_.nodes() * net_.ports() * net_.v, 2 * net_.l + 4);
        lockstep_cycles = 0;
        first_difference.clear();
        queue.assign(net_.nodes(), {});
        sent_flit_.assign(net_.nodes(), 0);
        next_seq.clear();
        taken_at.clear();
        delivered_packets = sent_packets = 0;
        latencies.clear();
    }

    // One cycle: offer each source's next flit, read the deliveries, then the clock edge.
    void cycle(Vnoc_smoke_top& top, uint64_t now, uint32_t ready_mask, const std::string& where) {
        for (int n = 0; n < net_.nodes(); ++n) {
            const bool offer = !queue[n].empty();
            set_bit(*net_.inj_valid, n, offer);
            set_bit(*net_.ej_ready, n, (ready_mask >> n) & 1u);
            if (offer) {
                const Packet& p = queue[n].front();
                Flit f;
                f.seq = sent_flit_[n];
                f.id = p.id;
                f.src = p.src;
                f.dest = p.dest;
                f.vc = p.vc;
                f.head = sent_flit_[n] == 0;
                f.tail = sent_flit_[n] == p.flits - 1;
                (*net_.inj_flit)[n] = f.pack();
            } else {
                (*net_.inj_flit)[n] = 0;
            }
        }
        top.clk = 0;
        top.eval();
        lockstep(now, ready_mask);
        for (int n = 0; n < net_.nodes(); ++n) {
            if (bit(*net_.inj_accept, n)) {
                const Packet& p = queue[n].front();
                if (sent_flit_[n] == 0) taken_at[{p.src, p.id}] = now;
                if (++sent_flit_[n] == p.flits) {
                    sent_flit_[n] = 0;
                    queue[n].pop_front();
                    ++sent_packets;
                }
            }
            if (bit(*net_.ej_valid, n)) {
                const Flit f = Flit::unpack((*net_.ej_flit)[n]);
                const auto key = std::make_pair(f.src, f.id);
                check(f.dest == n, where + ": packet " + std::to_string(f.id) + " of node " + std::to_string(f.src) +
                                       " for node " + std::to_string(f.dest) + " delivered at node " + std::to_string(n));
                check(next_seq.count(key) ? f.seq == next_seq[key] : f.seq == 0 && f.head,
                      where + ": flit " + std::to_string(f.seq) + " of packet " + std::to_string(f.id) + " of node " +
                          std::to_string(f.src) + " out of order");
                next_seq[key] = f.seq + 1;
                last_delivery = now;
                if (f.tail) {
                    next_seq.erase(key);
                    ++delivered_packets;
                    latencies.push_back(now - taken_at[key]);
                    taken_at.erase(key);
                }
            }
        }
        top.clk = 1;
        top.eval();
    }

private:
    // The model steps through the same cycle; its taken and delivered flits must be the RTL's.
    void lockstep(uint64_t now, uint32_t ready_mask) {
        // The routers' state at the start of the cycle: every VC's flits and credits.
        const auto field = [](const VlWide<40>& w, int n, int p, int v) {
            const int at = ((n * 5 + p) * 4 + v) * 4;
            return int((w[at / 32] >> (at % 32)) & 15u);
        };
        for (int n = 0; n < net_.nodes() && first_difference.empty(); ++n)
            for (int q = 0; q < net_.ports() * net_.v && first_difference.empty(); ++q) {
                const int p = q / net_.v, v = q % net_.v;
                const int fill = field(*net_.obs_fill, n, p, v), credits = field(*net_.obs_credits, n, p, v);
                const std::string at = "cycle " + std::to_string(now) + ", node " + std::to_string(n) + " port " +
                                       std::to_string(p) + " VC " + std::to_string(v) + ": ";
                if (fill != model_->fill(n, q))
                    first_difference = at + "holds " + std::to_string(fill) + " flits, model " + std::to_string(model_->fill(n, q));
                else if (credits != model_->credits(n, q))
                    first_difference = at + std::to_string(credits) + " credits, model " + std::to_string(model_->credits(n, q));
            }
        creditloop::NocModel::Inputs in;
        for (int n = 0; n < net_.nodes(); ++n) {
            const Flit f = Flit::unpack((*net_.inj_flit)[n]);
            in.inj_valid.push_back(bit(*net_.inj_valid, n));
            in.inj_flit.push_back({f.head, f.tail, f.vc, f.dest, f.src, f.id, f.seq});
            in.ej_ready.push_back((ready_mask >> n) & 1u);
        }
        const auto o = model_->step(in);
        detector->observe(*model_, now);
        ++lockstep_cycles;
        // The buffers each head flit waits for: the RTL's obs_wait against the model's wait-for graph.
        const int q_count = net_.ports() * net_.v;
        const auto names = [&](std::vector<int> buffers) {
            std::sort(buffers.begin(), buffers.end());
            std::string text;
            for (int b : buffers)
                text += (text.empty() ? "" : " ") + (b < 0 ? std::string("?") : std::to_string(b / q_count) + "." +
                                                     std::to_string(b % q_count / net_.v) + "." + std::to_string(b % net_.v));
            return "{" + text + "}";
        };
        for (int n = 0; n < net_.nodes() && first_difference.empty(); ++n)
            for (int q = 0; q < q_count && first_difference.empty(); ++q) {
                const int at = ((n * 5 + q / net_.v) * 4 + q % net_.v) * 20;
                std::vector<int> rtl;
                for (int p = 0; p < net_.ports(); ++p)
                    for (int w = 0; w < net_.v; ++w)
                        if (bit(*net_.obs_wait, at + p * 4 + w))
                            rtl.push_back(p == 0 || net_.next(n, p) < 0 ? -1 : net_.next(n, p) * q_count + p * net_.v + w);
                const std::string got = names(rtl), want = names(model_->waits()[size_t(n * q_count + q)]);
                if (got != want)
                    first_difference = "cycle " + std::to_string(now) + ", node " + std::to_string(n) + " port " +
                                       std::to_string(q / net_.v) + " VC " + std::to_string(q % net_.v) + ": waits for " +
                                       got + ", model " + want;
            }
        for (int n = 0; n < net_.nodes() && first_difference.empty(); ++n) {
            const Flit f = Flit::unpack((*net_.ej_flit)[n]);
            const creditloop::NocFlit rtl{f.head, f.tail, f.vc, f.dest, f.src, f.id, f.seq};
            const bool ej = bit(*net_.ej_valid, n);
            if (o.inj_accept[n] != bit(*net_.inj_accept, n))
                first_difference = "cycle " + std::to_string(now) + ", node " + std::to_string(n) + ": injection taken " +
                                   std::to_string(bit(*net_.inj_accept, n)) + ", model " + std::to_string(o.inj_accept[n]);
            else if (o.ej_valid[n] != ej || (ej && !(o.ej_flit[n] == rtl)))
                first_difference = "cycle " + std::to_string(now) + ", node " + std::to_string(n) + ": delivery differs (RTL " +
                                   (ej ? "flit " + std::to_string(f.seq) + " of packet " + std::to_string(f.id) : std::string("none")) +
                                   ", model " + (o.ej_valid[n] ? "flit " + std::to_string(o.ej_flit[n].seq) + " of packet " +
                                                                  std::to_string(o.ej_flit[n].id)
                                                            : std::string("none")) + ")";
        }
    }

    Net net_;
    std::vector<int> sent_flit_;
    std::unique_ptr<creditloop::NocModel> model_;
};

void lockstep_verdict(const Bench& bench, const std::string& what) {
    check(bench.first_difference.empty(), what + ": RTL and model differ at " + bench.first_difference);
}

void reset(Vnoc_smoke_top& top) {
    top.clk = 0;
    top.rst_n = 0;
    top.eval();
    top.clk = 1;
    top.eval();
    top.clk = 0;
    top.rst_n = 1;
    top.eval();
}

uint32_t lcg(uint64_t& s) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(s >> 33);
}

// 1. Every pair, one packet at a time on an empty network.
int zero_load(Vnoc_smoke_top& top, const Net& net) {
    reset(top);
    Bench bench(net);
    bench.reset_state();
    uint64_t now = 0;
    int id = 0;
    for (int s = 0; s < net.nodes(); ++s)
        for (int d = 0; d < net.nodes(); ++d) {
            if (s == d) continue;
            bench.queue[s].push_back({s, d, id++ & 255, 1, 0});
            const uint64_t before = bench.delivered_packets;
            for (int c = 0; c < 200 && bench.delivered_packets == before; ++c) bench.cycle(top, now++, ~0u, net.name);
            const uint64_t want = uint64_t(net.hops(s, d)) * (net.l + 2) + 2;
            check(bench.delivered_packets == before + 1 && bench.latencies.back() == want,
                  std::string(net.name) + ": zero-load latency " + std::to_string(s) + " -> " + std::to_string(d) +
                      ": " + (bench.latencies.empty() ? std::string("never") : std::to_string(bench.latencies.back())) +
                      " cycles, want h * (L + 2) + 2 = " + std::to_string(want));
            for (int c = 0; c < 20; ++c) bench.cycle(top, now++, ~0u, net.name);   // empty again
        }
    lockstep_verdict(bench, std::string(net.name) + ": zero load");
    return id;
}

// Runs `cycles` of traffic from `fill` (called each cycle to top up the queues), then stops the
// sources and waits; returns the cycle of the last delivery minus the run's start, and whether
// every packet taken was delivered.
struct Outcome {
    uint64_t sent, delivered;
    bool stalled;   // flits outstanding and no delivery for `stall` cycles
    uint64_t lockstep_cycles;
    std::string difference;
    std::string deadlock;   // "" or the detector's report
    uint64_t alt_grants;    // heads given a VC on their route's second port (adaptive routing)
};

std::string deadlock_report(const Bench& bench, const Net& net) {
    const DeadlockDetector& d = *bench.detector;
    if (!d.found) return "";
    std::string text = "deadlock from cycle " + std::to_string(d.first_cycle) + " (reported at " +
                       std::to_string(d.reported_at) + "): ";
    const int q = net.ports() * net.v;
    for (int b : d.cycle)
        text += std::to_string(b / q) + "." + std::to_string(b % q / net.v) + "." + std::to_string(b % net.v) + " -> ";
    const int b = d.cycle.front();
    return text + std::to_string(b / q) + "." + std::to_string(b % q / net.v) + "." + std::to_string(b % net.v);
}
template <class Fill>
Outcome traffic(Vnoc_smoke_top& top, const Net& net, uint64_t cycles, uint64_t stall, uint64_t seed, Fill fill) {
    reset(top);
    Bench bench(net);
    bench.reset_state();
    uint64_t s = seed;
    uint64_t now = 0;
    for (; now < cycles; ++now) {
        fill(bench, s);
        bench.cycle(top, now, lcg(s) | lcg(s), net.name);   // each sink ready 3/4 of the cycles
        if (bench.sent_packets > bench.delivered_packets && now - bench.last_delivery > stall)
            return {bench.sent_packets, bench.delivered_packets, true, bench.lockstep_cycles, bench.first_difference,
                    deadlock_report(bench, net), bench.model().alt_grants()};
    }
    for (int n = 0; n < net.nodes(); ++n)
        while (bench.queue[n].size() > 1) bench.queue[n].pop_back();   // finish the packet under way
    for (uint64_t c = 0; c < cycles; ++c, ++now) {
        bench.cycle(top, now, ~0u, net.name);
        if (bench.delivered_packets == bench.sent_packets && bench.taken_at.empty()) break;
        if (now - bench.last_delivery > stall)
            return {bench.sent_packets, bench.delivered_packets, true, bench.lockstep_cycles, bench.first_difference,
                    deadlock_report(bench, net), bench.model().alt_grants()};
    }
    return {bench.sent_packets, bench.delivered_packets, false, bench.lockstep_cycles, bench.first_difference,
            deadlock_report(bench, net), bench.model().alt_grants()};
}

// The channel dependency graph: a channel is an output VC of a router towards another router
// (node, port, VC); an edge c1 -> c2 when a packet holding c1 may ask for c2 next. The edges are
// those of the paths the route block gives every source and destination (every VC it allows at
// each hop, on both ports under adaptive routing), so only dependencies a packet can create are
// in it.
//
// Beside it, the escape VCs' extended graph (Duato): the escape VCs are those the route block never
// offers on a second port (all of them on a network without adaptive routing), and an edge
// e1 -> e2 joins escape channels when a packet holding e1 may ask for e2 next, or after any run of
// adaptive channels. A routing is free of deadlock when this graph is acyclic and every head on
// every path is offered an escape VC.
struct Dependencies {
    std::vector<std::vector<int>> channels;   // per channel, the channels it may wait for
    std::vector<std::vector<int>> escape;     // per escape channel, the escape channels, extended
    unsigned escape_vcs = 0;
    bool escape_everywhere = true;            // every head on every path is offered an escape VC
};

size_t edge_count(const std::vector<std::vector<int>>& edges) {
    size_t count = 0;
    for (const auto& e : edges) count += e.size();
    return count;
}

Dependencies dependencies(Vnoc_smoke_top& top, const Net& net) {
    const int channels = net.nodes() * net.ports() * net.v;
    const auto id = [&](int n, int p, int w) { return (n * net.ports() + p) * net.v + w; };
    std::map<std::array<int, 4>, Route> routes;
    const auto route = [&](int node, int dest, int in_port, int in_vc) {
        const std::array<int, 4> key = {node, dest, in_port, in_vc};
        auto it = routes.find(key);
        if (it == routes.end()) it = routes.emplace(key, net.route(top, node, dest, in_port, in_vc)).first;
        return it->second;
    };
    // What a route offers, (port, VC): its port's VCs, then its second port's.
    const auto offers = [&](const Route& r) {
        std::vector<std::pair<int, int>> out;
        for (int w = 0; w < net.v; ++w)
            if ((r.mask >> w) & 1u) out.push_back({r.port, w});
        for (int w = 0; w < net.v; ++w)
            if ((r.alt_mask >> w) & 1u) out.push_back({r.alt_port, w});
        return out;
    };
    const auto add = [](std::vector<int>& out, int c) {
        if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    };
    // A packet at a router: its input port and VC there, and `last`, a channel it held (-1 at
    // injection): the one it holds, for the channel graph; the last escape one, for the escape graph.
    struct State {
        int node, in_port, in_vc, last;
    };
    // Every path of every packet, each state once; `step` adds a state's edges and next states.
    const auto walk = [&](auto step) {
        for (int s = 0; s < net.nodes(); ++s)
            for (int d = 0; d < net.nodes(); ++d) {
                if (s == d) continue;
                std::set<std::array<int, 4>> seen;
                std::vector<State> todo = {{s, 0, 0, -1}};
                while (!todo.empty()) {
                    const State at = todo.back();
                    todo.pop_back();
                    if (!seen.insert({at.node, at.in_port, at.in_vc, at.last}).second) continue;
                    const Route r = route(at.node, d, at.in_port, at.in_vc);
                    if (r.port != 0) step(at, r, todo);   // port 0: delivered
                }
            }
    };
    Dependencies deps;
    deps.channels.assign(channels, {});
    deps.escape.assign(channels, {});
    unsigned adaptive = 0;
    walk([&](const State& at, const Route& r, std::vector<State>& todo) {
        adaptive |= r.alt_mask;
        for (const auto& [port, w] : offers(r)) {
            const int c = id(at.node, port, w), next = net.next(at.node, port);
            if (at.last >= 0) add(deps.channels[at.last], c);
            if (next >= 0) todo.push_back({next, port, w, c});   // off a mesh's edge: lockstep shows it
        }
    });
    deps.escape_vcs = ((1u << net.v) - 1) & ~adaptive;
    walk([&](const State& at, const Route& r, std::vector<State>& todo) {
        if (((r.mask | r.alt_mask) & deps.escape_vcs) == 0) deps.escape_everywhere = false;
        for (const auto& [port, w] : offers(r)) {
            const int c = id(at.node, port, w), next = net.next(at.node, port);
            const bool escape = (deps.escape_vcs >> w) & 1u;
            if (escape && at.last >= 0) add(deps.escape[at.last], c);
            if (next >= 0) todo.push_back({next, port, w, escape ? c : at.last});
        }
    });
    return deps;
}

// One cycle of a graph over channels (in order, "node.port.vc"), empty when it is acyclic.
std::vector<std::string> find_cycle(const Net& net, const std::vector<std::vector<int>>& edges) {
    const int channels = int(edges.size());
    // Depth-first search; a back edge closes a cycle.
    std::vector<int> colour(channels, 0);
    for (int root = 0; root < channels; ++root) {
        if (colour[root]) continue;
        std::vector<std::pair<int, size_t>> stack = {{root, 0}};
        colour[root] = 1;
        while (!stack.empty()) {
            auto& [c, i] = stack.back();
            if (i == edges[c].size()) {
                colour[c] = 2;
                stack.pop_back();
                continue;
            }
            const int next = edges[c][i++];
            if (colour[next] == 1) {   // the cycle: next ... c on the stack
                std::vector<std::string> cycle;
                bool in = false;
                for (const auto& [k, unused] : stack) {
                    in = in || k == next;
                    if (in) {
                        const int w = k % net.v, p = (k / net.v) % net.ports(), n = k / net.v / net.ports();
                        cycle.push_back(std::to_string(n) + "." + std::to_string(p) + "." + std::to_string(w));
                    }
                }
                return cycle;
            }
            if (colour[next] == 0) {
                colour[next] = 1;
                stack.push_back({next, 0});
            }
        }
    }
    return {};
}

}  // namespace

int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    auto context = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vnoc_smoke_top>(context.get());
#define NOC_NET(p, name, topo, nx, ny, routing, v, b, l)                                                          \
    Net {                                                                                                          \
        name, topo, nx, ny, routing, v, b, l, &top->p##_inj_valid, &top->p##_inj_flit, &top->p##_inj_accept,       \
            &top->p##_ej_valid, &top->p##_ej_flit, &top->p##_ej_ready, &top->p##_obs_fill, &top->p##_obs_credits,  \
            &top->p##_obs_wait, &top->p##_r_here, &top->p##_r_dest, &top->p##_r_in_port, &top->p##_r_in_vc,        \
            &top->p##_r_out_port, &top->p##_r_vc_mask, &top->p##_r_alt_port, &top->p##_r_alt_mask                 \
    }
    // The networks of noc_smoke_top.sv, with their parameters there.
    const Net nets[] = {
        NOC_NET(a, "ring4 one VC", 0, 4, 1, 0, 1, 2, 1),
        NOC_NET(b, "ring4 dateline", 0, 4, 1, 1, 2, 2, 1),
        NOC_NET(c, "mesh3x3 dimension order", 2, 3, 3, 0, 2, 3, 2),
        NOC_NET(d, "two-way ring6 dateline", 1, 6, 1, 1, 2, 3, 1),
        NOC_NET(e, "mesh3x3 adaptive", 2, 3, 3, 1, 2, 3, 1),
    };
#undef NOC_NET
    constexpr int kNets = int(sizeof nets / sizeof nets[0]);
    const auto adaptive = [](const Net& net) { return net.topo == 2 && net.routing == 1; };

    // 3. First, on paper: the channel dependency graph of each network, and its escape VCs'.
    bool escape_cyclic[kNets];
    for (int i = 0; i < kNets; ++i) {
        const Net& net = nets[i];
        const Dependencies deps = dependencies(*top, net);
        const auto verdict = [](const std::vector<std::string>& cycle) {
            std::string text;
            for (const auto& c : cycle) text += c + " -> ";
            return cycle.empty() ? std::string("acyclic") : "a cycle: " + text + cycle.front();
        };
        const auto cycle = find_cycle(net, deps.channels);
        const size_t edges = edge_count(deps.channels);
        const bool cyclic = !cycle.empty();
        std::printf("%s: channel dependency graph, %zu edges: %s\n", net.name, edges, verdict(cycle).c_str());
        check(edges > 0, std::string(net.name) + ": the channel dependency graph has no edge");
        // A one-VC ring's links wait on each other all the way round; a dateline or dimension
        // order breaks every such cycle (Dally and Seitz); adaptive VCs on a mesh close cycles
        // again (packets turning both ways round a square).
        const bool want = net.topo == 2 ? net.routing == 1 : net.routing == 0;
        check(cyclic == want, std::string(net.name) + ": channel dependency graph " +
                                  (cyclic ? "has a cycle" : "is acyclic") + ", want " + (want ? "a cycle" : "acyclic"));
        if (i == 0) check(cycle.size() == size_t(net.nodes()), std::string(net.name) + ": the cycle is not the ring's " +
                                                                  std::to_string(net.nodes()) + " links");
        // Duato: the escape VCs' extended graph decides. Without adaptive VCs it is the graph
        // itself; with them, it must be acyclic and every head must be offered an escape VC.
        const auto escape_cycle = find_cycle(net, deps.escape);
        const size_t escape_edges = edge_count(deps.escape);
        escape_cyclic[i] = !escape_cycle.empty();
        std::string vcs;
        for (int w = 0; w < net.v; ++w)
            if ((deps.escape_vcs >> w) & 1u) vcs += (vcs.empty() ? "" : ", ") + std::to_string(w);
        if (adaptive(net))
            std::printf("%s: escape VCs (%s): extended dependency graph, %zu edges: %s\n", net.name, vcs.c_str(),
                        escape_edges, verdict(escape_cycle).c_str());
        check(escape_edges > 0, std::string(net.name) + ": the escape VCs' extended graph has no edge (escape VCs: " +
                                    (vcs.empty() ? "none" : vcs) + ")");
        check(deps.escape_everywhere, std::string(net.name) + ": a head on some path is offered no escape VC");
        const bool want_escape = net.topo != 2 && net.routing == 0;
        check(escape_cyclic[i] == want_escape,
              std::string(net.name) + ": the escape VCs' extended graph " + (escape_cyclic[i] ? "has a cycle" : "is acyclic") +
                  ", want " + (want_escape ? "a cycle" : "acyclic"));
        check(adaptive(net) || deps.escape == deps.channels,
              std::string(net.name) + ": without adaptive VCs, the escape graph differs from the channel graph");
    }

    for (const Net& net : nets) {
        const int pairs = zero_load(*top, net);
        std::printf("%s: zero-load latency of %d pairs against h * (L + 2) + 2\n", net.name, pairs);
    }
    // How many heads took their route's second port, for a network with adaptive routing.
    const auto second_port = [&](const Net& net, const Outcome& o) {
        return adaptive(net) ? ", " + std::to_string(o.alt_grants) + " heads given a VC on their second port" : std::string();
    };

    // 2. Random traffic on the networks that cannot deadlock: packets of 1 to 3 flits to any other node.
    for (int i = 1; i < kNets; ++i) {
        const Net& net = nets[i];
        // Packet ids count per source, so that a packet's (source, id) is not reused while it
        // can still be on its way (8 bits: 256 packets of its source later).
        std::vector<int> next_id(net.nodes(), 0);
        const Outcome o = traffic(*top, net, 20000, 2000, 1 + i, [&](Bench& bench, uint64_t& s) {
            for (int n = 0; n < net.nodes(); ++n) {
                if (bench.queue[n].size() >= 2 || lcg(s) % 4 != 0) continue;
                int d = int(lcg(s) % uint32_t(net.nodes() - 1));
                if (d >= n) ++d;
                bench.queue[n].push_back({n, d, next_id[n]++ & 255, 1 + int(lcg(s) % 3), int(lcg(s) % uint32_t(net.entry_vcs()))});
            }
        });
        std::printf("%s: random traffic: %llu of %llu packets delivered%s, model in lockstep for %llu cycles%s\n",
                    net.name, (unsigned long long)o.delivered, (unsigned long long)o.sent, o.stalled ? ", stalled" : "",
                    (unsigned long long)o.lockstep_cycles, second_port(net, o).c_str());
        check(o.difference.empty(), std::string(net.name) + ": random traffic: RTL and model differ at " + o.difference);
        check(o.deadlock.empty(), std::string(net.name) + ": random traffic: " + o.deadlock);
        check(!o.stalled || !o.deadlock.empty(), std::string(net.name) + ": random traffic stopped with no deadlock found");
        check(!o.stalled && o.delivered == o.sent && o.sent > 1000,
              std::string(net.name) + ": random traffic: " + std::to_string(o.delivered) + " of " +
                  std::to_string(o.sent) + " packets delivered" + (o.stalled ? " (stalled)" : ""));
        check(!adaptive(net) || o.alt_grants > 0, std::string(net.name) + ": random traffic: no head took its second port");
    }

    // 4. Heavy load, without pause: every node sends three hops ahead on the one-way rings; on the
    // adaptive mesh (square), each node's packets go in turn to its transpose, (x, y) -> (y, x),
    // and to its transpose about the other diagonal, (x, y) -> (NX - 1 - y, NY - 1 - x), so that
    // packets turn both ways round every square (a node on one diagonal sends to the other only,
    // the middle node to the corners 0 and N - 1 in turn). A network whose escape graph has a
    // cycle must stop, one whose escape graph is acyclic must drain.
    struct Heavy {
        int net;
        const char* what;
    };
    for (const Heavy& heavy : {Heavy{0, "three hops ahead"}, Heavy{1, "three hops ahead"}, Heavy{4, "both transposes"}}) {
        const Net& net = nets[heavy.net];
        const bool mesh = net.topo == 2;
        const auto dest = [&](int n, int k) {
            if (!mesh) return (n + 3) % net.nodes();
            const int x = n % net.nx, y = n / net.nx;
            const int transpose = x * net.nx + y, other = (net.nx - 1 - y) + (net.ny - 1 - x) * net.nx;
            if (transpose == n && other == n) return k % 2 == 0 ? 0 : net.nodes() - 1;
            return (k % 2 == 0 && transpose != n) || other == n ? transpose : other;
        };
        std::vector<int> made(net.nodes(), 0);
        const Outcome o = traffic(*top, net, 20000, 1000, 7, [&](Bench& bench, uint64_t&) {
            for (int n = 0; n < net.nodes(); ++n)
                if (bench.queue[n].size() < 2) {
                    const int k = made[n]++;
                    bench.queue[n].push_back({n, dest(n, k), k & 255, 2, mesh ? k % net.entry_vcs() : 0});
                }
        });
        const bool expect_deadlock = escape_cyclic[heavy.net];
        std::printf("%s: %s: %s after %llu of %llu packets%s%s%s\n", net.name, heavy.what,
                    o.stalled ? "stopped delivering" : "drained", (unsigned long long)o.delivered,
                    (unsigned long long)o.sent, o.deadlock.empty() ? "" : "; ", o.deadlock.c_str(), second_port(net, o).c_str());
        const std::string where = std::string(net.name) + ": " + heavy.what;
        check(o.deadlock.empty() != expect_deadlock,
              where + ": the detector " + (o.deadlock.empty() ? std::string("found no deadlock") : o.deadlock) + ", want " +
                  (expect_deadlock ? "one (the escape graph has a cycle)" : "none"));
        // The ring's deadlock, worked by hand: each node's input from the ring (port 1, VC 0)
        // waits for the next node's, all the way round.
        if (expect_deadlock && !o.deadlock.empty() && net.topo == 0)
            for (int n = 0; n < net.nodes(); ++n) {
                const std::string step = std::to_string(n) + ".1.0 -> " + std::to_string((n + 1) % net.nodes()) + ".1.0";
                check(o.deadlock.find(step) != std::string::npos, where + ": the deadlock's cycle lacks " + step + ": " + o.deadlock);
            }
        check(o.difference.empty(), where + ": RTL and model differ at " + o.difference);
        check(!o.stalled || !o.deadlock.empty(), where + " stopped with no deadlock found");
        check(o.stalled == expect_deadlock,
              where + ": " + (o.stalled ? "stopped delivering" : "kept delivering") + " (" + std::to_string(o.delivered) +
                  " of " + std::to_string(o.sent) + " packets), want " +
                  (expect_deadlock ? "a deadlock (its escape graph has a cycle)" : "none (its escape graph is acyclic)"));
    }
    top->final();
    std::printf("%s: %d failed checks\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
