#include "channel_run.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <deque>

#include "channel_model.h"
#include "channel_scoreboards.h"
#include "closed_forms.h"

namespace creditloop {

ChannelStimulus::ChannelStimulus(const ChannelLinkConfig& config, uint64_t seed, const ChannelEnvironment& environment)
    : config_(config), environment_(environment), rng_(seed), flush_rng_(stream_seed(seed, 4)),
      reverse_rng_(stream_seed(seed, 5)), tag_rng_(stream_seed(seed, 3)) {
    pools_ = layout(config).pools;
    paths_ = config.shared_return ? 1 : pools_;
}

const ChannelInputs& ChannelStimulus::next(uint64_t cycle) {
    ChannelInputs& in = inputs_;
    in.have = 0;
    in.drain = 0;
    in.flush = 0;
    in.return_busy = 0;
    const ChannelEnvironment& env = environment_;
    if (env.flush_probability > 0.0)
        for (int p = 0; p < pools_; ++p)
            if (flush_rng_.chance(env.flush_probability)) in.flush |= 1u << p;
    if (env.reverse_load > 0.0)
        for (int r = 0; r < paths_; ++r)
            if (reverse_rng_.chance(env.reverse_load)) in.return_busy |= 1u << r;
    const bool periodic = env.reset_every != 0 && (cycle + 1) % env.reset_every == 0;
    in.reset_tx = periodic || env.reset_tx_at == cycle;
    in.reset_rx = periodic || env.reset_rx_at == cycle;
    for (size_t c = 0; c < config_.channels.size(); ++c) {
        const ChannelTraffic& t = config_.channels[c].traffic;
        // Arrivals, then the consumer; the same draws in the same order every run.
        if (rng_.chance(t.load) && queues_[c].size() < kQueueLimit) {
            const uint64_t span = static_cast<uint64_t>(t.max_bytes - t.min_bytes) + 1;
            const uint32_t bytes = static_cast<uint32_t>(t.min_bytes) + static_cast<uint32_t>(rng_.next() % span);
            // Random, so every payload bit toggles, with the channel in it: bits 27:24 are the
            // channel XOR bits 31:28 (ChannelData::payload_channel). Bits 23:0 leave room for a
            // packet's last flit (the tag + flits - 1, up to 65535 flits) below bit 24.
            const uint64_t draw = tag_rng_.next();
            uint32_t low = static_cast<uint32_t>(draw) & 0x00ffffffu;
            if (low > 0x00ffffffu - 0xffffu) low -= 0x10000u;
            const uint32_t high = static_cast<uint32_t>(draw >> 32) & 0xfu;
            const uint32_t tag = high << 28 | ((high ^ static_cast<uint32_t>(c)) & 0xfu) << 24 | low;
            queues_[c].push_back({bytes, tag});
            ++offered_[c];
        }
        const bool drain = t.drain_every > 0 ? cycle % static_cast<uint64_t>(t.drain_every) == 0 : rng_.chance(t.drain);
        if (drain) in.drain |= 1u << c;
        if (!queues_[c].empty()) {
            in.have |= 1u << c;
            in.bytes[c] = queues_[c].front().bytes;
            in.tag[c] = queues_[c].front().tag;
        } else {
            in.bytes[c] = 0;
            in.tag[c] = 0;
        }
    }
    return in;
}

void ChannelStimulus::granted(uint32_t grant_mask) {
    for (size_t c = 0; c < config_.channels.size(); ++c)
        if (((grant_mask >> c) & 1u) && !queues_[c].empty()) queues_[c].pop_front();
}

namespace {

// The return path's messages per pool, as FaultInjector tracks the single link's: what entered
// each pool's return path in the last L + SYNC cycles (a message arriving now entered then),
// and the same rules judge each arriving message, pools in order.
class ChannelFaultInjector {
public:
    ChannelFaultInjector(const FaultSpec& spec, const ChannelLinkConfig& config, uint64_t seed)
        : spec_(spec), judge_(spec, LinkConfig{config.stages, 1, 1, 32}, seed),
          in_flight_(static_cast<size_t>(config.stages + config.sync_stages)) {}

