#include "noc_run.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <map>
#include <random>

#include "noc_forms.h"

namespace creditloop {

namespace {

struct Packet {
    int src, dest, id, vc;
    uint64_t made;
    bool in_window;
};

bool window_packet(const NocRunSpec& spec, uint64_t now) { return now >= spec.warmup && now < spec.warmup + spec.measure; }

// What node n's source offers: its queue of packets, each sent flit by flit on its VC.
struct Source {
    std::deque<Packet> queue;
    int next_flit = 0;
    int next_id = 0;
};

struct Flight {   // a packet taken by the network and not yet wholly delivered
    uint64_t made = 0, taken = 0;
    int dest = 0;
    int next_seq = 0;
    bool in_window = false;
};

class NetworkRun {
public:
    NetworkRun(NocDut* dut, const NocRunSpec& spec)
        : dut_(dut), spec_(spec), c_(spec.config), model_(spec.config), detector_(c_.nodes(), c_.l),
          rng_(spec.traffic.seed), sources_(size_t(c_.nodes())), history_(size_t(c_.l) + 1) {
        for (int s = 0; s < c_.nodes(); ++s) dests_.push_back(pattern_destinations(c_, spec.traffic, s));
        entry_vcs_ = c_.topo != 2 && c_.routing == 1 ? c_.v / 2 : c_.v;
        use_.assign(size_t(c_.nodes()) * kNocMaxPorts, 0.0);
    }

    NocRunResult run() {
        if (dut_) dut_->reset();
        const uint64_t window_end = spec_.warmup + spec_.measure;
        uint64_t now = 0;
        for (; now < window_end + spec_.drain; ++now) {
            if (now < window_end) make_packets(now);
            if (!cycle(now)) break;
            if (now >= window_end && window_left_ == 0) {
                r_.drained = true;
                break;
            }
        }
        r_.cycles = now;
        const double nodes = double(c_.nodes()), window = double(spec_.measure);
        r_.offered = double(made_flits_) / nodes / window;
        r_.accepted = double(window_flits_) / nodes / window;
        std::sort(latencies_.begin(), latencies_.end());
        r_.latency_count = latencies_.size();
        if (!latencies_.empty()) {
            double sum = 0;
            for (uint64_t l : latencies_) sum += double(l);
            r_.latency_avg = sum / double(latencies_.size());
            r_.latency_p99 = double(latencies_[std::min(latencies_.size() - 1, size_t(std::ceil(0.99 * double(latencies_.size()))) - 1)]);
            r_.latency_min = latencies_.front();
            r_.latency_max = latencies_.back();
        }
        for (int n = 0; n < c_.nodes(); ++n)
            for (int p = 1; p < c_.ports(); ++p)
                if (c_.next(n, p) >= 0)
                    r_.credit_use.push_back({n, p, use_[size_t(n * kNocMaxPorts + p)] / window / (c_.v * c_.b)});
        if (dut_) r_.assertion_cycle = dut_->first_assertion_cycle();
        r_.second_port_grants = model_.alt_grants();
        return r_;
    }

private:
    void make_packets(uint64_t now) {
        if (!spec_.script.empty()) {
            for (; scripted_ < spec_.script.size() && spec_.script[scripted_].cycle == now; ++scripted_) {
                const auto& p = spec_.script[scripted_];
                sources_[size_t(p.src)].queue.push_back({p.src, p.dest, 0, 0, now, window_packet(spec_, now)});
                ++r_.packets_made;
                if (window_packet(spec_, now)) {
                    made_flits_ += uint64_t(spec_.traffic.flits);
                    ++window_left_;
                }
            }
            return;
        }
        std::uniform_real_distribution<double> u(0.0, 1.0);
        const double p = spec_.traffic.rate / spec_.traffic.flits;
        for (int s = 0; s < c_.nodes(); ++s) {
            const auto& dests = dests_[size_t(s)];
            // One draw per node per cycle whether or not it sends: the stream is the same for every
            // rate's run of a seed up to the threshold.
            const double draw = u(rng_);
            const uint32_t pick = uint32_t(rng_());
            if (dests.empty() || draw >= p) continue;
            const bool in_window = now >= spec_.warmup;
            sources_[size_t(s)].queue.push_back({s, dests[pick % dests.size()], 0, int(pick / 7 % uint32_t(entry_vcs_)), now, in_window});
            ++r_.packets_made;
            if (in_window) {
                made_flits_ += uint64_t(spec_.traffic.flits);
                ++window_left_;
            }
        }
    }

