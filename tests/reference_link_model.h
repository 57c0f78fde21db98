// An independent reference for the one-channel link, kept in the tests only: the loop of seeds
// 000 and 001 written out for one channel, cycle for cycle, with its own rings and counters. The
// product's one golden model is ChannelModel (CreditLoopModel is its one-channel view); the tests
// hold that model against this one over random features, and the scoreboard tests use this one
// as a stand-in for buggy RTL (model_probe.h alters its state).
//
// Each cycle is split in two (BookSim2's TimedModule): evaluate() computes this cycle's events
// from the current state and inputs and returns the cycle's Observation; update() is the rising
// edge that commits the next state. Order of the loop within evaluate():
//   arrive  = last forward stage          credits_arriving = last return stage
//   send    = want_send && credits > 0    pop = drain && occupancy > 0
//   flush = flush input, or the policy's (hybrid: idle or sender low; timeout)
//   pending + pop reaches K (or flush) -> released -> the return port, which sends everything
//   waiting in the first cycle the reverse traffic leaves the return slot free -> credits_returned
// and at the edge every register moves at once, exactly as the seeds' Python models update.
#pragma once

#include <cstdint>
#include <vector>

#include "link_config.h"
#include "link_inputs.h"
#include "observation.h"

namespace creditloop {

class ReferenceLinkModel {
public:
    explicit ReferenceLinkModel(const LinkConfig& config);

    void reset();                                        // state right after reset: credits = B
    const Observation& evaluate(const LinkInputs& in);   // this cycle's events
    void update();                                       // the rising edge

    const LinkConfig& config() const { return config_; }
    uint64_t cycle() const { return cycle_; }

private:
    friend struct ModelProbe;   // test seam: tests/ injects faults into the state through it

    void reset_sender();        // one end's reset (rst_tx_n), as update() applies it
    void reset_receiver();      // the other end's (rst_rx_n)

    struct FwdStage {
        bool valid;
        uint32_t payload;
    };

    LinkConfig config_;
    uint64_t cycle_ = 0;

    // State (registers).
    uint32_t credits_ = 0;
    std::vector<FwdStage> fwd_;      // ring: stage i lives at (fwd_head_ + i) % L
    std::vector<uint32_t> ret_;      // ring of L + SYNC credit counts, stage i at (ret_head_ + i) % size
    uint32_t ring_head_ = 0;
    uint32_t ret_head_ = 0;
    uint32_t fwd_flits_ = 0;         // valid stages in fwd_, kept incrementally
    uint32_t return_flight_ = 0;     // sum of ret_, kept incrementally
    std::vector<uint32_t> slots_;    // receiver buffer, FIFO ring
    uint32_t rx_head_ = 0;
    uint32_t occupancy_ = 0;         // flits held (the buffer's own count)
    std::vector<uint8_t> freeing_;   // late free: pops waiting FREE_DELAY cycles, ring
    uint32_t freeing_head_ = 0;
    uint32_t slots_freeing_ = 0;     // sum of freeing_
    uint32_t pending_ = 0;
    uint32_t waiting_ = 0;           // return port: released credits waiting for a free slot
    uint32_t batch_age_ = 0;         // cycles the oldest pending credit has waited (timeout)
    uint32_t free_run_ = 0;          // cycles without reverse traffic before this one, up to IDLE - 1
    bool policy_active_ = false;     // the hybrid or a timeout may flush (else only the input does)
    // Recovery (docs/recovery.md): running totals modulo 2^n. A return stage then holds an update,
    // kUpdateValid | total, instead of a count.
    static constexpr uint32_t kUpdateValid = 1u << 16;
    uint32_t total_mask_ = 0;        // 2^n - 1
    uint32_t count_mask_ = 0;        // a count's width in the RTL, $clog2(B + 1) bits
    uint32_t released_total_ = 0;    // CR, the receiver's
    uint32_t sent_total_ = 0;        // CS: the total the last update carried
    uint32_t quiet_ = 0;             // cycles since the last update, up to RESEND - 1
    uint32_t accepted_total_ = 0;    // R, the sender's

    uint32_t oldest_freeing() const;   // ring index of the pop freed this cycle
    bool policy_flushes(bool return_busy) const;   // the timeout or the hybrid flushes this cycle

    // This cycle's evaluation, committed by update().
    Observation obs_;
    bool freed_ = false;             // a slot is freed this cycle (the pop, or a late one)
    uint32_t released_ = 0;          // credits the batch lets go this cycle, into the port
    uint32_t last_stage_ = 0;
    uint32_t last_fwd_ = 0;          // this cycle's last forward stage (ring index), for update()
    uint32_t last_ret_stage_ = 0;
    uint32_t next_released_total_ = 0;   // CR + released
    bool accept_ = false;                // the arriving update is accepted; its total:
    uint32_t arriving_total_ = 0;
};

}  // namespace creditloop
