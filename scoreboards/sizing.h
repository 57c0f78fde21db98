// Sizing: does the link run the credit loop the parameters promise (seeds 000, 001)?
//
// It measures the round trip the RTL actually built: send cycles wait in a FIFO, and when n
// credits reach the sender in cycle t the n oldest leave it, the youngest of them giving the
// sample (t + 1) - send_cycle (the credit can be spent again in cycle t + 1). The round trip is
// the shortest sample; for a batch of K the youngest flit of the batch waits for no one, so with
// a consumer draining every cycle it is exactly the closed form 2L + 2.
//
// Checks (Violation::check):
//   sizing.round_trip   a sample shorter than 2L + 2 (recorded in the cycle it completes: the
//                       loop is shorter than L says, or credits appeared); and, when the consumer
//                       drains every cycle, a shortest round trip longer than 2L + 2 (decided at
//                       finish(), recorded at the cycle that sample completed).
//   sizing.rate_bound   more than B sends in some window of 2L + 2 consecutive cycles: a credit
//                       was spent twice in one round trip, so credits were created. Recorded once
//                       per excursion over the bound.
//   With declared_full_rate:
//   sizing.buffer       B < measured round trip + K - 1 (seed 000's full-rate buffer). Decided at
//                       finish(); expected reads "B >= 12", the detail names the B needed.
//   sizing.throughput   the first cycle of the steady-state window in which the source offered
//                       and the sender had no credit. Recorded at finish() (at that cycle) so
//                       the detail can give the window's measured throughput against 1.000.
//
// Throughput is the seeds' steady-state measure: sends in [total_cycles/2, total_cycles) over the
// cycles observed there. predicted_throughput() is reported, never checked: stranded credits
// make the truth lower than min(1, B / (RTT + K - 1)) (seed 000: K = 8 gives 0.615, not 0.706).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "link_config.h"
#include "ring_queue.h"
#include "scoreboard.h"

namespace creditloop {

struct SizingSpec {
    LinkConfig config;
    uint64_t total_cycles = 0;        // the run's length; the window is its second half
    bool declared_full_rate = false;  // hold the link to one flit per cycle
    bool drain_every_cycle = true;    // the consumer drains every cycle: the loop must be 2L + 2
};

class SizingScoreboard final : public Scoreboard {
public:
    explicit SizingScoreboard(const SizingSpec& spec);

    const char* name() const override { return "sizing"; }
    void step(const Observation& obs) override;
    void finish() override;

    const SizingSpec& spec() const { return spec_; }
    int closed_form_round_trip() const { return round_trip_; }           // 2L + 2
    std::optional<uint64_t> measured_round_trip() const { return shortest_; }

    uint64_t window_start() const { return spec_.total_cycles / 2; }
    uint64_t window_sends() const { return window_sends_; }
    uint64_t window_cycles() const { return window_cycles_; }
    double measured_throughput() const;
    // min(1, B / (RTT + K - 1)) with the measured RTT (the closed form before any is measured).
    double predicted_throughput() const;
    // The first cycle in the window the sender ran dry with the source offering (full rate only).
    std::optional<uint64_t> first_stall_cycle() const { return first_stall_; }
    // Every credit's own round trip (send to usable again), averaged over the credits that came
    // back in the window: with a shared return path it is 2L + 2 + p / (1 - p) for batches of
    // one (the wait for a free slot is geometric), however the shortest stays 2L + 2.
    double mean_round_trip() const;
    uint64_t window_round_trip_samples() const { return window_round_trip_samples_; }
    // Cycles in the window that sent a credit message, per flit sent: the return path's cost
    // (seed 000: one message per flit returning each credit, 1 / K in batches of K).
    uint64_t window_messages() const { return window_messages_; }
    double messages_per_flit() const;
    // Sends in the last 2L + 2 cycles seen (since the last reset).
    uint64_t sends_in_last_round_trip() const { return sends_in_round_trip_; }

    // Send cycles kept waiting for their credit; past this (impossible on a legal link) the
    // oldest are dropped rather than growing without bound.
    static constexpr size_t kMaxOutstanding = size_t{1} << 16;

private:
    void credits_arrived(const Observation& obs);
    void add_window_sample(uint64_t sample);
    void round_trip_shorter(const Observation& obs, uint64_t sample, uint64_t send_cycle);
    void rate_bound_exceeded(const Observation& obs);
    std::string round_trip_text() const;

    SizingSpec spec_;
    int round_trip_;
    uint64_t buffer_slots_;

    // Rate bound: the send bits of the last round_trip_ cycles and their sum.
    std::vector<uint8_t> recent_sends_;
    size_t recent_index_ = 0;
    uint64_t sends_in_round_trip_ = 0;
    bool over_rate_ = false;

    // Round trip.
    RingQueue<uint64_t> send_cycles_;
    std::optional<uint64_t> shortest_;
    uint64_t shortest_cycle_ = 0;                 // the cycle that sample completed
    std::optional<uint64_t> shortest_recorded_;   // shortest sample reported as too short

    // Steady-state window.
    uint64_t window_sends_ = 0;
    uint64_t window_cycles_ = 0;
    uint64_t window_messages_ = 0;
    uint64_t window_round_trip_sum_ = 0;
    uint64_t window_round_trip_samples_ = 0;
    std::optional<uint64_t> first_stall_;

    uint64_t last_cycle_ = 0;
    bool finished_ = false;
    bool faulted_ = false;   // a fault was injected into the return path (docs/recovery.md)
};

}  // namespace creditloop