    void fail(uint64_t now, const std::string& check, const std::string& where, const std::string& detail) {
        if (!r_.violation) r_.violation = NocViolation{now, check, where, detail};
    }
    static std::string vc_place(int n, int slot) {
        return "node " + std::to_string(n) + " port " + std::to_string(slot / kNocMaxVcs) + " VC " + std::to_string(slot % kNocMaxVcs);
    }

    // One cycle; false when the run stops (a violation, or a deadlock when it is to stop there).
    bool cycle(uint64_t now) {
        const int nodes = c_.nodes(), v = c_.v, ports = c_.ports();
        NocPins pins;
        NocModel::Inputs in;
        for (int n = 0; n < nodes; ++n) {
            Source& src = sources_[size_t(n)];
            bool offer = !src.queue.empty();
            if (offer && src.next_flit == 0) {
                // A packet's id: the next one of its source not in flight (ids are 8 bits).
                Packet& p = src.queue.front();
                p.id = src.next_id;
                offer = !flights_.count({n, p.id});
            }
            if (offer) {
                const Packet& p = src.queue.front();
                const int f = src.next_flit;
                pins.inj_flit[size_t(n)] = NocWord::pack(f == 0, f == spec_.traffic.flits - 1, p.vc, p.dest, n, p.id, f);
                pins.inj_valid = uint16_t(pins.inj_valid | 1u << n);
            }
            in.inj_valid.push_back(offer);
            in.inj_flit.push_back(offer ? NocFlit{src.next_flit == 0, src.next_flit == spec_.traffic.flits - 1,
                                                  src.queue.front().vc, src.queue.front().dest, n, src.queue.front().id,
                                                  src.next_flit}
                                        : NocFlit{});
            in.ej_ready.push_back(true);
        }
        pins.ej_ready = uint16_t((1u << nodes) - 1);

        // The model's state at the start of the cycle, then its step.
        std::vector<std::vector<int>> waits(size_t(nodes) * kNocSlots);
        if (dut_) {
            dut_->step(pins);
            scoreboards(now, pins);   // the RTL's own ports first: the most specific finding
            lockstep_state(now, pins);
        } else {
            for (int n = 0; n < nodes; ++n)
                for (int q = 0; q < ports * v; ++q) {
                    pins.fill[size_t(n)][size_t(q / v * kNocMaxVcs + q % v)] = uint8_t(model_.fill(n, q));
                    pins.credits[size_t(n)][size_t(q / v * kNocMaxVcs + q % v)] = uint8_t(model_.credits(n, q));
                }
        }
        const auto o = model_.step(in);
        if (!dut_) model_pins(o, pins);
        if (dut_) lockstep_outputs(now, pins, o);
        ++r_.lockstep_cycles;

        // The wait-for graph from what the RTL shows (the model's under a model-only run).
        for (int n = 0; n < nodes; ++n)
            for (int s = 0; s < ports * kNocMaxVcs; ++s)
                for (uint32_t m = pins.wait[size_t(n)][size_t(s)]; m; m &= m - 1) {
                    const int slot = __builtin_ctz(m);
                    const int next = c_.next(n, slot / kNocMaxVcs);
                    if (next >= 0) waits[size_t(n * kNocSlots + s)].push_back(next * kNocSlots + slot);
                }
        if (const NocDeadlock* d = detector_.observe(waits, now)) {
            r_.deadlock = *d;
            if (!spec_.expect_deadlock) fail(now, "deadlock", "buffers " + d->line().substr(d->line().find(": ") + 2), "a cycle of buffers waiting on each other");
            if (spec_.stop_at_deadlock) return false;
        }

        account(now, pins);
        return !r_.violation;
    }

