// Every single-link feature on the multi-channel link, per pool (docs/channels.md, "Return
// policies, SYNC, late frees and resets per pool"): the return policies, the timeout, flush,
// reverse traffic, SYNC, FREE_DELAY, one-sided and mid-traffic resets, faults and recovery. The
// reference is the single link's golden model, which the seeds' tables pin down: one channel of
// the multi-channel model must be it, cycle for cycle, and so must any one pool of a link whose
// other channels are quiet. Closed forms and injected resets check the scoreboards.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "channel_config.h"
#include "channel_model.h"
#include "credit_loop_model.h"
#include "channel_run.h"
#include "closed_forms.h"
#include "reference_link_model.h"
#include "stimulus.h"

using namespace creditloop;

namespace {

// A random single link with its features, and the same link as channel 0 of a channel link.
struct Pair {
    LinkConfig link;
    ChannelLinkConfig channels;
};

Pair random_pair(Rng& rng, int quiet_channels, bool shared_return) {
    LinkConfig l;
    l.stages = 1 + static_cast<int>(rng.next() % 5);
    l.buffer_slots = 1 + static_cast<int>(rng.next() % 14);
    l.batch = 1 + static_cast<int>(rng.next() % static_cast<uint64_t>(l.buffer_slots));
    l.payload_bits = 32;
    l.sync_stages = static_cast<int>(rng.next() % 3);
    l.free_delay = static_cast<int>(rng.next() % 3);
    l.policy = rng.chance(0.5) ? ReturnPolicy::hybrid : ReturnPolicy::batch;
    if (l.policy == ReturnPolicy::hybrid) {
        l.low_credits = static_cast<int>(rng.next() % static_cast<uint64_t>(l.buffer_slots + 1));
        l.idle_cycles = 1 + static_cast<int>(rng.next() % 4);
    }
    l.flush_timeout = rng.chance(0.5) ? 1 + static_cast<int>(rng.next() % 8) : 0;
    l.recovery = !shared_return && rng.chance(0.4);   // a quiet pool's resends would share the path
    if (l.recovery) {
        l.total_bits = 1;
        while ((1 << l.total_bits) <= 2 * l.buffer_slots) ++l.total_bits;
        l.resend_period = 1 + static_cast<int>(rng.next() % 12);
    }
    REQUIRE_FALSE(validate(l));

    ChannelLinkConfig c = single_channel_config(l);
    c.shared_return = shared_return;
    for (int i = 1; i <= quiet_channels; ++i) {
        ChannelSpec quiet;
        quiet.name = "Q" + std::to_string(i);
        quiet.credits = 1 + static_cast<int>(rng.next() % static_cast<uint64_t>(std::min(6, l.buffer_slots)));   // totals wide enough
        quiet.batch = 1;
        c.channels.push_back(quiet);
    }
    if (c.recovery)
        for (const auto& q : c.channels) REQUIRE((1 << c.total_bits) > 2 * q.credits);
    REQUIRE_FALSE(validate(c));
    return {l, c};
}

// The single link's observation, field by field, against pool 0 (lane 0) of the channel link's.
void require_same(const Observation& r, const ChannelObservation& o) {
    REQUIRE(o.credits[0] == r.credits);
    REQUIRE(o.send == (r.send ? 1u : 0u));
    REQUIRE(o.send_payload == r.send_payload);
    REQUIRE(o.fwd_flits[0] == r.fwd_flits);
    REQUIRE(o.arrive == (r.arrive ? 1u : 0u));
    REQUIRE(o.occupancy[0] == r.occupancy);
    REQUIRE((o.pop & 1u) == (r.pop ? 1u : 0u));
    REQUIRE(o.pop_payload[0] == r.pop_payload);
    REQUIRE((o.overflow & 1u) == (r.overflow ? 1u : 0u));
    REQUIRE(o.slots_freeing[0] == r.slots_freeing);
    REQUIRE(o.pending_returns[0] == r.pending_returns);
    REQUIRE((o.policy_flush & 1u) == (r.policy_flush ? 1u : 0u));
    REQUIRE(o.return_waiting[0] == r.return_waiting);
    REQUIRE(o.credits_returned[0] == r.credits_returned);
    REQUIRE((o.return_message & 1u) == (r.return_message ? 1u : 0u));
    REQUIRE(o.return_flight[0] == r.return_flight);
    REQUIRE(o.credits_arriving[0] == r.credits_arriving);
    REQUIRE((o.update_refused & 1u) == (r.update_refused ? 1u : 0u));
}

// Drive both models with the same random inputs; the quiet channels' pools get flushes and
// reverse traffic of their own and must stay full and still.
void lockstep(const Pair& pair, Rng& rng, uint64_t cycles) {
    ReferenceLinkModel reference(pair.link);
    reference.reset();
    ChannelModel model(pair.channels);
    const ChannelLayout lay = layout(pair.channels);
    const bool shared = pair.channels.shared_return;
    const double flush = rng.chance(0.5) ? 0.05 : 0.0;
    const double busy = rng.chance(0.5) ? 0.3 : 0.0;
    const double faults = rng.chance(0.5) ? 0.05 : 0.0;
    for (uint64_t t = 0; t < cycles; ++t) {
        LinkInputs li;
        li.want_send = (t / 23) % 4 != 3 && rng.chance(0.9);
        li.payload = static_cast<uint32_t>(rng.next());
        li.drain = rng.chance(0.7);
        li.flush = rng.chance(flush);
        li.return_busy = rng.chance(busy);
        li.reset_tx = rng.chance(0.002);
        li.reset_rx = rng.chance(0.002) || (li.reset_tx && rng.chance(0.5));
        li.fault_drop = rng.chance(faults);
        li.fault_add = rng.chance(faults) ? 1 + static_cast<uint32_t>(rng.next() % 3) : 0;
        ChannelInputs ci;
        ci.have = li.want_send ? 1 : 0;
        ci.bytes[0] = 1;
        ci.tag[0] = li.payload;
        ci.drain = (li.drain ? 1u : 0u) | (rng.chance(0.5) ? ~1u & 0xFFu : 0u);
        ci.flush = (li.flush ? 1u : 0u) | (rng.chance(0.3) ? 0xFFFEu : 0u);
        ci.return_busy = li.return_busy ? 1u : 0u;
        if (!shared && rng.chance(0.3)) ci.return_busy |= 0xFFFEu;
        ci.reset_tx = li.reset_tx;
        ci.reset_rx = li.reset_rx;
        ci.fault_drop = li.fault_drop ? 1u : 0u;
        ci.fault_corrupt = li.fault_add ? 1u : 0u;
        ci.fault_add = li.fault_add;
        const Observation& r = reference.evaluate(li);
        const ChannelObservation& o = model.evaluate(ci);
        INFO("cycle " << t);
        require_same(r, o);
        for (int p = 1; p < lay.pools; ++p) {
            INFO("quiet pool " << p);
            REQUIRE(o.credits[p] == static_cast<uint32_t>(lay.pool_credits[p]));
            REQUIRE(pool_total(o, lay, p) == static_cast<uint64_t>(lay.pool_credits[p]));
        }
        reference.update();
        model.update();
    }
}

std::string describe(const Pair& p) {
    const LinkConfig& l = p.link;
    return "L=" + std::to_string(l.stages) + " B=" + std::to_string(l.buffer_slots) + " K=" + std::to_string(l.batch) +
           " SYNC=" + std::to_string(l.sync_stages) + " FREE_DELAY=" + std::to_string(l.free_delay) + " policy " +
           policy_name(l.policy) + " LOW=" + std::to_string(l.low_credits) + " IDLE=" + std::to_string(l.idle_cycles) +
           " TIMEOUT=" + std::to_string(l.flush_timeout) + (l.recovery ? " recovery" : "") + " channels " +
           std::to_string(p.channels.channels.size()) + (p.channels.shared_return ? " shared return" : "");
}

}  // namespace

