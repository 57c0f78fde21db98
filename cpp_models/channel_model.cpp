#include "channel_model.h"

#include <algorithm>

namespace creditloop {

namespace {

uint32_t count_mask(int credits) {   // $clog2(B + 1) bits
    int bits = 1;
    while ((1 << bits) < credits + 1) ++bits;
    return (1u << bits) - 1u;
}

bool bit(uint32_t mask, int i) { return (mask >> i) & 1u; }

}  // namespace

ChannelModel::ChannelModel(const ChannelLinkConfig& config)
    : config_(config), layout_(creditloop::layout(config)),
      total_mask_(config.recovery ? (1u << config.total_bits) - 1u : 0u),
      one_of_each_(layout_.channels == 1 && layout_.lanes == 1 && layout_.pools == 1) {
    for (int p = 0; p < layout_.pools; ++p) count_mask_[p] = count_mask(layout_.pool_credits[p]);
    reset();
}

void ChannelModel::reset() {
    cycle_ = 0;
    reset_sender();
    reset_receiver();
    obs_ = ChannelObservation{};   // entries past the layout's lanes and pools stay zero from here on
}

void ChannelModel::reset_sender() {
    credits_ = {};
    reserved_ = {};
    accepted_total_ = {};
    fwd_count_ = {};
    for (int p = 0; p < layout_.pools; ++p) credits_[p] = static_cast<uint32_t>(layout_.pool_credits[p]);
    fwd_.assign(static_cast<size_t>(config_.stages), Flit{});
    last_grant_ = layout_.channels - 1;   // channel 0 first
    busy_ = false;
    cur_channel_ = flits_left_ = next_flit_ = 0;
    cur_tag_ = 0;
}

void ChannelModel::reset_receiver() {
    pending_ = {};
    waiting_ = {};
    released_total_ = {};
    sent_total_ = {};
    quiet_ = {};
    batch_age_ = {};
    free_run_ = {};
    flight_count_ = {};
    freeing_count_ = {};
    const size_t paths = config_.shared_return ? 1 : static_cast<size_t>(layout_.pools);
    ret_.resize(paths);
    for (auto& path : ret_) path.assign(static_cast<size_t>(config_.stages + config_.sync_stages), Message{});
    lanes_.resize(static_cast<size_t>(layout_.lanes));
    freeing_.resize(static_cast<size_t>(layout_.lanes));
    for (int l = 0; l < layout_.lanes; ++l) {
        lanes_[l].slots.assign(static_cast<size_t>(layout_.pool_credits[layout_.lane_pool[l]]), 0);
        lanes_[l].head = lanes_[l].size = 0;
        freeing_[l].assign(static_cast<size_t>(config_.free_delay), 0);
    }
    last_return_ = layout_.pools - 1;     // pool 0 first
}

// return_policy.sv: the timeout flushes a batch whose oldest credit has waited TIMEOUT cycles;
// the hybrid flushes when the path was free IDLE cycles running, or when the credits the
// receiver holds leave the sender LOW or fewer.
bool ChannelModel::policy_flushes(int p, bool busy) const {
    const uint32_t timeout = static_cast<uint32_t>(layout_.pool_timeout[p]);
    if (timeout != 0 && pending_[p] != 0 && batch_age_[p] >= timeout) return true;
    if (!layout_.pool_hybrid[p]) return false;
    if (!busy && free_run_[p] == static_cast<uint32_t>(layout_.pool_idle[p] - 1)) return true;
    const uint32_t credits = static_cast<uint32_t>(layout_.pool_credits[p]);
    const uint32_t low = static_cast<uint32_t>(layout_.pool_low[p]);
    if (low >= credits) return true;
    const uint32_t held = pool_occupancy_[p] + obs_.slots_freeing[p] + obs_.pending_returns[p] + obs_.return_waiting[p];
    return (held & count_mask_[p]) >= credits - low;
}

const ChannelObservation& ChannelModel::evaluate(const ChannelInputs& in) {
    return one_of_each_ ? evaluate_shaped<true>(in) : evaluate_shaped<false>(in);
}

void ChannelModel::update() {
    if (one_of_each_) update_shaped<true>();
    else update_shaped<false>();
}

template <bool kOne>
const ChannelObservation& ChannelModel::evaluate_shaped(const ChannelInputs& in) {
    ChannelObservation& o = obs_;
    o.cycle = cycle_;
    o.eligible = o.grant = o.send = o.send_lane = o.send_payload = 0;
    o.pop = o.overflow = o.return_message = o.update_refused = o.policy_flush = 0;
    const int pools = kOne ? 1 : layout_.pools;
    const int lanes = kOne ? 1 : layout_.lanes;
    const int channels = kOne ? 1 : layout_.channels;
    const size_t paths = kOne ? 1 : ret_.size();

    // State at the start of the cycle.
    for (int p = 0; p < pools; ++p) {
        o.credits[p] = credits_[p];
        o.reserved[p] = reserved_[p];
        o.pending_returns[p] = pending_[p];
        o.fwd_flits[p] = fwd_count_[p];
        o.slots_freeing[p] = freeing_count_[p];
        o.credits_arriving[p] = 0;
        o.credits_returned[p] = 0;
        pool_occupancy_[p] = 0;
        freed_[p] = 0;
        if (config_.recovery) {
            o.return_waiting[p] = (released_total_[p] - sent_total_[p]) & total_mask_;
            const uint32_t flight = (sent_total_[p] - accepted_total_[p]) & total_mask_;   // > B: R ahead of CS
            o.return_flight[p] = flight > static_cast<uint32_t>(layout_.pool_credits[p]) ? 0u : flight;
        } else {
            o.return_waiting[p] = waiting_[p];
            o.return_flight[p] = flight_count_[p];
        }
    }

    // Arrive: the last forward stage; the last return stage of every path, after the faults the
    // environment injects (docs/recovery.md): a count, or an update the credit limit checks.
    const Flit& last = fwd_.last();
    o.arrive = last.valid;
    o.arrive_lane = last.valid ? static_cast<uint32_t>(last.lane) : 0;
    accepted_ = 0;
    for (size_t r = 0; r < paths; ++r) {
        const Message& m = ret_[r].last();
        const bool drop = bit(in.fault_drop, m.pool);
        const uint32_t add = bit(in.fault_corrupt, m.pool) ? in.fault_add : 0u;
        if (!config_.recovery) {
            if (m.count && !drop) o.credits_arriving[m.pool] += (m.count + add) & count_mask_[m.pool];
            continue;
        }
        if (!m.valid || drop) continue;
        const uint32_t v = (m.total + add) & total_mask_;
        const uint32_t d = (v - accepted_total_[m.pool]) & total_mask_;
        if (static_cast<uint64_t>(credits_[m.pool]) + d <= static_cast<uint64_t>(layout_.pool_credits[m.pool])) {
            accepted_ |= 1u << m.pool;
            arriving_total_[m.pool] = v;
            o.credits_arriving[m.pool] = d;
        } else {
            o.update_refused |= 1u << m.pool;
        }
    }

    // Pop: each lane of a draining channel that holds a flit; its slot is freed now, or
    // FREE_DELAY cycles later.
    for (int l = 0; l < lanes; ++l) {
        const Lane& lane = lanes_[l];
        const int pool = layout_.lane_pool[l];
        o.occupancy[l] = lane.size;
        pool_occupancy_[pool] += lane.size;
        o.pop_payload[l] = 0;
        const bool delayed = !freeing_[l].empty();
        if (delayed && freeing_[l].last()) ++freed_[pool];
        if (!bit(in.drain, layout_.lane_channel[l]) || lane.size == 0) continue;
        o.pop |= 1u << l;
        o.pop_payload[l] = lane.front();
        if (!delayed) ++freed_[pool];
    }
    if (o.arrive) {
        const int l = last.lane;
        if (!bit(o.pop, l) && o.occupancy[l] >= static_cast<uint32_t>(layout_.pool_credits[layout_.lane_pool[l]]))
            o.overflow |= 1u << l;
    }

    // Eligible: a head packet and every credit it needs.
    for (int c = 0; c < channels; ++c) {
        if (!bit(in.have, c)) continue;
        const ChannelSpec& spec = config_.channels[c];
        const PacketCost cost = packet_cost(spec, static_cast<int>(in.bytes[c]));
        const int lane = layout_.channel_lane[c];
        Need& n = need_[c];
        n.header_pool = n.data_pool = layout_.lane_pool[lane];
        n.flits = cost.flits;
        n.header = static_cast<uint32_t>(cost.header_credits);
        n.data = 0;
        if (spec.split) {
            n.data_pool = layout_.lane_pool[lane + 1];
            n.data = static_cast<uint32_t>(cost.data_credits);
        }
        // Credits usable on arrival: this cycle's arriving count counts already.
        const auto usable = [&](int pool) {
            return credits_[pool] + (config_.credits_on_arrival ? o.credits_arriving[pool] : 0u);
        };
        const bool enough = n.header_pool == n.data_pool ? usable(n.header_pool) >= n.header + n.data
                                                         : usable(n.header_pool) >= n.header && usable(n.data_pool) >= n.data;
        if (enough) o.eligible |= 1u << c;
    }

    // Send: the packet in progress, else the round-robin's grant.
    sent_ = Flit{};
    granted_ = -1;
    if (busy_) {
        const int lane = layout_.channel_lane[cur_channel_] + (config_.channels[cur_channel_].split ? 1 : 0);
        sent_ = {true, lane, cur_tag_ + static_cast<uint32_t>(next_flit_)};
    } else {
        for (int i = 1, c = last_grant_; i <= channels; ++i) {
            c = c + 1 == channels ? 0 : c + 1;
            if (!bit(o.eligible, c)) continue;
            granted_ = c;
            cur_tag_ = in.tag[c];
            sent_ = {true, layout_.channel_lane[c], in.tag[c]};
            o.grant = 1u << c;
            break;
        }
    }
    if (sent_.valid) {
        o.send = 1;
        o.send_lane = static_cast<uint32_t>(sent_.lane);
        o.send_payload = sent_.payload;
    }

    // Return, per pool: the flush input or the policy, then batches of K; the pool's own return
    // path or the shared one, held while reverse traffic has it.
    const bool shared_busy = bit(in.return_busy, 0);
    for (int p = 0; p < pools; ++p) {
        const bool busy = config_.shared_return ? shared_busy : bit(in.return_busy, p);
        const uint32_t total = pending_[p] + freed_[p];
        const bool flush = bit(in.flush, p) || policy_flushes(p, busy);
        if (flush) o.policy_flush |= 1u << p;
        released_[p] = flush || total >= static_cast<uint32_t>(layout_.pool_batch[p]) ? total : 0;
    }
    returned_pool_ = -1;
    uint32_t owes = 0;   // pools with something to send
    for (int p = 0; p < pools; ++p) {
        if (config_.recovery) {
            // Each pool tells its running total when it has new credits, and again every T cycles.
            next_released_total_[p] = (released_total_[p] + released_[p]) & total_mask_;
            if (next_released_total_[p] != sent_total_[p] || quiet_[p] == static_cast<uint32_t>(config_.resend_period - 1))
                owes |= 1u << p;
        } else if (waiting_[p] + released_[p] != 0) {
            owes |= 1u << p;
        }
    }
    uint32_t path_free = 0;   // pools whose message may enter its path this cycle
    if (config_.shared_return) {
        for (int i = 1; i <= pools && !shared_busy; ++i) {
            const int p = (last_return_ + i) % pools;
            if (!bit(owes, p)) continue;
            returned_pool_ = p;
            path_free = 1u << p;
            break;
        }
    } else {
        path_free = ~in.return_busy;
    }
    for (int p = 0; p < pools; ++p) {
        if (!bit(path_free, p)) continue;
        if (config_.recovery) {
            if (!bit(owes, p)) continue;
            o.return_message |= 1u << p;
            o.credits_returned[p] = (next_released_total_[p] - sent_total_[p]) & total_mask_;
        } else {
            o.credits_returned[p] = waiting_[p] + released_[p];
            if (o.credits_returned[p]) o.return_message |= 1u << p;
        }
    }
    // The inputs echoed last: the caller has just written them field by field, and the compiler
    // copies neighbouring fields in one wider load, which waits for those stores to retire.
    o.fault_drop = in.fault_drop;
    o.fault_corrupt = in.fault_corrupt;
    o.flush = in.flush;
    o.return_busy = in.return_busy;
    o.reset_tx = in.reset_tx;
    o.reset_rx = in.reset_rx;
    return o;
}

template <bool kOne>
void ChannelModel::update_shaped() {
    const ChannelObservation& o = obs_;
    const int pools = kOne ? 1 : layout_.pools;
    const int lanes = kOne ? 1 : layout_.lanes;
    const size_t paths = kOne ? 1 : ret_.size();
    if (granted_ >= 0) {   // the packet's credits: all of them with its head flit
        // Field by field (read whole, the entry evaluate() has just written field by field would
        // wait for those stores); with one pool both pools are pool 0.
        const Need& n = need_[granted_];
        const int header_pool = kOne ? 0 : n.header_pool, data_pool = kOne ? 0 : n.data_pool;
        const uint32_t header = n.header, data = n.data;
        credits_[header_pool] -= header;
        reserved_[header_pool] += header;
        credits_[data_pool] -= data;
        reserved_[data_pool] += data;
    }
    for (int p = 0; p < pools; ++p) {
        credits_[p] += o.credits_arriving[p];
        const uint32_t total = pending_[p] + freed_[p];
        pending_[p] = total - released_[p];
        if (config_.recovery) {
            released_total_[p] = next_released_total_[p];
            if (bit(o.return_message, p)) {
                sent_total_[p] = next_released_total_[p];
                quiet_[p] = 0;
            } else {
                quiet_[p] = std::min(quiet_[p] + 1, static_cast<uint32_t>(config_.resend_period - 1));
            }
            if (bit(accepted_, p)) accepted_total_[p] = arriving_total_[p];
        } else {
            waiting_[p] = waiting_[p] + released_[p] - o.credits_returned[p];
        }
        // The policy's timers (return_policy.sv).
        const uint32_t timeout = static_cast<uint32_t>(layout_.pool_timeout[p]);
        batch_age_[p] = pending_[p] == 0 ? 0u : std::min(batch_age_[p] + 1, timeout + 1);
        const bool busy = bit(o.return_busy, config_.shared_return ? 0 : p);
        free_run_[p] = busy ? 0u : std::min(free_run_[p] + 1, static_cast<uint32_t>(layout_.pool_idle[p] - 1));
    }
    if (sent_.valid) --reserved_[layout_.lane_pool[sent_.lane]];

    // Receiver lanes: pops leave the front (into the late-free line), the arriving flit joins the back.
    for (int l = 0; l < lanes; ++l) {
        const bool popped = bit(o.pop, l);
        auto& line = freeing_[l];
        if (!line.empty()) {
            const int pool = layout_.lane_pool[l];
            freeing_count_[pool] = freeing_count_[pool] - line.last() + (popped ? 1u : 0u);
            line.shift(popped ? 1 : 0);
        }
        if (popped) lanes_[l].pop();
    }
    const Flit arriving = fwd_.last();
    if (o.arrive && !o.overflow) lanes_[arriving.lane].push(arriving.payload);

    // Pipelines move one stage.
    if (arriving.valid) --fwd_count_[layout_.lane_pool[arriving.lane]];
    if (sent_.valid) ++fwd_count_[layout_.lane_pool[sent_.lane]];
    fwd_.shift(sent_);
    for (size_t path = 0; path < paths; ++path) {
        auto& stages = ret_[path];
        const Message& leaving = stages.last();
        Message in{};
        if (config_.recovery) {
            const int p = config_.shared_return ? returned_pool_ : static_cast<int>(path);
            if (p >= 0 && bit(o.return_message, p)) in = Message{p, 0, true, next_released_total_[p]};
        } else {
            flight_count_[leaving.pool] -= leaving.count;
            if (config_.shared_return) {
                if (returned_pool_ >= 0) in = Message{returned_pool_, o.credits_returned[returned_pool_]};
            } else {
                in = Message{static_cast<int>(path), o.credits_returned[path]};
            }
            flight_count_[in.pool] += in.count;
        }
        stages.shift(in);
    }

    // The sender: a grant starts a packet, every flit after the head continues it.
    if (granted_ >= 0) {
        last_grant_ = granted_;
        cur_channel_ = granted_;
        flits_left_ = need_[granted_].flits - 1;
        next_flit_ = 1;
        busy_ = flits_left_ > 0;
    } else if (busy_) {
        --flits_left_;
        ++next_flit_;
        busy_ = flits_left_ > 0;
    }
    if (returned_pool_ >= 0) last_return_ = returned_pool_;

    // A reset asserted in this cycle wins over the edge, one end at a time (rst_tx_n, rst_rx_n).
    if (o.reset_tx) reset_sender();
    if (o.reset_rx) reset_receiver();
    ++cycle_;
}

}  // namespace creditloop