    void model_pins(const NocModel::Outputs& o, NocPins& pins) {
        for (int n = 0; n < c_.nodes(); ++n) {
            if (o.inj_accept[size_t(n)]) pins.inj_accept = uint16_t(pins.inj_accept | 1u << n);
            if (o.ej_valid[size_t(n)]) {
                pins.ej_valid = uint16_t(pins.ej_valid | 1u << n);
                const NocFlit& f = o.ej_flit[size_t(n)];
                pins.ej_flit[size_t(n)] = NocWord::pack(f.head, f.tail, f.vc, f.dest, f.src, f.id, f.seq);
            }
            for (int q = 0; q < c_.ports() * c_.v; ++q) {
                const int slot = q / c_.v * kNocMaxVcs + q % c_.v;
                for (int b : model_.waits()[size_t(n * c_.ports() * c_.v + q)]) {
                    const int bq = b % (c_.ports() * c_.v);
                    pins.wait[size_t(n)][size_t(slot)] |= 1u << (bq / c_.v * kNocMaxVcs + bq % c_.v);
                }
            }
        }
    }

    // The routers' state at the start of the cycle: every VC's flits and credits.
    void lockstep_state(uint64_t now, const NocPins& pins) {
        for (int n = 0; n < c_.nodes() && !r_.violation; ++n)
            for (int q = 0; q < c_.ports() * c_.v && !r_.violation; ++q) {
                const int slot = q / c_.v * kNocMaxVcs + q % c_.v;
                const int fill = pins.fill[size_t(n)][size_t(slot)], credits = pins.credits[size_t(n)][size_t(slot)];
                if (fill != model_.fill(n, q))
                    fail(now, "lockstep", vc_place(n, slot), "holds " + std::to_string(fill) + " flits, model " + std::to_string(model_.fill(n, q)));
                else if (credits != model_.credits(n, q))
                    fail(now, "lockstep", vc_place(n, slot), std::to_string(credits) + " credits, model " + std::to_string(model_.credits(n, q)));
            }
    }

    void lockstep_outputs(uint64_t now, const NocPins& pins, const NocModel::Outputs& o) {
        const int q_count = c_.ports() * c_.v;
        for (int n = 0; n < c_.nodes() && !r_.violation; ++n) {
            const bool taken = (pins.inj_accept >> n) & 1u, ej = (pins.ej_valid >> n) & 1u;
            const uint32_t w = pins.ej_flit[size_t(n)];
            const NocFlit rtl{NocWord::head(w), NocWord::tail(w), NocWord::vc(w), NocWord::dest(w), NocWord::src(w), NocWord::id(w), NocWord::seq(w)};
            if (o.inj_accept[size_t(n)] != taken)
                fail(now, "lockstep", "node " + std::to_string(n) + " injection", std::string("taken ") + (taken ? "1" : "0") + ", model " + (o.inj_accept[size_t(n)] ? "1" : "0"));
            else if (o.ej_valid[size_t(n)] != ej || (ej && !(o.ej_flit[size_t(n)] == rtl)))
                fail(now, "lockstep", "node " + std::to_string(n) + " delivery",
                     "RTL " + (ej ? "flit " + std::to_string(rtl.seq) + " of packet " + std::to_string(rtl.id) + " of node " + std::to_string(rtl.src) : std::string("none")) +
                         ", model " + (o.ej_valid[size_t(n)] ? "flit " + std::to_string(o.ej_flit[size_t(n)].seq) + " of packet " + std::to_string(o.ej_flit[size_t(n)].id) + " of node " + std::to_string(o.ej_flit[size_t(n)].src) : std::string("none")));
            for (int q = 0; q < q_count && !r_.violation; ++q) {
                const int slot = q / c_.v * kNocMaxVcs + q % c_.v;
                uint32_t want = 0;
                for (int b : model_.waits()[size_t(n * q_count + q)]) {
                    const int bq = b % q_count;
                    want |= 1u << (bq / c_.v * kNocMaxVcs + bq % c_.v);
                }
                if (want != pins.wait[size_t(n)][size_t(slot)])
                    fail(now, "lockstep", vc_place(n, slot), "waits for VC set " + std::to_string(pins.wait[size_t(n)][size_t(slot)]) + ", model " + std::to_string(want));
            }
        }
    }

