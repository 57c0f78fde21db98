#include "channel_scoreboards.h"

#include <algorithm>

#include <fmt/format.h>

#include "closed_forms.h"
#include "conservation.h"

namespace creditloop {

std::string lane_name(const ChannelLinkConfig& config, const ChannelLayout& layout, int lane) {
    const int c = layout.lane_channel[lane];
    const std::string& channel = config.channels[c].name;
    if (!layout.channel_split[c]) return channel;
    return channel + (lane == layout.channel_lane[c] ? ".hdr" : ".data");
}

std::string pool_name(const ChannelLinkConfig& config, const ChannelLayout& layout, int pool) {
    if (layout.pool_channel[pool] < 0) return "shared";
    return lane_name(config, layout, pool);   // one pool per lane, numbered as the lanes
}

std::string channel_signal_name(const ChannelLinkConfig& config, const ChannelLayout& layout, ChannelSignal signal,
                                int entry) {
    const ChannelSignalInfo& info = kChannelSignals[static_cast<int>(signal)];
    switch (info.shape) {
    case ChannelShape::lane: return "link.rx." + lane_name(config, layout, entry) + "." + info.field;
    case ChannelShape::pool: return "link.pool." + pool_name(config, layout, entry) + "." + info.field;
    default: return std::string("link.") + info.field;
    }
}

// ---- conservation

ChannelConservation::ChannelConservation(const ChannelLinkConfig& config) : config_(config), layout_(layout(config)) {
    for (int p = 0; p < layout_.pools; ++p) last_total_[p] = static_cast<uint64_t>(layout_.pool_credits[p]);
}

void ChannelConservation::step(const ChannelObservation& o) {
    count_cycle();
    std::array<int64_t, kMaxPools> change{};
    for (int p = 0; p < layout_.pools; ++p) {
        const uint64_t total = pool_total(o, layout_, p);
        change[p] = static_cast<int64_t>(total) - static_cast<int64_t>(last_total_[p]);
    }
    for (int p = 0; p < layout_.pools; ++p) {
        if (change[p] == 0) continue;
        const uint64_t total = last_total_[p] + change[p];
        const int64_t net = static_cast<int64_t>(total) - layout_.pool_credits[p];
        std::string detail = fmt::format("pool {}: {} {}", pool_name(config_, layout_, p),
                                         counted(static_cast<uint64_t>(net < 0 ? -net : net), "credit"),
                                         net < 0 ? "short" : net > 0 ? "over" : "(back to its grant)");
        for (int q = 0; q < layout_.pools; ++q)
            if (q != p && change[q] == -change[p])
                detail += fmt::format("; pool {} changed by {} in the same cycle: a credit of one pool went to the other",
                                      pool_name(config_, layout_, q), change[q]);
        const char* check = "conservation.pool";
        if (((dropped_before_ | corrupted_before_) >> p) & 1u) {
            check = injected_check(net < 0);
            detail = injected_detail("the message for pool " + pool_name(config_, layout_, p),
                                     ((dropped_before_ >> p) & 1u) != 0, fault_cycle_, detail);
        }
        record({o.cycle, check, "link.pool." + pool_name(config_, layout_, p) + ".total",
                std::to_string(layout_.pool_credits[p]), std::to_string(total), detail});
        last_total_[p] = total;
    }
    for (int p = 0; p < layout_.pools; ++p) {
        const bool grant_exceeded = o.credits[p] > static_cast<uint32_t>(layout_.pool_credits[p]);
        if (grant_exceeded && !over_grant_[p])
            record({o.cycle, "conservation.grant", channel_signal_name(config_, layout_, ChannelSignal::credits, p),
                    "<= " + std::to_string(layout_.pool_credits[p]), std::to_string(o.credits[p]),
                    "pool " + pool_name(config_, layout_, p) + " holds more credits than it was granted"});
        over_grant_[p] = grant_exceeded;
    }
    for (int l = 0; l < layout_.lanes; ++l)
        if ((o.overflow >> l) & 1u)
            record({o.cycle, "conservation.overflow", channel_signal_name(config_, layout_, ChannelSignal::overflow, l),
                    "0", "1", "a flit arrived at lane " + lane_name(config_, layout_, l) + " with every slot full"});
    if (o.reset_tx != o.reset_rx) one_sided_reset(o);
    dropped_before_ = o.fault_drop;
    corrupted_before_ = o.fault_corrupt;
    fault_cycle_ = o.cycle;
}

// Each pool's ends, as the single link's: one_sided_reset_violation (conservation.h).
void ChannelConservation::one_sided_reset(const ChannelObservation& o) {
    for (int p = 0; p < layout_.pools; ++p) {
        const uint64_t grant = static_cast<uint64_t>(layout_.pool_credits[p]);
        const bool arriving = o.arrive && o.arrive_lane < static_cast<uint32_t>(layout_.lanes) &&
                              layout_.lane_pool[o.arrive_lane] == p;
        const bool joined = arriving && !((o.overflow >> o.arrive_lane) & 1u);
        uint64_t lanes = 0;
        for (int l = 0; l < layout_.lanes; ++l)
            if (layout_.lane_pool[l] == p) lanes += o.occupancy[l];
        const uint64_t sender_end = uint64_t{o.credits[p]} + o.reserved[p] + o.credits_arriving[p] + o.fwd_flits[p] -
                                    (arriving ? 1u : 0u);
        const uint64_t receiver_end = lanes + (joined ? 1u : 0u) + o.slots_freeing[p] + o.pending_returns[p] + o.return_waiting[p] +
                                      o.return_flight[p] - o.credits_arriving[p];
        if (auto v = one_sided_reset_violation(o.cycle, o.reset_tx, grant, sender_end, receiver_end,
                                               o.reset_tx ? "link.reset_tx" : "link.reset_rx",
                                               "pool " + pool_name(config_, layout_, p) + ": "))
            record(std::move(*v));
    }
}

// ---- starvation

ChannelStarvation::ChannelStarvation(const ChannelLinkConfig& config)
    : config_(config), layout_(layout(config)), messages_(config.stages + config.sync_stages) {
    const int rtt = round_trip_cycles(config);
    for (int p = 0; p < layout_.pools; ++p)
        watch_[p] = StarvationWatch(static_cast<uint64_t>(
            starvation_bound(rtt, layout_.pool_batch[p], config.recovery ? config.resend_period : 0)));
}

uint64_t ChannelStarvation::longest_starvation() const {
    uint64_t longest = 0;
    for (int p = 0; p < layout_.pools; ++p) longest = std::max(longest, watch_[p].longest());
    return longest;
}

void ChannelStarvation::step(const ChannelObservation& o) {
    count_cycle();
    const uint32_t in_flight = messages_.pools();
    for (int p = 0; p < layout_.pools; ++p) {
        const uint32_t bit = 1u << p;
        if (o.update_refused & bit) {
            if (o.fault_corrupt & bit) {
                ++refused_injected_;
            } else {
                record({o.cycle, "recovery.refused", channel_signal_name(config_, layout_, ChannelSignal::update_refused, p),
                        "0", "1", "pool " + pool_name(config_, layout_, p) + " refused an update no injected fault explains"});
            }
        }
        uint64_t held = uint64_t{o.credits[p]} + o.reserved[p] + o.fwd_flits[p] + o.slots_freeing[p] + o.return_waiting[p];
        for (int l = 0; l < layout_.lanes; ++l)
            if (layout_.lane_pool[l] == p) held += o.occupancy[l];
        const bool starved = held == 0 && !(in_flight & bit) && !o.reset_tx && !o.reset_rx;
        if (watch_[p].step(o.cycle, starved))
            record(watch_[p].violation(o.cycle, channel_signal_name(config_, layout_, ChannelSignal::credits, p),
                                       "pool " + pool_name(config_, layout_, p), "nothing of it anywhere",
                                       static_cast<uint64_t>(layout_.pool_credits[p]) - o.pending_returns[p]));
    }
    messages_.shift(o.return_message, o.reset_rx);
}

// ---- data

ChannelData::ChannelData(const ChannelLinkConfig& config)
    : config_(config), layout_(layout(config)), ledgers_(static_cast<size_t>(layout_.lanes)) {
    for (int l = 0; l < layout_.lanes; ++l)
        pop_signals_.push_back(channel_signal_name(config_, layout_, ChannelSignal::pop_payload, l));
}

void ChannelData::step(const ChannelObservation& o) {
    count_cycle();
    const int lanes = layout_.lanes;
    // Pops first: a flit sent this cycle cannot be popped this cycle.
    for (int l = 0; l < lanes; ++l) {
        if (!((o.pop >> l) & 1u)) continue;
        const uint32_t got = o.pop_payload[l];
        if (payload_channel(got) != layout_.lane_channel[l])
            record({o.cycle, "data.cross_channel", pop_signals_[l],
                    "a flit of " + config_.channels[layout_.lane_channel[l]].name, hex32(got),
                    "lane " + lane_name(config_, layout_, l) + " popped a flit of another channel"});
        if (auto v = ledgers_[l].pop(o.cycle, pop_signals_[l], got, fwd_[l] + o.occupancy[l])) record(std::move(*v));
        ++checked_;
    }
    const int sent_lane = static_cast<int>(o.send_lane);
    const bool sent = o.send && sent_lane < lanes && payload_channel(o.send_payload) == layout_.lane_channel[sent_lane];
    if (o.send && !sent) {
        record({o.cycle, "data.cross_channel", "link.send_lane",
                "a lane of channel " + std::to_string(payload_channel(o.send_payload)), std::to_string(sent_lane),
                "a flit was sent to another channel's lane"});
    } else if (sent) {
        if (auto v = ledgers_[sent_lane].send(o.cycle, pop_signals_[sent_lane], o.send_payload)) record(std::move(*v));
    }
    // The forward path at the edge: the arriving flit leaves it (into its lane, or dropped on an
    // overflow), the sent one joins it.
    const int arrive_lane = static_cast<int>(o.arrive_lane);
    const bool arrived = o.arrive && arrive_lane < lanes;
    if (arrived && fwd_[arrive_lane] > 0) --fwd_[arrive_lane];
    if (sent) ++fwd_[sent_lane];
    // Resetting both ends discards every flit in the link, as it should; one end alone empties
    // its half (the sender: the forward path; the receiver: the lanes), and the flits lost show
    // as data.lost.
    if (o.reset_tx) fwd_.fill(0);
    for (int l = 0; l < lanes; ++l) {
        const uint64_t joined = arrived && arrive_lane == l && !((o.overflow >> l) & 1u) ? 1u : 0u;
        const uint64_t held = o.occupancy[l] + joined;
        after_[l] = fwd_[l] + (o.reset_rx ? 0u : held - std::min<uint64_t>((o.pop >> l) & 1u, held));
    }
    if (o.reset_tx && o.reset_rx)
        for (auto& ledger : ledgers_) ledger.clear();
    seen_any_ = true;
    last_cycle_ = o.cycle;
}

void ChannelData::finish() {
    if (!seen_any_) return;
    seen_any_ = false;   // once
    for (int l = 0; l < layout_.lanes; ++l)
        if (auto v = ledgers_[l].finish(last_cycle_, pop_signals_[l], after_[l])) record(std::move(*v));
}

// ---- fairness

ChannelFairness::ChannelFairness(const ChannelLinkConfig& config)
    : config_(config), channels_(static_cast<int>(config.channels.size())) {}

void ChannelFairness::step(const ChannelObservation& o) {
    count_cycle();
    const uint32_t all = (1u << channels_) - 1u;
    const uint32_t eligible = o.eligible & all;
    if (o.grant & ~eligible) {
        record({o.cycle, "fairness.ineligible", "link.grant", fmt::format("a subset of eligible = {:#x}", eligible),
                fmt::format("{:#x}", o.grant), "the arbiter granted a channel without its packet's credits"});
    }
    const bool in_progress = o.send && o.grant == 0;
    if (o.reset_tx) waited_ = {};   // the arbiter starts again from channel 0
    if (in_progress || o.reset_tx) return;   // no arbitration this cycle (or it is undone)
    if (o.grant == 0 && eligible != 0)
        record({o.cycle, "fairness.idle", "link.grant", fmt::format("one of {:#x}", eligible), "0",
                "the link was free and a channel had its credits, but nothing was granted"});
    for (int c = 0; c < channels_; ++c) {
        const bool granted = (o.grant >> c) & 1u;
        if (granted || !((eligible >> c) & 1u)) {
            waited_[c] = 0;
            continue;
        }
        if (o.grant == 0) continue;
        ++waited_[c];
        if (waited_[c] > longest_wait_) longest_wait_ = waited_[c];
        if (waited_[c] == channels_)   // the N-th grant to another: once per wait
            record({o.cycle, "fairness.starved", "link.grant", "<= " + std::to_string(channels_ - 1) + " grants to others",
                    std::to_string(waited_[c]),
                    "channel " + config_.channels[c].name + " had a packet and its credits and was passed over"});
    }
}

// ---- sizing

ChannelSizing::ChannelSizing(const ChannelLinkConfig& config, uint64_t window_start)
    : config_(config), layout_(layout(config)), window_start_(window_start) {}

void ChannelSizing::step(const ChannelObservation& o) {
    count_cycle();
    if (o.cycle < window_start_) return;
    ++window_cycles_;
    for (int p = 0; p < layout_.pools; ++p)
        credits_away_[p] += static_cast<uint64_t>(layout_.pool_credits[p]) - std::min<uint64_t>(o.credits[p], layout_.pool_credits[p]);
    if (!o.send || o.send_lane >= static_cast<uint32_t>(layout_.lanes)) return;
    ++window_flits_;
    ++channel_flits_[layout_.lane_channel[o.send_lane]];
    ++pool_flits_[layout_.lane_pool[o.send_lane]];
}

double ChannelSizing::channel_throughput(int c) const {
    return window_cycles_ ? static_cast<double>(channel_flits_[c]) / window_cycles_ : 0.0;
}
double ChannelSizing::pool_throughput(int p) const {
    return window_cycles_ ? static_cast<double>(pool_flits_[p]) / window_cycles_ : 0.0;
}
double ChannelSizing::link_share(int c) const {
    return window_flits_ ? static_cast<double>(channel_flits_[c]) / window_flits_ : 0.0;
}
double ChannelSizing::measured_round_trip(int p) const {
    // + 1: the cycle a credit is spent in counts too (seed 001: sent in t, spent again in t + RTT).
    return pool_flits_[p] ? static_cast<double>(credits_away_[p]) / pool_flits_[p] + 1.0 : 0.0;
}

void ChannelSizing::finish() {
    if (window_cycles_ == 0) return;
    const int rtt = round_trip_cycles(config_);
    for (int p = 0; p < layout_.pools; ++p) {
        // B credits, each used at most once per round trip; B flits of slack for the window's edges
        // (the credits already out when it opens).
        const double bound = static_cast<double>(layout_.pool_credits[p]) / rtt +
                             static_cast<double>(layout_.pool_credits[p]) / window_cycles_ + 1e-9;
        if (pool_throughput(p) > bound)
            record({window_start_, "sizing.round_trip", "link.pool." + pool_name(config_, layout_, p) + ".throughput",
                    fmt::format("<= B / RTT = {} / {} = {:.3f}", layout_.pool_credits[p], rtt,
                                static_cast<double>(layout_.pool_credits[p]) / rtt),
                    three_decimals(pool_throughput(p)),
                    "pool " + pool_name(config_, layout_, p) + " carried more flits than its credits can: credits were made"});
    }
}

// ---- lockstep

ChannelLockstep::ChannelLockstep(const ChannelLinkConfig& config)
    : config_(config), layout_(layout(config)), reported_(std::size(kChannelSignals) * kMaxPools, false) {}

void ChannelLockstep::step(const ChannelObservation& rtl) {
    count_cycle();
    bool differs = false;
    for (const ChannelSignalInfo& info : kChannelSignals) {
        const int entries = signal_entries(info.shape, layout_);
        for (int i = 0; i < entries; ++i) {
            const uint32_t want = signal_value(model_, info.signal, i), got = signal_value(rtl, info.signal, i);
            if (want == got) continue;
            differs = true;
            const size_t slot = static_cast<size_t>(info.signal) * kMaxPools + static_cast<size_t>(i);
            if (first_ && reported_[slot]) continue;
            reported_[slot] = true;
            record({rtl.cycle, "lockstep", channel_signal_name(config_, layout_, info.signal, i), std::to_string(want),
                    std::to_string(got), "the RTL and the model disagree"});
        }
    }
    if (differs && !first_) first_ = rtl.cycle;
}

}  // namespace creditloop