TEST_CASE("one channel with every single-link feature is today's link, cycle for cycle", "[channels][model][policies]") {
    Rng rng(2026);
    for (int i = 0; i < 60; ++i) {
        const Pair pair = random_pair(rng, 0, false);
        INFO(describe(pair));
        lockstep(pair, rng, 1500);
    }
}

// The single link's runs use the one model through CreditLoopModel: every observed signal of
// its Observation, the echoed inputs and the RTL's own loop total included, is the reference's.
TEST_CASE("the single link's model is the reference link, every observed signal, every feature", "[channels][model][policies]") {
    Rng rng(77);
    for (int i = 0; i < 60; ++i) {
        const Pair pair = random_pair(rng, 0, false);
        INFO(describe(pair));
        ReferenceLinkModel reference(pair.link);
        CreditLoopModel model(pair.link);
        const bool faults = rng.chance(0.5);
        for (uint64_t t = 0; t < 1500; ++t) {
            LinkInputs in;
            in.want_send = rng.chance(0.8);
            in.payload = static_cast<uint32_t>(rng.next());
            in.drain = rng.chance(0.7);
            in.flush = rng.chance(0.03);
            in.return_busy = rng.chance(0.2);
            in.reset_tx = rng.chance(0.002);
            in.reset_rx = rng.chance(0.002);
            in.fault_drop = faults && rng.chance(0.05);
            in.fault_add = faults && rng.chance(0.05) ? 1 + static_cast<uint32_t>(rng.next() % 3) : 0;
            const Observation& r = reference.evaluate(in);
            const Observation& o = model.evaluate(in);
            INFO("cycle " << t);
            for (const SignalInfo& s : kObservedSignals) {
                INFO(signal_name(s.signal));
                REQUIRE(signal_value(o, s.signal) == signal_value(r, s.signal));
            }
            REQUIRE(o.cycle == r.cycle);
            reference.update();
            model.update();
        }
    }
}