    // Per link and VC, on the RTL's own ports: conservation, overflow, send at zero.
    void scoreboards(uint64_t now, const NocPins& pins) {
        // history_[k]: the pins of cycle now - 1 - k (sent and freed).
        for (int n = 0; n < c_.nodes() && !r_.violation; ++n)
            for (int s = 0; s < c_.ports() * kNocMaxVcs && !r_.violation; ++s) {
                if (s % kNocMaxVcs >= c_.v) continue;
                if (pins.fill[size_t(n)][size_t(s)] > c_.b)
                    fail(now, "overflow", vc_place(n, s), "holds " + std::to_string(pins.fill[size_t(n)][size_t(s)]) + " flits, B = " + std::to_string(c_.b));
                const int port = s / kNocMaxVcs;
                const int m = port == 0 ? -1 : c_.next(n, port);
                if (m < 0) continue;
                const uint32_t bit = 1u << s;
                if ((pins.sent[size_t(n)] & bit) && pins.credits[size_t(n)][size_t(s)] == 0)
                    fail(now, "send at zero", vc_place(n, s), "a flit left with 0 credits");
                // Credits at the sender + flits sent in the last L cycles (on the link) + flits in
                // the receiver's VC + slots freed in the last L cycles (their credits on the way
                // back) == B. A flit sent in cycle c is in the receiver's VC from c + L + 1; a
                // credit freed in c is counted at the sender from c + L + 1.
                int on_link = 0, returning = 0;
                for (int k = 0; k < c_.l && k < int(filled_); ++k) {
                    on_link += (history_[size_t(k)].sent[size_t(n)] & bit) ? 1 : 0;
                    returning += (history_[size_t(k)].freed[size_t(m)] & bit) ? 1 : 0;
                }
                const int total = pins.credits[size_t(n)][size_t(s)] + on_link + pins.fill[size_t(m)][size_t(s)] + returning;
                if (total != c_.b)
                    fail(now, "conservation", "link " + std::to_string(n) + " -> " + std::to_string(m) + " VC " + std::to_string(s % kNocMaxVcs),
                         "credits " + std::to_string(pins.credits[size_t(n)][size_t(s)]) + " + on the link " + std::to_string(on_link) +
                             " + in the buffer " + std::to_string(pins.fill[size_t(m)][size_t(s)]) + " + returning " + std::to_string(returning) +
                             " = " + std::to_string(total) + ", want B = " + std::to_string(c_.b));
            }
        std::rotate(history_.rbegin(), history_.rbegin() + 1, history_.rend());
        history_[0].sent = pins.sent;
        history_[0].freed = pins.freed;
        filled_ = std::min(filled_ + 1, history_.size());
    }

    // Sources advance, deliveries are checked and counted, credit use is summed.
    void account(uint64_t now, const NocPins& pins) {
        const bool in_window = now >= spec_.warmup && now < spec_.warmup + spec_.measure;
        for (int n = 0; n < c_.nodes(); ++n) {
            Source& src = sources_[size_t(n)];
            if ((pins.inj_accept >> n) & 1u) {
                const Packet& p = src.queue.front();
                if (src.next_flit == 0) {
                    flights_[{n, p.id}] = Flight{p.made, now, p.dest, 0, p.in_window};
                    ++r_.packets_taken;
                    src.next_id = (src.next_id + 1) & 255;
                }
                if (++src.next_flit == spec_.traffic.flits) {
                    src.next_flit = 0;
                    src.queue.pop_front();
                }
            }
            if ((pins.ej_valid >> n) & 1u) {
                const uint32_t w = pins.ej_flit[size_t(n)];
                const auto it = flights_.find({NocWord::src(w), NocWord::id(w)});
                const std::string what = "packet " + std::to_string(NocWord::id(w)) + " of node " + std::to_string(NocWord::src(w));
                if (it == flights_.end()) {
                    fail(now, "delivery", "node " + std::to_string(n), what + " delivered but not in flight (twice, or never sent)");
                    continue;
                }
                Flight& f = it->second;
                if (f.dest != n) fail(now, "delivery", "node " + std::to_string(n), what + " for node " + std::to_string(f.dest) + " delivered here");
                if (NocWord::seq(w) != f.next_seq || NocWord::head(w) != (f.next_seq == 0))
                    fail(now, "delivery", "node " + std::to_string(n), what + ": flit " + std::to_string(NocWord::seq(w)) + " arrived, want flit " + std::to_string(f.next_seq));
                ++f.next_seq;
                if (in_window) ++window_flits_;
                if (NocWord::tail(w)) {
                    if (f.next_seq != spec_.traffic.flits) fail(now, "delivery", "node " + std::to_string(n), what + ": tail after " + std::to_string(f.next_seq) + " flits");
                    ++r_.packets_delivered;
                    if (spec_.keep_packets) r_.packets.push_back({NocWord::src(w), n, f.made, f.taken, now});
                    if (f.in_window) {
                        latencies_.push_back(now - f.made);
                        --window_left_;
                    }
                    flights_.erase(it);
                }
            }
        }
        if (in_window)
            for (int n = 0; n < c_.nodes(); ++n)
                for (int p = 1; p < c_.ports(); ++p)
                    for (int w = 0; w < c_.v; ++w) use_[size_t(n * kNocMaxPorts + p)] += c_.b - pins.credits[size_t(n)][size_t(p * kNocMaxVcs + w)];
    }

