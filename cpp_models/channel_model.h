// The golden model of a credit link (docs/channels.md), cycle for cycle, and the project's only
// one: N channels share one forward link, one flit per cycle; each pool has its own counter,
// slots, return policy, batching and return; a round-robin arbiter grants the first channel
// (after the one granted last) whose head packet has every credit it needs. With one channel,
// one-flit packets and unit credits it is seeds 000 and 001's link (CreditLoopModel shows it in
// the single link's structs), every feature included: the policies, flush, reverse traffic,
// SYNC, FREE_DELAY, one-sided resets, faults and recovery; and credits usable on arrival (a
// mapped sender that bypasses the returning count to its ready).
//
// Each cycle is split in two (BookSim2's TimedModule): evaluate() computes this cycle's events
// from the state and the inputs, update() is the rising edge (and then the resets the inputs ask
// for, one end at a time). The pipelines are rings and the per-pool counts are kept as they
// move, so a cycle costs the same at L = 1 and at L = 1024.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "channel_config.h"
#include "channel_observation.h"

namespace creditloop {

class ChannelModel {
public:
    explicit ChannelModel(const ChannelLinkConfig& config);

    void reset();
    const ChannelObservation& evaluate(const ChannelInputs& in);
    void update();

    const ChannelLinkConfig& config() const { return config_; }
    const ChannelLayout& layout() const { return layout_; }

private:
    void reset_sender();     // rst_tx_n: the counters, the arbiter, the packet in progress, the forward link
    void reset_receiver();   // rst_rx_n: the lanes, the late frees, the return logic and the return paths
    bool policy_flushes(int pool, bool busy) const;   // the pool's timeout or hybrid flushes this cycle
    // evaluate() and update() for any layout, and compiled apart for one channel, one lane and one
    // pool (every single link's): the same code, whose loops and indices then fold to constants.
    template <bool kOne> const ChannelObservation& evaluate_shaped(const ChannelInputs& in);
    template <bool kOne> void update_shaped();

    struct Flit {
        bool valid = false;
        int lane = 0;
        uint32_t payload = 0;
    };
    struct Message {        // one return stage: a count for a pool (dedicated: one per pool),
        int pool = 0;       // or with recovery an update carrying the pool's running total
        uint32_t count = 0;
        bool valid = false;
        uint32_t total = 0;
    };
    // A register pipeline of fixed length as a ring: stage i lives at (head + i) % size, so a
    // shift is one step of the head onto the slot the last stage leaves, whatever the length.
    template <class T>
    class Pipeline {
    public:
        void assign(size_t stages, const T& value) {
            ring_.assign(stages, value);
            head_ = 0;
        }
        bool empty() const { return ring_.empty(); }
        const T& last() const { return ring_[head_ == 0 ? ring_.size() - 1 : head_ - 1]; }
        void shift(const T& in) {
            head_ = head_ == 0 ? ring_.size() - 1 : head_ - 1;
            ring_[head_] = in;
        }

    private:
        std::vector<T> ring_;
        size_t head_ = 0;
    };
    // A receiver lane: a FIFO of payloads in a ring as deep as its pool (an arrival at a full
    // lane overflows, so it never holds more).
    struct Lane {
        std::vector<uint32_t> slots;
        uint32_t head = 0, size = 0;
        uint32_t front() const { return slots[head]; }
        void pop() {
            head = head + 1 == slots.size() ? 0 : head + 1;
            --size;
        }
        void push(uint32_t payload) {
            uint32_t tail = head + size;
            if (tail >= slots.size()) tail -= static_cast<uint32_t>(slots.size());
            slots[tail] = payload;
            ++size;
        }
    };
    // What a channel's head packet costs, per pool (the data pool may be the header's own).
    // Trivial on purpose: evaluate() fills the entries of the channels that have a packet only.
    struct Need {
        int flits;
        int header_pool, data_pool;
        uint32_t header, data;
    };

    ChannelLinkConfig config_;
    ChannelLayout layout_;
    uint64_t cycle_ = 0;

    // Registers.
    std::array<uint32_t, kMaxPools> credits_{}, reserved_{}, pending_{}, waiting_{};
    // Recovery (docs/recovery.md), per pool: released total CR, last sent CS, quiet cycles, accepted R.
    std::array<uint32_t, kMaxPools> released_total_{}, sent_total_{}, quiet_{}, accepted_total_{};
    // The return policy, per pool: cycles the oldest pending credit has waited (timeout), cycles
    // its path has been free before this one, up to IDLE - 1 (hybrid).
    std::array<uint32_t, kMaxPools> batch_age_{}, free_run_{};
    std::array<uint32_t, kMaxPools> count_mask_{};   // a count's width in the RTL, $clog2(B_p + 1) bits
    uint32_t total_mask_ = 0;
    bool one_of_each_ = false;   // one channel, one lane, one pool
    Pipeline<Flit> fwd_;
    std::vector<Pipeline<Message>> ret_;             // per return path (one shared, or one per pool), L + SYNC stages
    std::vector<Lane> lanes_;
    std::vector<Pipeline<uint8_t>> freeing_;         // per lane, FREE_DELAY stages of pops
    // Kept as the pipelines move, per pool: flits on the forward link, credits counted on the
    // return paths (without recovery), pops waiting in the late-free lines.
    std::array<uint32_t, kMaxPools> fwd_count_{}, flight_count_{}, freeing_count_{};
    int last_grant_ = 0;                             // round-robin: the channel granted last
    int last_return_ = 0;                            // the pool the shared path served last
    // The packet in progress: its channel, flits still to send, the next flit's index, its tag.
    bool busy_ = false;
    int cur_channel_ = 0;
    int flits_left_ = 0;
    int next_flit_ = 0;
    uint32_t cur_tag_ = 0;

    // This cycle's decisions, committed by update().
    ChannelObservation obs_;
    std::array<uint32_t, kMaxPools> released_{}, freed_{}, pool_occupancy_{};
    std::array<uint32_t, kMaxPools> next_released_total_{}, arriving_total_{};
    uint32_t accepted_ = 0;                          // mask: pools whose arriving update is accepted
    Flit sent_;
    // Each channel's need this cycle; the grant is an index into it, not a copy (copying an entry
    // just written field by field loads it wider than it was stored: a stalled store forward).
    std::array<Need, kMaxChannels> need_{};
    int granted_ = -1;
    int returned_pool_ = -1;                         // shared return: the pool whose message goes this cycle
};

}  // namespace creditloop
