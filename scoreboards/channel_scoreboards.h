// The scoreboards of the multi-channel link (docs/channels.md), each fed one ChannelObservation
// per cycle, with the records and summary every scoreboard keeps (ViolationLog).
//
// Checks (Violation::check):
//   conservation.pool        a pool's total (credits + reserved + forward flits + its lanes'
//                            occupancy + slots freeing + pending + waiting + on the return path) differs from its
//                            B. Recorded when it first goes wrong and at every later change. When
//                            one pool is short and another over by the same count in the same
//                            cycle, the detail says a credit went to the wrong pool.
//   conservation.grant       a pool's counter above its B (once per excursion).
//   conservation.overflow    a flit arrived at a full lane.
//   conservation.one_sided_reset   one end was reset while credits of a pool were away from it:
//                            the credits it held are lost (receiver) or counted twice (sender).
//   data.lost / data.order / data.duplicate / data.corrupt
//                            per lane, the single link's data check (data_integrity.h): a flit
//                            of the lane vanished, overtook others, came twice, or was altered
//                            or never sent; and at the end, flits neither delivered nor in the link.
//   data.cross_channel       a flit of one channel was sent to, or popped from, another's lane.
//   fairness.ineligible      a grant to a channel that is not eligible (no packet, or not all
//                            of its credits).
//   fairness.idle            the link was free, a channel was eligible, and nothing was granted.
//   fairness.starved         an eligible channel waited more than N - 1 grants to others.
//   sizing.round_trip        a pool's credits went round faster than its round trip allows:
//                            its flits per cycle over the run's second half exceed B / (2L + 2).
//   conservation.injected_loss / conservation.injected_gain
//                            a pool's total changed at the edge after the environment dropped
//                            (corrupted) its arriving message (docs/recovery.md).
//   starvation               a pool's counter has held 0 credits, with nothing of it anywhere
//                            (reserved, forward, lanes, waiting, on the return path), for more
//                            than 2 (RTT + K_p - 1) cycles (+ T with recovery).
//   recovery.refused         a pool refused an update no injected corruption explains.
//   lockstep                 an RTL signal differs from the model's (expected = model).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "channel_config.h"
#include "channel_observation.h"
#include "payload_ledger.h"
#include "scoreboard.h"
#include "starvation.h"

namespace creditloop {

class ChannelScoreboard : public ViolationLog {
public:
    virtual void step(const ChannelObservation& obs) = 0;
    std::optional<uint64_t> first_violation_cycle() const {
        return violations().empty() ? std::nullopt : std::optional<uint64_t>(violations().front().cycle);
    }
};

// Names for reports: "REQ", "P.hdr", "P.data", "pool 0 (shared)".
std::string lane_name(const ChannelLinkConfig& config, const ChannelLayout& layout, int lane);
std::string pool_name(const ChannelLinkConfig& config, const ChannelLayout& layout, int pool);
std::string channel_signal_name(const ChannelLinkConfig& config, const ChannelLayout& layout,
                                ChannelSignal signal, int entry);

class ChannelConservation final : public ChannelScoreboard {
public:
    explicit ChannelConservation(const ChannelLinkConfig& config);
    const char* name() const override { return "conservation"; }
    void step(const ChannelObservation& obs) override;

private:
    void one_sided_reset(const ChannelObservation& obs);

    ChannelLinkConfig config_;
    ChannelLayout layout_;
    std::array<uint64_t, kMaxPools> last_total_{};
    std::array<bool, kMaxPools> over_grant_{};
    uint32_t dropped_before_ = 0, corrupted_before_ = 0;   // the previous cycle's injected faults
    uint64_t fault_cycle_ = 0;
};

class ChannelStarvation final : public ChannelScoreboard {
public:
    explicit ChannelStarvation(const ChannelLinkConfig& config);
    const char* name() const override { return "starvation"; }
    void step(const ChannelObservation& obs) override;
    uint64_t longest_starvation() const;
    uint64_t refused_injected() const { return refused_injected_; }

private:
    ChannelLinkConfig config_;
    ChannelLayout layout_;
    std::array<StarvationWatch, kMaxPools> watch_;
    MessagesInFlight messages_;
    uint64_t refused_injected_ = 0;
};

class ChannelData final : public ChannelScoreboard {
public:
    explicit ChannelData(const ChannelLinkConfig& config);
    const char* name() const override { return "data"; }
    void step(const ChannelObservation& obs) override;
    void finish() override;
    uint64_t flits_checked() const { return checked_; }

    // The channel a payload names: the stimulus makes bits 27:24 of every tag the channel XOR
    // bits 31:28 (random), so every payload bit toggles and each flit still names its channel.
    static int payload_channel(uint32_t payload) { return static_cast<int>(((payload >> 28) ^ (payload >> 24)) & 0xfu); }

private:
    ChannelLinkConfig config_;
    ChannelLayout layout_;
    std::vector<PayloadLedger> ledgers_;        // per lane: the single link's data check
    std::vector<std::string> pop_signals_;      // per lane: its pop_payload's name
    std::array<uint64_t, kMaxLanes> fwd_{};     // per lane: flits on the forward path, from the sends and arrivals seen
    std::array<uint64_t, kMaxLanes> after_{};   // per lane: flits in the link after the last cycle's edge
    uint64_t checked_ = 0;
    uint64_t last_cycle_ = 0;
    bool seen_any_ = false;
};

class ChannelFairness final : public ChannelScoreboard {
public:
    explicit ChannelFairness(const ChannelLinkConfig& config);
    const char* name() const override { return "fairness"; }
    void step(const ChannelObservation& obs) override;
    int longest_wait() const { return longest_wait_; }   // grants to others an eligible channel waited

private:
    ChannelLinkConfig config_;
    int channels_;
    std::array<int, kMaxChannels> waited_{};
    int longest_wait_ = 0;
};

// Per channel and pool, over the run's second half (the seeds' steady-state window).
class ChannelSizing final : public ChannelScoreboard {
public:
    ChannelSizing(const ChannelLinkConfig& config, uint64_t window_start);
    const char* name() const override { return "sizing"; }
    void step(const ChannelObservation& obs) override;
    void finish() override;

    uint64_t window_cycles() const { return window_cycles_; }
    double channel_throughput(int channel) const;   // flits per cycle
    double pool_throughput(int pool) const;
    double link_share(int channel) const;           // of the flits sent in the window
    // Little's law: credits away from the sender / flits per cycle (0 if nothing was sent).
    double measured_round_trip(int pool) const;

private:
    ChannelLinkConfig config_;
    ChannelLayout layout_;
    uint64_t window_start_;
    uint64_t window_cycles_ = 0;
    uint64_t window_flits_ = 0;
    std::array<uint64_t, kMaxChannels> channel_flits_{};
    std::array<uint64_t, kMaxPools> pool_flits_{}, credits_away_{};
};

class ChannelLockstep final : public ChannelScoreboard {
public:
    explicit ChannelLockstep(const ChannelLinkConfig& config);
    const char* name() const override { return "lockstep"; }
    void expect(const ChannelObservation& model) { model_ = model; }
    void step(const ChannelObservation& rtl) override;
    std::optional<uint64_t> first_divergence_cycle() const { return first_; }

private:
    ChannelLinkConfig config_;
    ChannelLayout layout_;
    ChannelObservation model_;
    std::vector<bool> reported_;
    std::optional<uint64_t> first_;
};

}  // namespace creditloop