    struct Moves {
        std::array<uint32_t, kNocMaxNodes> sent{}, freed{};
    };

    NocDut* dut_;
    const NocRunSpec& spec_;
    NocConfig c_;
    NocModel model_;
    DeadlockDetector detector_;
    std::mt19937_64 rng_;
    std::vector<Source> sources_;
    std::vector<std::vector<int>> dests_;
    int entry_vcs_ = 1;
    std::map<std::pair<int, int>, Flight> flights_;
    std::vector<Moves> history_;
    size_t filled_ = 0;
    size_t scripted_ = 0;
    std::vector<double> use_;
    std::vector<uint64_t> latencies_;
    uint64_t made_flits_ = 0, window_flits_ = 0, window_left_ = 0;
    NocRunResult r_;
};

}  // namespace

NocRunResult run_network(NocDut* dut, const NocRunSpec& spec) { return NetworkRun(dut, spec).run(); }

NocZeroLoad zero_load_check(NocDut* dut, const NocConfig& c, int flits) {
    NocRunSpec spec;
    spec.config = c;
    spec.traffic.flits = flits;
    spec.keep_packets = true;
    spec.warmup = 0;
    // One packet at a time: the next is made once the last has surely left (its latency plus a margin).
    uint64_t at = 0;
    for (int s = 0; s < c.nodes(); ++s)
        for (int d = 0; d < c.nodes(); ++d)
            if (s != d) {
                spec.script.push_back({at, s, d});
                at += uint64_t(zero_load_latency(c, noc_hops(c, s, d), flits)) + uint64_t(2 * c.l + 8 + flits);
            }
    spec.measure = at + 1;
    spec.drain = 1000;
    const NocRunResult r = run_network(dut, spec);
    NocZeroLoad z;
    z.pairs = int(spec.script.size());
    z.violation = r.violation;
    if (!z.violation && r.packets.size() != spec.script.size())
        z.violation = NocViolation{r.cycles, "zero-load latency", "the network", std::to_string(r.packets.size()) + " of " + std::to_string(spec.script.size()) + " packets delivered"};
    for (const auto& p : r.packets) {
        if (z.violation) break;
        const long long want = zero_load_latency(c, noc_hops(c, p.src, p.dest), flits);
        if ((long long)(p.delivered - p.taken) != want || p.taken != p.made)
            z.violation = NocViolation{p.delivered, "zero-load latency", std::to_string(p.src) + " -> " + std::to_string(p.dest),
                                       "made at " + std::to_string(p.made) + ", taken at " + std::to_string(p.taken) + ", delivered at " + std::to_string(p.delivered) +
                                           ": " + std::to_string(p.delivered - p.taken) + " cycles, want h (L + 2) + 2 + s(F) = " + std::to_string(want)};
    }
    return z;
}

}  // namespace creditloop
