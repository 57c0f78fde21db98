// Closed-form sizing results for the credit loop (seeds 000 and 001). They are independent of
// the cycle model, so tests can hold the model and the RTL against them.
#pragma once

#include <algorithm>
#include <cmath>

#include "channel_config.h"
#include "link_config.h"

namespace creditloop {

// Credit round trip with batches of one: L forward, one cycle in the buffer before the pop,
// L back, one cycle for the counter to update (seed 001's step list), plus every synchroniser
// stage a clock-domain crossing adds to the return path (seed 000: "count them in the round
// trip").
constexpr int round_trip_cycles(int stages, int sync_stages = 0) { return 2 * stages + 2 + sync_stages; }

// Buffer needed for full rate with batches of K: a freed credit can wait K - 1 more slots
// for its batch (seed 000).
constexpr int full_rate_buffer(int round_trip, int batch) { return round_trip + batch - 1; }

// Credits a consumer draining at `rate` flits per cycle needs: r x RTT (seed 001, Little's law).
inline double rate_limited_buffer(double rate, int round_trip) { return rate * round_trip; }

// Upper bound on steady throughput: each credit is used at most once per round trip, and no
// faster than the consumer drains or the source offers.
inline double throughput_bound(int buffer_slots, int round_trip, double drain_rate = 1.0,
                               double offered_rate = 1.0) {
    return std::min({1.0, drain_rate, offered_rate,
                     static_cast<double>(buffer_slots) / round_trip});
}

// Seed 000's prediction with batching, before stranded credits: min(1, B / (RTT + K - 1)).
inline double batched_throughput_estimate(int buffer_slots, int round_trip, int batch) {
    return std::min(1.0, static_cast<double>(buffer_slots) / full_rate_buffer(round_trip, batch));
}

// The round trip of a whole configuration: a late free holds each credit FREE_DELAY cycles more.
// A credit usable in the cycle it arrives saves the cycle of its counter's register.
inline int round_trip_cycles(const LinkConfig& config) {
    return round_trip_cycles(config.stages, config.sync_stages) + config.free_delay - (config.credits_on_arrival ? 1 : 0);
}
inline int round_trip_cycles(const ChannelLinkConfig& config) {
    return round_trip_cycles(config.stages, config.sync_stages) + config.free_delay - (config.credits_on_arrival ? 1 : 0);
}
// The closed form's text for `config`: "2L + 2", "2L + 2 + SYNC + FREE_DELAY", "2L + 1 + SYNC" (on arrival).
inline std::string round_trip_form(const LinkConfig& config) {
    return std::string(config.credits_on_arrival ? "2L + 1" : "2L + 2") + (config.sync_stages ? " + SYNC" : "") +
           (config.free_delay ? " + FREE_DELAY" : "");
}

}  // namespace creditloop

namespace creditloop {

// Head-of-line blocking (seed 003), one consumer stalled and every source saturating with
// one-flit packets. Per-channel pools: the stalled channel spends its own pool and stops; each
// of the `others` keeps min(its share of the link, B_c / RTT).
inline double hol_per_channel_throughput(int others, int credits, int round_trip) {
    return std::min(1.0 / others, static_cast<double>(credits) / round_trip);
}
// One shared pool: the stalled channel's flits pile up until they hold every credit, and then
// no channel sends at all.
constexpr double hol_shared_pool_throughput() { return 0.0; }

// How the shared pool gets there: a fluid model of the credits still circulating, A (N x B at
// the start). The link sends min(1, A / RTT) flits a cycle, one in N of them the stalled
// channel's, whose credit never comes back: dA/dt = -min(1, A / RTT) / N. While A >= RTT it falls
// by 1/N a cycle, until t1 = N (A0 - RTT); then A = RTT e^(-(t - t1) / (N RTT)), a decay with the
// time constant N x RTT. Each other channel sends min(1, A / RTT) / N a cycle.
struct HolSharedTransient {
    int channels = 1, credits = 1, round_trip = 1;

    double time_constant() const { return static_cast<double>(channels) * round_trip; }
    double linear_until() const {
        return std::max(0.0, static_cast<double>(channels) * (static_cast<double>(channels) * credits - round_trip));
    }
    // One other channel's throughput at cycle t.
    double rate(double t) const {
        const double a0 = static_cast<double>(channels) * credits;
        const double t1 = linear_until();
        const double a = t < t1 ? a0 - t / channels : std::min(a0, static_cast<double>(round_trip)) * std::exp(-(t - t1) / time_constant());
        return std::min(1.0, a / round_trip) / channels;
    }
    // Its average over the cycles [from, to): the closed form's integral, piece by piece.
    double average(double from, double to) const {
        if (to <= from) return rate(from);
        const double t1 = linear_until(), tau = time_constant(), span = to - from;
        double area = 0.0;
        if (from < t1) {   // A >= RTT: the link is full, each channel sends 1/N
            const double end = std::min(to, t1);
            area += (end - from) / channels;
            from = end;
        }
        if (to > from) area += rate(from) * tau * (1.0 - std::exp(-(to - from) / tau));
        return area / span;
    }
    // The first cycle from which one other channel sends less than `tolerance` a cycle.
    double settled_by(double tolerance) const {
        const double t1 = linear_until();
        const double start = rate(t1);
        return start <= tolerance ? t1 : t1 + time_constant() * std::log(start / tolerance);
    }
};

}  // namespace creditloop