    void apply(uint64_t cycle, ChannelInputs& in) {
        in.fault_drop = in.fault_corrupt = 0;
        in.fault_add = spec_.corrupt_add;
        const Entered& arriving = in_flight_.front();
        for (int p = 0; p < kMaxPools; ++p) {
            if (!((arriving.mask >> p) & 1u)) continue;
            const auto verdict = judge_.judge(cycle);
            if (verdict == FaultInjector::Verdict::none) continue;
            const bool drop = verdict == FaultInjector::Verdict::drop;
            (drop ? in.fault_drop : in.fault_corrupt) |= 1u << p;
            injected_.push_back({cycle, p, drop, drop ? 0u : spec_.corrupt_add, arriving.credits[p], arriving.cycle});
        }
    }
    void observe(const ChannelObservation& o) {
        in_flight_.pop_front();
        in_flight_.push_back({o.return_message, o.credits_returned, o.cycle});
        // A reset of the receiver end empties the return paths at this cycle's edge.
        if (o.reset_rx)
            for (auto& e : in_flight_) e = Entered{};
    }
    const std::vector<InjectedFault>& injected() const { return injected_; }
    uint64_t messages() const { return judge_.messages_seen(); }

private:
    struct Entered {
        uint32_t mask = 0;
        std::array<uint32_t, kMaxPools> credits{};
        uint64_t cycle = 0;
    };
    FaultSpec spec_;
    FaultInjector judge_;
    std::deque<Entered> in_flight_;
    std::vector<InjectedFault> injected_;
};

}  // namespace

ChannelRunResult run_channels(ChannelDut* dut, const ChannelRunSpec& spec, const ChannelRunOptions& options) {
    const ChannelLinkConfig& config = spec.config;
    const ChannelLayout lay = layout(config);
    ChannelRunResult result;
    result.source = dut ? "rtl" : "model";
    result.window_start = spec.cycles / 2;
    result.closed_form_round_trip = round_trip_cycles(config);

    ChannelModel model(config);
    ChannelStimulus stimulus(config, spec.seed, spec.environment);
    ChannelConservation conservation(config);
    ChannelData data(config);
    ChannelFairness fairness(config);
    ChannelSizing sizing(config, result.window_start);
    ChannelLockstep lockstep(config);
    ChannelStarvation starvation(config);
    ChannelCoverage coverage(config);
    std::optional<ChannelFaultInjector> injector;
    if (spec.faults.any()) injector.emplace(spec.faults, config, spec.seed);
    std::vector<ChannelScoreboard*> boards = {&conservation, &data, &fairness, &sizing, &starvation};
    if (dut) boards.push_back(&lockstep);
    const std::vector<ViolationLog*> logs(boards.begin(), boards.end());

    std::array<uint64_t, kMaxChannels> model_flits{};
    ChannelObservation rtl_obs;
    run_cycles(dut, spec.cycles, options, logs, result, [&](uint64_t cycle) {
        ChannelInputs in = spec.replay ? (cycle < spec.replay->size() ? (*spec.replay)[cycle] : ChannelInputs{})
                                       : stimulus.next(cycle);
        if (injector) injector->apply(cycle, in);
        const ChannelObservation& model_obs = model.evaluate(in);
        if (cycle >= result.window_start && model_obs.send)
            ++model_flits[lay.lane_channel[std::min<uint32_t>(model_obs.send_lane, kMaxLanes - 1)]];
        const ChannelObservation* observed = &model_obs;
        if (dut) {
            dut->step(in, rtl_obs);
            rtl_obs.cycle = cycle;
            rtl_obs.fault_drop = in.fault_drop;   // the inputs the RTL was given, echoed
            rtl_obs.fault_corrupt = in.fault_corrupt;
            rtl_obs.flush = in.flush;
            rtl_obs.return_busy = in.return_busy;
            rtl_obs.reset_tx = in.reset_tx;
            rtl_obs.reset_rx = in.reset_rx;
            lockstep.expect(model_obs);
            observed = &rtl_obs;
        }
        for (ChannelScoreboard* board : boards) board->step(*observed);
        coverage.step(*observed);
        if (!spec.replay) stimulus.granted(observed->grant);
        if (injector) injector->observe(*observed);
        model.update();
    }, [](const std::string&) {});

    uint64_t window_flits = 0;
    for (int c = 0; c < lay.channels; ++c) {
        ChannelStats s;
        s.name = config.channels[c].name;
        s.throughput = sizing.channel_throughput(c);
        s.share = sizing.link_share(c);
        s.model_throughput = sizing.window_cycles() ? static_cast<double>(model_flits[c]) / sizing.window_cycles() : 0.0;
        result.link_throughput += s.throughput;
        window_flits += model_flits[c];
        result.channels.push_back(s);
    }
    for (int p = 0; p < lay.pools; ++p)
        result.pools.push_back({pool_name(config, lay, p), lay.pool_credits[p], sizing.pool_throughput(p),
                                sizing.measured_round_trip(p)});
    result.longest_wait = fairness.longest_wait();
    result.coverage = coverage.counts();
    if (injector) {
        result.faults = injector->injected();
        result.return_messages = injector->messages();
    }
    settle_verdict(result, logs, "channel_link");
    return result;
}

}  // namespace creditloop
