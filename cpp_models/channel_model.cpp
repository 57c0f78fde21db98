#include "channel_model.h"

#include <algorithm>

namespace creditloop {

ChannelModel::ChannelModel(const ChannelLinkConfig& config)
    : config_(config), layout_(creditloop::layout(config)),
      total_mask_(config.recovery ? (1u << config.total_bits) - 1u : 0u) {
    reset();
}

void ChannelModel::reset() {
    cycle_ = 0;
    credits_ = {};
    reserved_ = {};
    pending_ = {};
    waiting_ = {};
    released_total_ = {};
    sent_total_ = {};
    quiet_ = {};
    accepted_total_ = {};
    for (int p = 0; p < layout_.pools; ++p) credits_[p] = static_cast<uint32_t>(layout_.pool_credits[p]);
    fwd_.assign(static_cast<size_t>(config_.stages), Flit{});
    const size_t paths = config_.shared_return ? 1 : static_cast<size_t>(layout_.pools);
    ret_.assign(paths, std::vector<Message>(static_cast<size_t>(config_.stages), Message{}));
    lanes_.assign(static_cast<size_t>(layout_.lanes), {});
    last_grant_ = layout_.channels - 1;   // channel 0 first
    last_return_ = layout_.pools - 1;     // pool 0 first
    busy_ = false;
    cur_channel_ = flits_left_ = next_flit_ = 0;
    cur_tag_ = 0;
}

const ChannelObservation& ChannelModel::evaluate(const ChannelInputs& in) {
    ChannelObservation& o = obs_;
    o = ChannelObservation{};
    o.cycle = cycle_;
    o.fault_drop = in.fault_drop;
    o.fault_corrupt = in.fault_corrupt;
    const int pools = layout_.pools;

    // State at the start of the cycle.
    for (int p = 0; p < pools; ++p) {
        o.credits[p] = credits_[p];
        o.reserved[p] = reserved_[p];
        o.pending[p] = pending_[p];
        o.waiting[p] = config_.recovery ? (released_total_[p] - sent_total_[p]) & total_mask_ : waiting_[p];
    }
    for (int l = 0; l < layout_.lanes; ++l) o.occupancy[l] = static_cast<uint32_t>(lanes_[l].size());
    for (const Flit& f : fwd_)
        if (f.valid) ++o.fwd_flits[layout_.lane_pool[f.lane]];
    if (config_.recovery) {
        for (int p = 0; p < pools; ++p) {
            const uint32_t flight = (sent_total_[p] - accepted_total_[p]) & total_mask_;   // > B: R ahead of CS
            o.return_flight[p] = flight > static_cast<uint32_t>(layout_.pool_credits[p]) ? 0u : flight;
        }
    } else {
        for (const auto& path : ret_)
            for (const Message& m : path) o.return_flight[m.pool] += m.count;
    }

    // Arrive: the last forward stage; the last return stage of every path, after the faults the
    // environment injects (docs/recovery.md): a count, or an update the credit limit checks.
    const Flit& last = fwd_.back();
    o.arrive = last.valid;
    o.arrive_lane = last.valid ? static_cast<uint32_t>(last.lane) : 0;
    accepted_ = 0;
    for (const auto& path : ret_) {
        const Message& m = path.back();
        const uint32_t bit = 1u << m.pool;
        const bool drop = in.fault_drop & bit;
        const uint32_t add = (in.fault_corrupt & bit) ? in.fault_add : 0u;
        if (!config_.recovery) {
            if (m.count && !drop) o.credits_arriving[m.pool] += (m.count + add) & 0xFFFFu;
            continue;
        }
        if (!m.valid || drop) continue;
        const uint32_t v = (m.total + add) & total_mask_;
        const uint32_t d = (v - accepted_total_[m.pool]) & total_mask_;
        if (static_cast<uint64_t>(credits_[m.pool]) + d <= static_cast<uint64_t>(layout_.pool_credits[m.pool])) {
            accepted_ |= bit;
            arriving_total_[m.pool] = v;
            o.credits_arriving[m.pool] = d;
        } else {
            o.update_refused |= bit;
        }
    }

    // Pop: each lane of a draining channel that holds a flit.
    std::array<uint32_t, kMaxPools> freed{};
    for (int l = 0; l < layout_.lanes; ++l) {
        if (!((in.drain >> layout_.lane_channel[l]) & 1u) || lanes_[l].empty()) continue;
        o.pop |= 1u << l;
        o.pop_payload[l] = lanes_[l].front();
        ++freed[layout_.lane_pool[l]];
    }
    if (o.arrive) {
        const int l = last.lane;
        if (!((o.pop >> l) & 1u) && o.occupancy[l] >= static_cast<uint32_t>(layout_.pool_credits[layout_.lane_pool[l]]))
            o.overflow |= 1u << l;
    }

    // Eligible: a head packet and every credit it needs.
    std::array<std::array<uint32_t, kMaxPools>, kMaxChannels> need{};
    for (int c = 0; c < layout_.channels; ++c) {
        if (!((in.have >> c) & 1u)) continue;
        const ChannelSpec& spec = config_.channels[c];
        const PacketCost cost = packet_cost(spec, static_cast<int>(in.bytes[c]));
        const int lane = layout_.channel_lane[c];
        need[c][layout_.lane_pool[lane]] += static_cast<uint32_t>(cost.header_credits);
        if (spec.split) need[c][layout_.lane_pool[lane + 1]] += static_cast<uint32_t>(cost.data_credits);
        bool enough = true;
        for (int p = 0; p < pools; ++p) enough = enough && credits_[p] >= need[c][p];
        if (enough) o.eligible |= 1u << c;
    }

    // Send: the packet in progress, else the round-robin's grant.
    taken_ = {};
    sent_ = Flit{};
    granted_ = -1;
    if (busy_) {
        const int lane = layout_.channel_lane[cur_channel_] + (config_.channels[cur_channel_].split ? 1 : 0);
        sent_ = {true, lane, cur_tag_ + static_cast<uint32_t>(next_flit_)};
    } else {
        for (int i = 1; i <= layout_.channels; ++i) {
            const int c = (last_grant_ + i) % layout_.channels;
            if (!((o.eligible >> c) & 1u)) continue;
            granted_ = c;
            grant_cost_ = packet_cost(config_.channels[c], static_cast<int>(in.bytes[c]));
            cur_tag_ = in.tag[c];
            taken_ = need[c];
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

    // Return: batches of K per pool, then the pool's own return path or the shared one.
    for (int p = 0; p < pools; ++p) {
        const uint32_t total = pending_[p] + freed[p];
        released_[p] = total >= static_cast<uint32_t>(layout_.pool_batch[p]) ? total : 0;
    }
    returned_pool_ = -1;
    if (config_.recovery) {
        // Each pool tells its running total when it has new credits, and again every T cycles.
        uint32_t wanted = 0;
        for (int p = 0; p < pools; ++p) {
            next_released_total_[p] = (released_total_[p] + released_[p]) & total_mask_;
            if (next_released_total_[p] != sent_total_[p] || quiet_[p] == static_cast<uint32_t>(config_.resend_period - 1))
                wanted |= 1u << p;
        }
        if (config_.shared_return) {
            for (int i = 1; i <= pools; ++i) {
                const int p = (last_return_ + i) % pools;
                if (!((wanted >> p) & 1u)) continue;
                returned_pool_ = p;
                o.return_message = 1u << p;
                break;
            }
        } else {
            o.return_message = wanted;
        }
        for (int p = 0; p < pools; ++p)
            if ((o.return_message >> p) & 1u) o.credits_returned[p] = (next_released_total_[p] - sent_total_[p]) & total_mask_;
    } else if (config_.shared_return) {
        for (int i = 1; i <= pools; ++i) {
            const int p = (last_return_ + i) % pools;
            if (waiting_[p] + released_[p] == 0) continue;
            returned_pool_ = p;
            o.credits_returned[p] = waiting_[p] + released_[p];
            break;
        }
    } else {
        for (int p = 0; p < pools; ++p) o.credits_returned[p] = released_[p];
    }
    if (!config_.recovery)
        for (int p = 0; p < pools; ++p)
            if (o.credits_returned[p]) o.return_message |= 1u << p;
    freed_ = freed;
    return o;
}

void ChannelModel::update() {
    const ChannelObservation& o = obs_;
    const int pools = layout_.pools;
    for (int p = 0; p < pools; ++p) {
        credits_[p] = credits_[p] - taken_[p] + o.credits_arriving[p];
        reserved_[p] += taken_[p];
        const uint32_t total = pending_[p] + freed_[p];
        pending_[p] = released_[p] ? 0 : total;
        if (config_.recovery) {
            released_total_[p] = next_released_total_[p];
            if ((o.return_message >> p) & 1u) {
                sent_total_[p] = next_released_total_[p];
                quiet_[p] = 0;
            } else {
                quiet_[p] = std::min(quiet_[p] + 1, static_cast<uint32_t>(config_.resend_period - 1));
            }
            if ((accepted_ >> p) & 1u) accepted_total_[p] = arriving_total_[p];
        } else if (config_.shared_return) {
            waiting_[p] = waiting_[p] + released_[p] - o.credits_returned[p];
        }
    }
    if (sent_.valid) --reserved_[layout_.lane_pool[sent_.lane]];

    // Receiver lanes: pops leave the front, the arriving flit joins the back.
    for (int l = 0; l < layout_.lanes; ++l)
        if ((o.pop >> l) & 1u) lanes_[l].pop_front();
    if (o.arrive && !o.overflow) lanes_[fwd_.back().lane].push_back(fwd_.back().payload);

    // Pipelines move one stage.
    for (size_t i = fwd_.size() - 1; i > 0; --i) fwd_[i] = fwd_[i - 1];
    fwd_[0] = sent_;
    for (size_t path = 0; path < ret_.size(); ++path) {
        auto& stages = ret_[path];
        for (size_t i = stages.size() - 1; i > 0; --i) stages[i] = stages[i - 1];
        if (config_.recovery) {
            const int p = config_.shared_return ? returned_pool_ : static_cast<int>(path);
            stages[0] = p >= 0 && ((o.return_message >> p) & 1u) ? Message{p, 0, true, next_released_total_[p]} : Message{};
        } else if (config_.shared_return) {
            stages[0] = returned_pool_ >= 0 ? Message{returned_pool_, o.credits_returned[returned_pool_]} : Message{};
        } else {
            stages[0] = Message{static_cast<int>(path), o.credits_returned[path]};
        }
    }

    // The sender: a grant starts a packet, every flit after the head continues it.
    if (granted_ >= 0) {
        last_grant_ = granted_;
        cur_channel_ = granted_;
        flits_left_ = grant_cost_.flits - 1;
        next_flit_ = 1;
        busy_ = flits_left_ > 0;
    } else if (busy_) {
        --flits_left_;
        ++next_flit_;
        busy_ = flits_left_ > 0;
    }
    if (returned_pool_ >= 0) last_return_ = returned_pool_;
    ++cycle_;
}

}  // namespace creditloop
