// One checked run of a credit link: seeded stimulus into the RTL and the golden model side by
// side, one Observation per cycle from each, every scoreboard fed each cycle, one result.
//
//   Stimulus -> LinkDut (verilated) -+-> Observation -> conservation, data, sizing, lockstep
//            -> CreditLoopModel -----+-> Observation -> lockstep (reference)
//
// Nothing downstream reaches back upstream, with one exception that is the protocol itself:
// the source learns whether its flit was taken (Stimulus::accepted) from the RTL's send (from
// its ready, for a sender with a FIFO of its own, whose taken flits are then the model's source).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "coverage.h"
#include "link_config.h"
#include "faults.h"
#include "link_dut.h"
#include "observation.h"
#include "run_loop.h"
#include "scoreboard.h"
#include "stimulus.h"

namespace creditloop {

struct RunSpec {
    LinkConfig config;
    StimulusSpec stimulus;
    uint64_t cycles = 6000;
    bool declared_full_rate = false;   // the sizing scoreboard holds the link to full rate
    FaultSpec faults;                  // credit messages dropped or corrupted (docs/recovery.md)
    uint32_t lockstep_signals = ~0u;   // the signals lockstep compares (differing_signals() bits)
    // A sender with a FIFO of its own (a link map's sender_fifo_latency): the source's flit is
    // taken when the RTL's ready says, and the model's source is that FIFO, each flit offered from
    // this many cycles after it was taken. -1: no FIFO, the model's source is the stimulus.
    int sender_fifo_latency = -1;
};

// Whether the link may return more than one credit in a cycle: batches, flushes, or credits that
// waited for a shared return path and leave together. A one-bit credit_return cannot take that.
inline bool returns_several_at_once(const RunSpec& spec) {
    // (With recovery an update can carry several, and a corrupted count is larger by design.)
    return spec.config.batch > 1 || spec.stimulus.flush_probability > 0 || spec.stimulus.reverse_load > 0 ||
           spec.config.recovery || spec.faults.any();
}

// Plug-in points around the loop (OpenTitan's SimCtrlExtension): register, do not edit the loop.
class RunHooks {
public:
    virtual ~RunHooks() = default;
    virtual void pre_run(const RunSpec&) {}
    virtual void on_cycle(const Observation& /*dut*/, const Observation& /*model*/) {}
    virtual void post_run() {}
};

struct RunResult : RunVerdict {
    uint64_t window_cycles = 0;
    uint64_t window_sends = 0;
    double throughput = 0.0;                // window_sends / window_cycles
    double model_throughput = 0.0;          // the golden model's, same window
    std::optional<uint64_t> measured_round_trip;
    double mean_round_trip = 0.0;           // every credit's round trip, averaged over the window
    uint64_t window_messages = 0;           // window cycles that sent a credit message
    double messages_per_flit = 0.0;         // window_messages / window_sends
    int closed_form_round_trip = 0;         // 2L + 2
    int full_rate_buffer = 0;               // RTT + K - 1
    double predicted_throughput = 0.0;      // min(1, drain, offered, B / (RTT + K - 1))
    // How the loop fared over the run (seed 004's leak report): the net credits lost (< 0) or
    // created (> 0) by the end, and the sends in the first and in the last round trip.
    int64_t credits_net_change = 0;
    uint64_t first_round_trip_sends = 0;
    uint64_t last_round_trip_sends = 0;
    uint64_t longest_starvation = 0;        // cycles (the watchdog's condition), whatever the bound
    int starvation_bound = 0;
    uint64_t refused_injected = 0;          // updates refused because a fault corrupted them
    LinkBinCounts coverage{};               // the functional coverage bins the run hit (coverage.h)
};

// Fewest cycles a run may have: the window (the second half) must cover ten round trips.
uint64_t minimum_cycles(const LinkConfig& config, const DrainSpec& drain);
// One line naming what is wrong with `spec`, or nothing.
std::optional<std::string> validate(const RunSpec& spec);

struct RunOptions : LoopOptions {
    std::vector<RunHooks*> hooks;
};

// One line for a violation: "cycle 7: conservation.total link.total_credits expected 4 got 3 (1 credit lost)"
std::string violation_line(const Violation& v);

// Run `spec` on `dut` (the RTL) checked against the golden model; with dut == nullptr the
// golden model's own observations are checked (no lockstep).
RunResult run_link(LinkDut* dut, const RunSpec& spec, const RunOptions& options = {});

}  // namespace creditloop
