#include "coverage.h"

#include <algorithm>

namespace creditloop {


LinkCoverage::LinkCoverage(const LinkConfig& config)
    : config_(config),
      buffer_slots_(static_cast<uint32_t>(std::max(config.buffer_slots, 1))),
      batch_(static_cast<uint32_t>(std::max(config.batch, 1))),
      total_mask_(config.total_bits >= 32 ? ~0u : (1u << config.total_bits) - 1),
      path_delay_(static_cast<uint64_t>(config.stages + config.sync_stages)),
      free_delay_(static_cast<uint64_t>(config.free_delay)) {
    // Each value in one class, in this order of precedence: 0, B, 1, B - 1, else mid.
    const uint32_t b = buffer_slots_;
    for (uint32_t v = 0; v <= b; ++v)
        value_class_.push_back(static_cast<uint8_t>(v == 0 ? zero : v == b ? full : v == 1 ? one : v == b - 1 ? full_minus_one : mid));
    value_class_.push_back(past_b);
    // A whole loop holds at most B credits away from the sender: a ring above B never wraps onto
    // a credit still on its way.
    size_t ring = 2;
    while (ring <= buffer_slots_) ring *= 2;
    credits_.resize(ring);
    ring_mask_ = ring - 1;
}

LinkBinCounts LinkCoverage::counts() const {
    LinkBinCounts out = counts_;
    const auto put = [&out](LinkBin bin, uint64_t n) { out[static_cast<size_t>(bin)] += n; };
    const uint32_t b = buffer_slots_;
    // The class of the value 1 (one, or full when B = 1) and of B - 1 (full_minus_one, one when
    // B = 2, zero when B = 1): the ends of the transitions by one.
    const uint32_t value_one = value_class_[std::min(1u, b)];
    const uint32_t value_b_minus_one = value_class_[b - 1];
    static constexpr LinkBin kCreditBins[] = {LinkBin::credits_zero, LinkBin::credits_one, LinkBin::credits_mid,
                                              LinkBin::credits_full_minus_one, LinkBin::credits_full};
    static constexpr LinkBin kOccupancyBins[] = {LinkBin::occupancy_empty, LinkBin::occupancy_one, LinkBin::occupancy_mid,
                                                 LinkBin::occupancy_full_minus_one, LinkBin::occupancy_full};
    for (uint32_t key = 0; key < credit_keys_.size(); ++key) {
        const uint64_t n = credit_keys_[key];
        if (n == 0) continue;
        const uint32_t before = key & 7, now = key >> 3 & 7;
        const bool seen = before <= full;   // the cycle before was counted, not a reset
        if (now <= full) put(kCreditBins[now], n);
        if (seen && before == zero && now == value_one) put(LinkBin::credits_zero_to_one, n);
        if (seen && before == value_one && now == zero) put(LinkBin::credits_one_to_zero, n);
        if (seen && before != full && now == full) put(LinkBin::credits_back_to_full, n);
        if (now == zero && (key >> want_send_bit & 1u)) put(LinkBin::send_blocked, n);
        if ((key >> send_bit & 1u) && (key >> arriving_bit & 1u)) put(LinkBin::send_and_return, n);
    }
    for (uint32_t key = 0; key < occupancy_keys_.size(); ++key) {
        const uint64_t n = occupancy_keys_[key];
        if (n == 0) continue;
        const uint32_t before = key & 7, now = key >> 3 & 7;
        const bool seen = before <= full;
        if (now <= full) put(kOccupancyBins[now], n);
        if (seen && before == zero && now == value_one) put(LinkBin::occupancy_empty_to_one, n);
        if (seen && before == full && now == value_b_minus_one) put(LinkBin::occupancy_full_to_one_free, n);
        if (key >> waited_sent_bit & 1u) put(LinkBin::return_waited_sent, n);
        if (key >> resend_bit & 1u) put(LinkBin::recovery_resend, n);
        if (key >> refused_bit & 1u) put(LinkBin::recovery_refused, n);
    }
    static constexpr LinkBin kReleaseBins[] = {LinkBin::batch_single, LinkBin::batch_full, LinkBin::batch_partial,
                                               LinkBin::return_busy_wait, LinkBin::return_merged};
    static constexpr LinkBin kWaitBins[] = {LinkBin::rtt_consumer_wait, LinkBin::rtt_batch_wait, LinkBin::rtt_slot_wait,
                                            LinkBin::rtt_update_lost};
    for (uint32_t key = 0; key < releases_.size(); ++key)
        for (uint32_t bit = 0; bit < release_bits; ++bit)
            if (key >> bit & 1u) put(kReleaseBins[bit], releases_[key]);
    uint64_t arrivals = 0;
    for (uint32_t key = 0; key < round_trips_.size(); ++key) {
        arrivals += round_trips_[key];
        for (uint32_t bit = 0; bit < wait_bits; ++bit)
            if (key >> bit & 1u) put(kWaitBins[bit], round_trips_[key]);
    }
    put(LinkBin::rtt_minimum, round_trips_[0]);
    if (config_.sync_stages > 0) put(LinkBin::rtt_synchroniser, arrivals);
    if (config_.free_delay > 0) put(LinkBin::rtt_late_free, arrivals);
    return out;
}

void LinkCoverage::step(const Observation& o) {
    const uint32_t b = buffer_slots_;
    // The credits and the occupancy: this cycle's class beside the cycle before's, and the event
    // bits that go with each (a transition by one is a pair of classes: 0 -> 1 credits is a
    // cycle at 0 and the next at 1, since nothing is sent at 0).
    const uint32_t credits = value_class_[std::min(o.credits, b + 1)];
    const uint32_t occupancy = value_class_[std::min(o.occupancy, b + 1)];
    ++credit_keys_[previous_credits_ | credits << 3 | uint32_t{o.want_send} << want_send_bit |
                   uint32_t{o.send} << send_bit | uint32_t{o.credits_arriving != 0} << arriving_bit];
    ++occupancy_keys_[previous_occupancy_ | occupancy << 3 |
                      static_cast<uint32_t>(!o.return_busy & (o.return_waiting != 0)) << waited_sent_bit |
                      static_cast<uint32_t>(o.return_message & (o.credits_returned == 0)) << resend_bit |
                      uint32_t{o.update_refused} << refused_bit];
    previous_credits_ = credits;
    previous_occupancy_ = occupancy;

    if (config_.recovery) {
        const uint32_t before = sent_total_;
        sent_total_ = (sent_total_ + o.credits_returned) & total_mask_;
        if (sent_total_ < before) add(LinkBin::recovery_total_wraps);
    }
    if (o.fault_drop | (o.fault_add != 0)) {
        if (o.fault_drop) add(config_.recovery ? LinkBin::fault_drop_update : LinkBin::fault_drop_count);
        else add(config_.recovery ? LinkBin::fault_corrupt_update : LinkBin::fault_corrupt_count);
        // A count dropped or made larger, or a larger update accepted, breaks the loop's order.
        if (!config_.recovery || (!o.fault_drop && !o.update_refused)) loop_whole_ = false;
    }

    // What the return logic released in the cycle before this one: what entered the return
    // path then plus what the wait for a slot grew by since (with counts and running totals
    // alike). What entered is taken now too, after the release, so a credit released and sent
    // in one cycle is seen leaving the batch first.
    const uint32_t released_before = have_previous_ ? previous_returned_ + o.return_waiting - previous_waiting_ : 0;
    const uint32_t entered_before = have_previous_ ? previous_returned_ : 0;
    previous_cycle(o, released_before);
    if (loop_whole_) round_trips(o, released_before, entered_before);

    // Resets at the edge that ends this cycle: the next cycle's counts are the reset's, not a
    // transition.
    if (o.reset_tx | o.reset_rx) {
        const bool away = o.fwd_flits + o.occupancy + o.slots_freeing + o.pending_returns + o.return_waiting +
                              o.return_flight != 0;
        if (away) {
            add(o.reset_tx && o.reset_rx ? LinkBin::reset_both_in_flight
                : o.reset_tx             ? LinkBin::reset_sender_alone_in_flight
                                         : LinkBin::reset_receiver_alone_in_flight);
        }
        if (o.reset_tx && o.reset_rx) restart_loop();
        else loop_whole_ = false;   // until both ends are reset together
        if (o.reset_tx) previous_credits_ = no_previous;
        if (o.reset_rx) {
            previous_occupancy_ = no_previous;
            have_previous_ = false;   // the receiver's counts start again
            free_run_ = 0;
            sent_total_ = 0;
        }
    }
}

// The bins of the release in the cycle before (its size, whether it met a busy slot or joined
// credits that waited) and, for a partial batch, the flush's cause.
void LinkCoverage::previous_cycle(const Observation& o, uint32_t n) {
    if (n != 0 && n <= buffer_slots_) {
        const uint32_t partial = n < batch_;
        ++releases_[uint32_t{batch_ == 1} << single | ((batch_ > 1) & (n == batch_)) << full_batch | partial << ReleaseBit::partial |
                    uint32_t{previous_busy_} << busy_wait |
                    ((previous_returned_ != 0) & (previous_waiting_ != 0)) << merged];
        if (partial & previous_policy_flush_) {
            add(previous_flush_input_ ? LinkBin::flush_input_partial
                : previous_idle_      ? LinkBin::flush_hybrid_idle
                : previous_low_       ? LinkBin::flush_hybrid_low
                                      : LinkBin::flush_timeout);
        }
    }
    have_previous_ = true;
    previous_returned_ = o.credits_returned;
    previous_waiting_ = o.return_waiting;
    previous_busy_ = o.return_busy;
    previous_flush_input_ = o.flush;
    previous_policy_flush_ = o.policy_flush;
    if (config_.policy == ReturnPolicy::hybrid) {
        // The hybrid's two reasons, as return_policy.sv decides them: idle (no reverse traffic
        // for IDLE cycles, this one included) and the sender's bound B - held at most LOW.
        const uint32_t idle_run = static_cast<uint32_t>(config_.idle_cycles - 1);
        const uint32_t held = o.occupancy + o.slots_freeing + o.pending_returns + o.return_waiting;
        previous_idle_ = !o.return_busy && free_run_ >= idle_run;
        previous_low_ = config_.low_credits >= config_.buffer_slots ||
                        held >= static_cast<uint32_t>(config_.buffer_slots - config_.low_credits);
        free_run_ = o.return_busy ? 0 : std::min(free_run_ + 1, idle_run);
    }
}

// Each credit's way round, from the events that move it: its flit leaving the forward path
// (arrive) and the buffer (pop), its release from the batch and the message that carries it
// (credits_returned; both taken the cycle after) and its arrival at the sender (credits_arriving).
// Every part of the loop keeps order, so the n-th credit to cross one place is the n-th to cross
// the next: a count of crossings per place indexes the ring. At each crossing the credit notes
// whether it waited since the one before. Its class is counted once nothing can lengthen its way
// any more: when it enters the return path (without recovery it then arrives L + SYNC cycles
// later, always), or with recovery when it arrives (its update may be lost and a later one carry
// it). A place where no credit can wait in this configuration is not followed: the batch with
// K = 1 (each credit is released the cycle its slot is freed).
void LinkCoverage::round_trips(const Observation& o, uint32_t released_before, uint32_t entered_before) {
    const uint64_t t = o.cycle;
    const uint64_t mask = ring_mask_;
    if (o.arrive) credits_[arrived_++ & mask] = CreditWay{t, 0};
    if (o.pop) {
        CreditWay& c = credits_[popped_++ & mask];
        c.waits |= uint32_t{t > c.since + 1} << consumer_wait;   // popped later than the cycle after it arrived
        c.since = t + free_delay_;                                // its slot is freed then
    }
    if (batch_ > 1) {
        for (uint32_t n = released_before; n != 0; --n) {
            CreditWay& c = credits_[released_++ & mask];
            c.waits |= uint32_t{t - 1 > c.since} << batch_wait;
            c.since = t - 1;
        }
    }
    if (entered_ + entered_before > popped_) {   // more than ever left the buffer: the loop is broken
        loop_whole_ = false;
        return;
    }
    for (uint32_t n = entered_before; n != 0; --n) {
        CreditWay& c = credits_[entered_++ & mask];
        c.waits |= uint32_t{t - 1 > c.since} << slot_wait;
        c.since = t - 1;
        if (!config_.recovery) ++round_trips_[c.waits];
    }
    if (!config_.recovery) return;
    if (arrivals_ + o.credits_arriving > entered_) {   // more arrive than ever left: broken
        loop_whole_ = false;
        return;
    }
    for (uint32_t n = o.credits_arriving; n != 0; --n) {
        const CreditWay& c = credits_[arrivals_++ & mask];
        ++round_trips_[c.waits | uint32_t{t - c.since > path_delay_} << update_lost];
    }
}

void LinkCoverage::restart_loop() {
    loop_whole_ = true;
    arrived_ = popped_ = released_ = entered_ = arrivals_ = 0;
}

// ---- the multi-channel link

ChannelCoverage::ChannelCoverage(const ChannelLinkConfig& config)
    : layout_(layout(config)), shared_pool_(config.shared_pool), shared_return_(config.shared_return),
      recovery_(config.recovery) {
    for (int p = 0; p < layout_.pools; ++p) previous_credits_[p] = static_cast<uint32_t>(layout_.pool_credits[p]);
    for (int c = 0; c < layout_.channels; ++c)
        data_pool_[c] = layout_.channel_split[c] ? layout_.lane_pool[layout_.channel_lane[c] + 1] : -1;
    for (int l = 0; l < layout_.lanes; ++l) lane_pool_mask_[l] = 1u << layout_.lane_pool[l];
}

void ChannelCoverage::step(const ChannelObservation& o) {
    const int send_lane = o.send ? static_cast<int>(std::min<uint32_t>(o.send_lane, kMaxLanes - 1)) : -1;
    const int send_channel = send_lane >= 0 ? layout_.lane_channel[send_lane] : -1;
    for (int p = 0; p < layout_.pools; ++p) {
        const uint32_t credits = o.credits[p];
        const uint32_t b = static_cast<uint32_t>(layout_.pool_credits[p]);
        if (credits == 0) {
            hit(ChannelBin::pool_zero);
            if (shared_pool_) hit(ChannelBin::pool_shared_exhausted);
            if (send_lane >= 0 && !(lane_pool_mask_[send_lane] >> p & 1u) && layout_.pool_channel[p] != send_channel)
                hit(ChannelBin::pool_exhausted_other_sends);
        } else if (credits == b) {
            hit(ChannelBin::pool_full);
        }
        const uint32_t before = previous_credits_[p];
        if (before == 0 && credits == 1) hit(ChannelBin::pool_zero_to_one);
        if (before == 1 && credits == 0) hit(ChannelBin::pool_one_to_zero);
        previous_credits_[p] = credits;
        const uint32_t returned = o.credits_returned[p];
        const uint32_t k = static_cast<uint32_t>(layout_.pool_batch[p]);
        if (returned != 0) {
            if (k == 1 && returned == 1) hit(ChannelBin::pool_batch_single);
            else if (k > 1 && returned == k) hit(ChannelBin::pool_batch_full);
        }
        if (shared_return_ && o.return_waiting[p] != 0) hit(ChannelBin::pool_shared_return_wait);
        if ((o.policy_flush >> p & 1u) && returned != 0 && returned < k && !recovery_) hit(ChannelBin::pool_flush_partial);
        if (o.return_waiting[p] != 0 && (o.return_busy >> (shared_return_ ? 0 : p) & 1u)) hit(ChannelBin::pool_path_held);
        if (o.slots_freeing[p] != 0) hit(ChannelBin::pool_late_free);
        if ((o.reset_tx || o.reset_rx) && credits != b)
            hit(o.reset_tx && o.reset_rx ? ChannelBin::reset_both : ChannelBin::reset_one_end);
        if (o.reserved[p] != 0) hit(ChannelBin::channel_multi_flit);
        if (recovery_ && (o.return_message >> p & 1u) && returned == 0) hit(ChannelBin::recovery_resend);
    }
    for (int l = 0; l < layout_.lanes; ++l) {
        if (o.occupancy[l] != static_cast<uint32_t>(layout_.pool_credits[layout_.lane_pool[l]])) continue;
        hit(ChannelBin::lane_full);
        const bool arriving = o.arrive && o.arrive_lane == static_cast<uint32_t>(l);
        if ((o.pop >> l & 1u) && !arriving) hit(ChannelBin::lane_full_to_one_free);
    }
    if (o.eligible != 0) {
        if (o.grant != 0 && (o.eligible & (o.eligible - 1)) != 0) hit(ChannelBin::channel_contention);
        if (o.grant == 0) hit(ChannelBin::channel_waits_for_packet);   // eligible, but a packet holds the link
    }
    // A header/data channel granted last cycle: its data pool holds the data flits' credits now.
    for (uint32_t g = previous_grant_; g != 0; g &= g - 1) {
        const int c = __builtin_ctz(g);
        if (c >= layout_.channels || data_pool_[c] < 0) continue;
        hit(o.reserved[data_pool_[c]] != 0 ? ChannelBin::channel_header_and_data : ChannelBin::channel_header_only);
    }
    previous_grant_ = o.grant;
    if (o.fault_drop != 0) hit(ChannelBin::fault_drop);
    if (o.fault_corrupt != 0) hit(ChannelBin::fault_corrupt);
    if (o.update_refused != 0) hit(ChannelBin::recovery_refused);
}

// ---- the aggregate

CoverageTally::CoverageTally() {
    for (const BinInfo& b : kLinkBins) entries_.push_back({b.name, b.meaning, 0});
    for (const BinInfo& b : kChannelBins) entries_.push_back({b.name, b.meaning, 0});
    for (size_t i = 0; i < entries_.size(); ++i) index_[entries_[i].name] = i;
}

void CoverageTally::add(const LinkBinCounts& counts) {
    for (size_t i = 0; i < kLinkBinCount; ++i) entries_[i].count += counts[i];
    ++runs_;
}

void CoverageTally::add(const ChannelBinCounts& counts) {
    for (size_t i = 0; i < kChannelBinCount; ++i) entries_[kLinkBinCount + i].count += counts[i];
    ++runs_;
}

bool CoverageTally::add(const std::string& name, uint64_t count) {
    const auto it = index_.find(name);
    if (it == index_.end()) return false;
    entries_[it->second].count += count;
    return true;
}

void CoverageTally::add(const CoverageTally& other) {
    for (const Entry& e : other.entries_) add(e.name, e.count);
    runs_ += other.runs_;
}

uint64_t CoverageTally::count(const std::string& name) const {
    const auto it = index_.find(name);
    return it == index_.end() ? 0 : entries_[it->second].count;
}

size_t CoverageTally::hit() const {
    return static_cast<size_t>(std::count_if(entries_.begin(), entries_.end(), [](const Entry& e) { return e.count != 0; }));
}

std::vector<std::string> CoverageTally::unhit() const {
    std::vector<std::string> names;
    for (const Entry& e : entries_)
        if (e.count == 0) names.push_back(e.name);
    return names;
}

}  // namespace creditloop
