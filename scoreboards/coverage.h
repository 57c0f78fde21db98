// Functional coverage computed from observations (docs/coverage.md): which states, transitions,
// round-trip classes, batch sizes, flushes, resets, faults and recovery events a run exercised.
// The bins are declared once, in coverage_bins.def.
//
//   Observation        -> LinkCoverage     -> LinkBinCounts     -+
//   ChannelObservation -> ChannelCoverage  -> ChannelBinCounts  -+-> CoverageTally (by name, across runs)
//
// A collector is fed like a scoreboard (step() once per cycle, after the scoreboards see the same
// observation) but checks nothing: it only counts. Its per-cycle cost is a few integer operations
// (a cycle's state and events make one number per quantity, whose count goes up by one; a credit
// is followed only when it crosses a place in the loop), because the run loop's speed is measured
// (make bench; docs/coverage.md gives the cost).
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "channel_config.h"
#include "channel_observation.h"
#include "link_config.h"
#include "observation.h"

namespace creditloop {

enum class LinkBin : uint8_t {
#define CREDITLOOP_LINK_BIN(id, name, meaning) id,
#include "coverage_bins.def"
};
enum class ChannelBin : uint8_t {
#define CREDITLOOP_CHANNEL_BIN(id, name, meaning) id,
#include "coverage_bins.def"
};

struct BinInfo {
    const char* name;      // "credits.zero"
    const char* meaning;   // one line
};

inline constexpr BinInfo kLinkBins[] = {
#define CREDITLOOP_LINK_BIN(id, name, meaning) {name, meaning},
#include "coverage_bins.def"
};
inline constexpr BinInfo kChannelBins[] = {
#define CREDITLOOP_CHANNEL_BIN(id, name, meaning) {name, meaning},
#include "coverage_bins.def"
};
constexpr size_t kLinkBinCount = std::size(kLinkBins);
constexpr size_t kChannelBinCount = std::size(kChannelBins);

// One run's counts, indexed by the bin's enumerator.
using LinkBinCounts = std::array<uint64_t, kLinkBinCount>;
using ChannelBinCounts = std::array<uint64_t, kChannelBinCount>;

// The bins of one credit link, fed with every cycle's Observation of the checked run.
class LinkCoverage {
public:
    explicit LinkCoverage(const LinkConfig& config);

    void step(const Observation& o);

    LinkBinCounts counts() const;
    uint64_t count(LinkBin bin) const { return counts()[static_cast<size_t>(bin)]; }

private:
    // The per-cycle work is kept to a few integer operations: the cycle's credits and occupancy,
    // each as a class (0, 1, mid, B - 1, B, past B) beside the class of the cycle before, and a
    // few event bits make one number per quantity, and that number's count goes up by one
    // (likewise a release's kind and a round trip's class). counts() turns these histograms into
    // bins when asked, once a run: the values are their classes, a transition a pair of classes.
    enum ValueClass : uint32_t { zero, one, mid, full_minus_one, full, past_b, no_previous };
    enum CreditBit : uint32_t { want_send_bit = 6, send_bit, arriving_bit, credit_key_bits };
    enum OccupancyBit : uint32_t { waited_sent_bit = 6, resend_bit, refused_bit, occupancy_key_bits };
    enum ReleaseBit : uint32_t { single, full_batch, partial, busy_wait, merged, release_bits };
    enum WaitBit : uint32_t { consumer_wait, batch_wait, slot_wait, update_lost, wait_bits };

    // A credit on its way round: the cycle it last crossed a place (for the freed slot, the cycle
    // it is freed) and the waits it has had so far (WaitBit).
    struct CreditWay {
        uint64_t since = 0;
        uint32_t waits = 0;
    };
    void add(LinkBin bin) { ++counts_[static_cast<size_t>(bin)]; }
    void previous_cycle(const Observation& o, uint32_t released_before);
    void round_trips(const Observation& o, uint32_t released_before, uint32_t entered_before);
    void restart_loop();

