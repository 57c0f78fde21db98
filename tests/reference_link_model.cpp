#include "reference_link_model.h"

#include <algorithm>
#include <cstring>

namespace creditloop {

ReferenceLinkModel::ReferenceLinkModel(const LinkConfig& config)
    : config_(config),
      fwd_(static_cast<size_t>(config.stages)),
      ret_(static_cast<size_t>(config.stages + config.sync_stages)),
      slots_(static_cast<size_t>(config.buffer_slots)),
      freeing_(static_cast<size_t>(config.free_delay)),
      policy_active_(config.policy == ReturnPolicy::hybrid || config.flush_timeout != 0),
      total_mask_(config.recovery ? (1u << config.total_bits) - 1u : 0u),
      count_mask_((1u << signal_bits(WidthRule::count, config)) - 1u) {
    reset();
}

void ReferenceLinkModel::reset() {
    cycle_ = 0;
    reset_sender();
    reset_receiver();
    ring_head_ = 0;
    ret_head_ = 0;
    for (auto& slot : slots_) slot = 0;
    freeing_head_ = 0;
    std::memset(static_cast<void*>(&obs_), 0, sizeof obs_);   // padding too: lockstep compares the bytes first
    last_stage_ = static_cast<uint32_t>(config_.stages - 1);
    last_ret_stage_ = static_cast<uint32_t>(ret_.size() - 1);
}

// rst_tx_n: the credit counter back to B, the forward path empty.
void ReferenceLinkModel::reset_sender() {
    credits_ = static_cast<uint32_t>(config_.buffer_slots);
    for (auto& stage : fwd_) stage = FwdStage{false, 0};
    fwd_flits_ = 0;
    accepted_total_ = 0;
}

// rst_rx_n: the buffer, the return logic and the return path empty.
void ReferenceLinkModel::reset_receiver() {
    for (auto& count : ret_) count = 0;
    return_flight_ = 0;
    rx_head_ = 0;
    occupancy_ = 0;
    for (auto& f : freeing_) f = 0;
    slots_freeing_ = 0;
    pending_ = 0;
    waiting_ = 0;
    batch_age_ = 0;
    free_run_ = 0;
    released_total_ = 0;
    sent_total_ = 0;
    quiet_ = 0;
}

const Observation& ReferenceLinkModel::evaluate(const LinkInputs& in) {
    const uint32_t stages = static_cast<uint32_t>(config_.stages);
    const uint32_t slots = static_cast<uint32_t>(config_.buffer_slots);
    uint32_t last = ring_head_ + last_stage_;
    if (last >= stages) last -= stages;
    last_fwd_ = last;   // update() commits with the same stage

    Observation& o = obs_;
    o.cycle = cycle_;
    echo_inputs(in, o);

    o.credits = credits_;
    o.can_send = credits_ != 0;
    o.send = in.want_send && o.can_send;
    o.send_payload = o.send ? in.payload : 0;
    uint32_t last_ret = ret_head_ + last_ret_stage_;
    if (last_ret >= ret_.size()) last_ret -= static_cast<uint32_t>(ret_.size());
    // The last return stage, after the faults the environment injects into it (docs/recovery.md):
    // a count, or an update whose difference from the accepted total the credit limit checks.
    const uint32_t arriving = ret_[last_ret];
    accept_ = false;
    o.update_refused = false;
    if (!config_.recovery) {
        o.credits_arriving = arriving == 0 || in.fault_drop ? 0u : (arriving + in.fault_add) & count_mask_;
    } else {
        o.credits_arriving = 0;
        if ((arriving & kUpdateValid) && !in.fault_drop) {
            arriving_total_ = (arriving + in.fault_add) & total_mask_;
            const uint32_t d = (arriving_total_ - accepted_total_) & total_mask_;
            accept_ = static_cast<uint64_t>(credits_) + d <= static_cast<uint64_t>(config_.buffer_slots);
            o.update_refused = !accept_;
            o.credits_arriving = accept_ ? d : 0u;
        }
    }

    o.fwd_flits = fwd_flits_;
    o.arrive = fwd_[last].valid;

    o.occupancy = occupancy_;
    o.pop = in.drain && occupancy_ != 0;
    o.pop_payload = o.pop ? slots_[rx_head_] : 0;
    o.overflow = o.arrive && !o.pop && occupancy_ == slots;
    o.slots_freeing = slots_freeing_;

    o.pending_returns = pending_;
    freed_ = freeing_.empty() ? o.pop : freeing_[oldest_freeing()] != 0;
    const uint32_t pending_total = pending_ + (freed_ ? 1u : 0u);
    const uint32_t batch = static_cast<uint32_t>(config_.batch);
    o.policy_flush = in.flush || (policy_active_ && policy_flushes(in.return_busy));
    released_ = o.policy_flush ? pending_total : (pending_total >= batch ? batch : 0u);
    if (!config_.recovery) {
        o.return_waiting = waiting_;
        o.credits_returned = in.return_busy ? 0u : waiting_ + released_;
        o.return_message = o.credits_returned != 0;
        o.return_flight = return_flight_;
    } else {
        // The receiver tells its running total: whenever it has new credits, and again every
        // RESEND cycles; the update waits while reverse traffic holds the slot.
        next_released_total_ = (released_total_ + released_) & total_mask_;
        const bool wanted = next_released_total_ != sent_total_ ||
                            quiet_ == static_cast<uint32_t>(config_.resend_period - 1);
        o.return_message = wanted && !in.return_busy;
        o.credits_returned = o.return_message ? (next_released_total_ - sent_total_) & total_mask_ : 0u;
        o.return_waiting = (released_total_ - sent_total_) & total_mask_;
        // At most B credits can be on their way: R ahead of CS (a corrupted update accepted)
        // counts as none, so the extra credits show as made, by exactly their number.
        const uint32_t flight = (sent_total_ - accepted_total_) & total_mask_;
        o.return_flight = flight > static_cast<uint32_t>(config_.buffer_slots) ? 0u : flight;
    }
    o.credit_total = credits_ + fwd_flits_ + occupancy_ + slots_freeing_ + pending_ + o.return_waiting + o.return_flight;
    return o;
}

bool ReferenceLinkModel::policy_flushes(bool return_busy) const {
    const uint32_t timeout = static_cast<uint32_t>(config_.flush_timeout);
    if (timeout != 0 && pending_ != 0 && batch_age_ >= timeout) return true;
    if (config_.policy != ReturnPolicy::hybrid) return false;
    const bool idle = !return_busy && free_run_ == static_cast<uint32_t>(config_.idle_cycles - 1);
    // The receiver's bound on the sender's credits: every credit it holds is not at the sender.
    const uint32_t waiting = config_.recovery ? (released_total_ - sent_total_) & total_mask_ : waiting_;
    // In the RTL's count width: more than B held (credits made by a one-sided reset or a fault)
    // wraps, as return_policy's `held` input does.
    const uint32_t held = (occupancy_ + slots_freeing_ + pending_ + waiting) & count_mask_;
    const uint32_t slots = static_cast<uint32_t>(config_.buffer_slots);
    const bool sender_low = held >= slots - static_cast<uint32_t>(config_.low_credits);
    return idle || sender_low;
}

uint32_t ReferenceLinkModel::oldest_freeing() const {
    const uint32_t size = static_cast<uint32_t>(freeing_.size());
    uint32_t oldest = freeing_head_ + size - 1;
    if (oldest >= size) oldest -= size;
    return oldest;
}

void ReferenceLinkModel::update() {
    const Observation& o = obs_;
    const uint32_t slots = static_cast<uint32_t>(config_.buffer_slots);
    const uint32_t last = last_fwd_;
    const FwdStage arriving = fwd_[last];

    // Sender: one update, credits - send + returned.
    credits_ = credits_ - (o.send ? 1u : 0u) + o.credits_arriving;

    // Receiver buffer: the arriving flit takes the tail slot unless all slots stay full.
    if (o.arrive && !o.overflow) {
        uint32_t tail = rx_head_ + occupancy_;
        if (tail >= slots) tail -= slots;
        slots_[tail] = arriving.payload;
    }
    if (o.pop) rx_head_ = (rx_head_ + 1 == slots) ? 0 : rx_head_ + 1;
    occupancy_ = occupancy_ + ((o.arrive && !o.overflow) ? 1u : 0u) - (o.pop ? 1u : 0u);

    // Late free: the pop joins the delay line, the oldest entry has been freed.
    if (!freeing_.empty()) {
        const uint32_t oldest = oldest_freeing();
        slots_freeing_ = slots_freeing_ - freeing_[oldest] + (o.pop ? 1u : 0u);
        freeing_head_ = oldest;
        freeing_[freeing_head_] = o.pop ? 1 : 0;
    }

    // Return logic: the batch, the timeout's age of its oldest credit, the port, the idle run.
    pending_ = pending_ + (freed_ ? 1u : 0u) - released_;
    if (!config_.recovery) {
        waiting_ = waiting_ + released_ - o.credits_returned;
    } else {
        released_total_ = next_released_total_;
        if (o.return_message) {
            sent_total_ = next_released_total_;
            quiet_ = 0;
        } else {
            quiet_ = std::min(quiet_ + 1, static_cast<uint32_t>(config_.resend_period - 1));
        }
        if (accept_) accepted_total_ = arriving_total_;
    }
    if (policy_active_) {
        const uint32_t timeout = static_cast<uint32_t>(config_.flush_timeout);
        batch_age_ = pending_ == 0 ? 0u : std::min(batch_age_ + 1, timeout + 1);
        const uint32_t idle_run = static_cast<uint32_t>(config_.idle_cycles - 1);
        free_run_ = o.return_busy ? 0u : std::min(free_run_ + 1, idle_run);
    }

    // Both pipelines shift: the last stage leaves, the new value enters stage 0. With a ring
    // that is one step of the head backwards onto the slot the last stage vacated.
    fwd_flits_ = fwd_flits_ - (arriving.valid ? 1u : 0u) + (o.send ? 1u : 0u);
    // Without recovery the return path carries counts (what left the last stage, faults and
    // all, no longer counts); with it, updates.
    uint32_t last_ret = ret_head_ + last_ret_stage_;
    if (last_ret >= ret_.size()) last_ret -= static_cast<uint32_t>(ret_.size());
    return_flight_ = return_flight_ - ret_[last_ret] + o.credits_returned;
    ring_head_ = last;
    fwd_[ring_head_] = FwdStage{o.send, o.send_payload};
    ret_head_ = last_ret;
    ret_[ret_head_] = !config_.recovery ? o.credits_returned
                                        : (o.return_message ? kUpdateValid | next_released_total_ : 0u);

    // A reset asserted in this cycle wins over the edge, one end at a time (credit_link's
    // rst_tx_n and rst_rx_n).
    if (o.reset_tx) reset_sender();
    if (o.reset_rx) reset_receiver();
    ++cycle_;
}

}  // namespace creditloop