TEST_CASE("any pool of a channel link keeps the single link's features when the others are quiet", "[channels][model][policies]") {
    Rng rng(4202);
    for (int i = 0; i < 60; ++i) {
        const bool shared = i % 2 == 1;
        const Pair pair = random_pair(rng, 1 + i % 3, shared);
        INFO(describe(pair));
        lockstep(pair, rng, 1500);
    }
}

TEST_CASE("SYNC and a late free lengthen a pool's round trip: min(1, B / (2L + 2 + SYNC + FREE_DELAY))", "[channels][model][policies]") {
    for (const auto& [stages, credits, sync, delay] :
         std::vector<std::array<int, 4>>{{2, 4, 1, 2}, {4, 6, 2, 0}, {1, 3, 0, 3}, {3, 12, 1, 1}}) {
        ChannelRunSpec spec;
        spec.config = single_channel_config(stages, credits, 1);
        spec.config.sync_stages = sync;
        spec.config.free_delay = delay;
        spec.cycles = 20000;
        const ChannelRunResult r = run_channels(nullptr, spec);
        const int rtt = 2 * stages + 2 + sync + delay;
        INFO("L=" << stages << " B=" << credits << " SYNC=" << sync << " FREE_DELAY=" << delay);
        CHECK(r.passed);
        CHECK(r.closed_form_round_trip == rtt);
        REQUIRE(r.pools.size() == 1);
        CHECK(r.pools[0].throughput == Approx(std::min(1.0, static_cast<double>(credits) / rtt)).margin(0.001));
    }
}

TEST_CASE("a reset of both ends mid-traffic passes; one end alone is caught per pool at its cycle", "[channels][scoreboards][resets]") {
    ChannelRunSpec spec;
    spec.config = *channel_preset("chi");
    spec.cycles = 3000;
    spec.environment.reset_every = 700;
    const ChannelRunResult both = run_channels(nullptr, spec);
    INFO((both.violations.empty() ? std::string() : both.violations.front().check + " " + both.violations.front().detail));
    CHECK(both.passed);

    for (const bool sender : {true, false}) {
        ChannelRunSpec alone = spec;
        alone.environment.reset_every = 0;
        (sender ? alone.environment.reset_tx_at : alone.environment.reset_rx_at) = 1234;
        const ChannelRunResult r = run_channels(nullptr, alone);
        INFO((sender ? "sender" : "receiver") << " alone");
        REQUIRE_FALSE(r.passed);
        REQUIRE(r.first_violation());
        CHECK(r.first_violation()->check == "conservation.one_sided_reset");
        CHECK(r.first_violation()->cycle == 1234);
        CHECK(r.first_violation()->signal == (sender ? "link.reset_tx" : "link.reset_rx"));
    }
}

TEST_CASE("the flush input and reverse traffic act per pool", "[channels][model][policies]") {
    // Two channels, K = 4 each, a pop every cycle: pool 0 is told to flush every cycle and
    // returns each credit at once; pool 1 returns batches of 4, and while its path is held by
    // reverse traffic its released credits wait.
    ChannelLinkConfig config = hol_config(2, 8, 2, false);
    for (auto& ch : config.channels) {
        ch.batch = 4;
        ch.traffic.drain = 1.0;
    }
    ChannelModel model(config);
    uint32_t flushed_returns = 0, batch_returns = 0, waited = 0;
    for (uint64_t t = 0; t < 400; ++t) {
        ChannelInputs in;
        in.have = 3;
        in.bytes = {1, 1};
        in.tag = {static_cast<uint32_t>(t), (1u << 28) | static_cast<uint32_t>(t)};
        in.drain = 3;
        in.flush = 1;
        in.return_busy = (t / 8) % 2 ? 2u : 0u;
        const ChannelObservation& o = model.evaluate(in);
        REQUIRE((o.policy_flush & 1u) == 1u);
        REQUIRE((o.policy_flush & 2u) == 0u);
        REQUIRE(o.pending_returns[0] == 0);                          // flushed every cycle: nothing waits in the batch
        REQUIRE(o.credits_returned[0] <= 1);
        if (o.return_busy & 2u) REQUIRE(o.credits_returned[1] == 0);
        REQUIRE(o.credits_returned[1] % 4 == 0);             // whole batches (a free cycle sends every waiting one)
        flushed_returns += o.credits_returned[0];
        batch_returns += o.credits_returned[1];
        waited += o.return_waiting[1];
        REQUIRE(pool_total(o, layout(config), 0) == 8);
        REQUIRE(pool_total(o, layout(config), 1) == 8);
        model.update();
    }
    CHECK(flushed_returns > 100);
    CHECK(batch_returns > 100);
    CHECK(waited > 0);
}