    LinkConfig config_;
    uint32_t buffer_slots_;
    uint32_t batch_;
    uint32_t total_mask_;                       // 2^TOTAL_BITS - 1
    uint64_t path_delay_;                       // L + SYNC: a message's time on the return path
    uint64_t free_delay_;                       // FREE_DELAY
    std::array<uint64_t, kLinkBinCount> counts_{};   // the rare bins, counted directly
    std::vector<uint8_t> value_class_;          // 0 .. B, past B -> ValueClass
    uint32_t previous_credits_ = no_previous;   // the cycle before's classes
    uint32_t previous_occupancy_ = no_previous;
    std::array<uint64_t, 1u << credit_key_bits> credit_keys_{};
    std::array<uint64_t, 1u << occupancy_key_bits> occupancy_keys_{};
    std::array<uint64_t, 1u << release_bits> releases_{};
    std::array<uint64_t, 1u << wait_bits> round_trips_{};

    // The cycle before, for the bins that need to know what it led to.
    bool have_previous_ = false;
    uint32_t previous_returned_ = 0;            // credits_returned
    uint32_t previous_waiting_ = 0;             // return_waiting
    bool previous_busy_ = false;
    bool previous_flush_input_ = false;
    bool previous_policy_flush_ = false;
    bool previous_idle_ = false;                // the hybrid's idle decision
    bool previous_low_ = false;                 // the hybrid's sender-low decision
    uint32_t free_run_ = 0;                     // free return cycles before this one, up to IDLE - 1
    uint32_t sent_total_ = 0;                   // the running total sent, modulo 2^TOTAL_BITS

    // Round trips: the credits that crossed each place since the last reset of both ends.
    bool loop_whole_ = true;                    // no one-sided reset or fault broke the loop since
    uint64_t arrived_ = 0, popped_ = 0, released_ = 0, entered_ = 0, arrivals_ = 0;
    std::vector<CreditWay> credits_;            // a ring, a power of two above B
    uint64_t ring_mask_ = 0;
};

// The bins of the multi-channel link, any pool, lane or channel, fed with every cycle's
// ChannelObservation of the checked run.
class ChannelCoverage {
public:
    explicit ChannelCoverage(const ChannelLinkConfig& config);

    void step(const ChannelObservation& o);

    ChannelBinCounts counts() const { return counts_; }
    uint64_t count(ChannelBin bin) const { return counts_[static_cast<size_t>(bin)]; }

private:
    void hit(ChannelBin bin) { ++counts_[static_cast<size_t>(bin)]; }

    ChannelLayout layout_;
    bool shared_pool_;
    bool shared_return_;
    bool recovery_;
    ChannelBinCounts counts_{};
    std::array<uint32_t, kMaxPools> previous_credits_{};
    uint32_t previous_grant_ = 0;
    std::array<int, kMaxChannels> data_pool_{};   // a header/data channel's data pool (-1: plain)
    uint32_t lane_pool_mask_[kMaxLanes] = {};     // 1 << the lane's pool
};

// The bins of many runs, added up by name: the regression's aggregate. Every declared bin is
// present (count 0 until hit), in declaration order, link bins first.
class CoverageTally {
public:
    CoverageTally();

    void add(const LinkBinCounts& counts);
    void add(const ChannelBinCounts& counts);
    // Add a count by name (a bin read back from a report); false for a name no bin has.
    bool add(const std::string& name, uint64_t count);
    void add(const CoverageTally& other);
    void add_runs(uint64_t runs) { runs_ += runs; }   // runs counted elsewhere (a report read back)

    struct Entry {
        std::string name;
        std::string meaning;
        uint64_t count = 0;
    };
    const std::vector<Entry>& entries() const { return entries_; }
    uint64_t count(const std::string& name) const;
    size_t total() const { return entries_.size(); }
    size_t hit() const;
    std::vector<std::string> unhit() const;   // names, in declaration order
    uint64_t runs() const { return runs_; }   // runs added (link and channel)

private:
    std::vector<Entry> entries_;
    std::map<std::string, size_t> index_;
    uint64_t runs_ = 0;
};

}  // namespace creditloop
