// The multi-channel link's golden model and scoreboards (docs/channels.md) against independent
// references: today's single-channel model and the seeds' tables for one channel, hand-worked
// traces, closed forms, and each check fed a fault it must catch.
#include <catch2/catch.hpp>

#include <vector>

#include "channel_config.h"
#include "channel_model.h"
#include "channel_run.h"
#include "channel_scoreboards.h"
#include "closed_forms.h"
#include "reference_link_model.h"
#include "seed_tables.h"

using namespace creditloop;

namespace {

ChannelLinkConfig one_channel(int stages, int credits, int batch) { return single_channel_config(stages, credits, batch); }

// Seeds 000/001's set-up on one channel: a packet every cycle, drain every Nth cycle.
ChannelRunSpec seed_channel_run(int stages, int credits, int batch, int drain_every) {
    ChannelRunSpec spec;
    spec.config = one_channel(stages, credits, batch);
    spec.config.channels[0].traffic.drain_every = drain_every;
    spec.cycles = seeds::kSeedCycles;
    return spec;
}

std::vector<ChannelObservation> trace(const ChannelLinkConfig& config, uint64_t cycles, uint64_t seed = 1) {
    ChannelModel model(config);
    ChannelStimulus stimulus(config, seed);
    std::vector<ChannelObservation> out;
    for (uint64_t t = 0; t < cycles; ++t) {
        out.push_back(model.evaluate(stimulus.next(t)));
        stimulus.granted(out.back().grant);
        model.update();
    }
    return out;
}

}  // namespace

TEST_CASE("one channel of one-flit packets is today's link, cycle for cycle", "[channels][model]") {
    for (const auto& [stages, credits, batch, drain_every] :
         std::vector<std::array<int, 4>>{{4, 12, 1, 1}, {1, 2, 1, 1}, {4, 12, 4, 1}, {8, 6, 2, 2}, {2, 3, 1, 3}}) {
        INFO("L=" << stages << " B=" << credits << " K=" << batch << " drain every " << drain_every);
        ReferenceLinkModel reference(LinkConfig{stages, credits, batch, 32});
        reference.reset();
        ChannelLinkConfig config = one_channel(stages, credits, batch);
        ChannelModel model(config);
        for (uint64_t t = 0; t < 400; ++t) {
            LinkInputs li;
            li.want_send = true;
            li.payload = static_cast<uint32_t>(t);
            li.drain = t % static_cast<uint64_t>(drain_every) == 0;
            ChannelInputs ci;
            ci.have = 1;
            ci.bytes[0] = 1;
            ci.tag[0] = static_cast<uint32_t>(t) << 8;
            ci.drain = li.drain ? 1 : 0;
            const Observation& r = reference.evaluate(li);
            const ChannelObservation& o = model.evaluate(ci);
            INFO("cycle " << t);
            REQUIRE(o.send == r.send);
            REQUIRE(o.grant == (r.send ? 1u : 0u));
            REQUIRE(o.credits[0] == r.credits);
            REQUIRE(o.fwd_flits[0] == r.fwd_flits);
            REQUIRE(o.occupancy[0] == r.occupancy);
            REQUIRE((o.pop & 1u) == (r.pop ? 1u : 0u));
            REQUIRE(o.pending_returns[0] == r.pending_returns);
            REQUIRE(o.return_flight[0] == r.return_flight);
            REQUIRE(o.credits_arriving[0] == r.credits_arriving);
            REQUIRE(o.credits_returned[0] == r.credits_returned);
            reference.update();
            model.update();
        }
    }
}

TEST_CASE("one channel reproduces seed 001's and seed 000's tables to the printed digit", "[channels][model][seed001][seed000]") {
    for (const auto& row : seeds::kSeed001Rows) {
        for (size_t i = 0; i < seeds::kSeed001Buffers.size(); ++i) {
            const ChannelRunResult r =
                run_channels(nullptr, seed_channel_run(row.stages, seeds::kSeed001Buffers[i], 1, row.drain_every));
            INFO("L=" << row.stages << " B=" << seeds::kSeed001Buffers[i] << " drain every " << row.drain_every);
            CHECK(three_decimals(r.link_throughput) == row.throughput[i]);
            CHECK(r.passed);
        }
    }
    for (size_t i = 0; i < seeds::kSeed000Batches.size(); ++i) {
        const ChannelRunResult r =
            run_channels(nullptr, seed_channel_run(seeds::kSeed000Stages, seeds::kSeed000Buffer, seeds::kSeed000Batches[i], 1));
        INFO("K=" << seeds::kSeed000Batches[i]);
        CHECK(three_decimals(r.link_throughput) == seeds::kSeed000Throughput[i]);
        CHECK(r.passed);
    }
}

TEST_CASE("hand-worked trace: a three-flit packet holds the link, then round-robin", "[channels][model][trace]") {
    // L = 1. Channel A: 4 credits, one-byte unit, 3-byte packets (3 flits, 3 credits).
    // Channel B: 2 credits, 1-byte packets. Both saturate, both drain.
    ChannelLinkConfig c;
    c.stages = 1;
    ChannelSpec a, b;
    a.name = "A";
    a.credits = 4;
    a.traffic.min_bytes = a.traffic.max_bytes = 3;
    b.name = "B";
    b.credits = 2;
    c.channels = {a, b};
    const auto t = trace(c, 12);
    // Cycle 0: both eligible; channel 0 first after reset. All 3 of A's credits are taken.
    CHECK(t[0].eligible == 0b11);
    CHECK(t[0].grant == 0b01);
    CHECK(ChannelData::payload_channel(t[0].send_payload) == 0);   // the head flit carries A's tag
    // Cycles 1, 2: A's flits 1 and 2, no grant; 3 credits were taken at once, 2 reserved then 1.
    CHECK(t[1].grant == 0);
    CHECK(t[1].send);
    CHECK(t[1].send_payload == t[0].send_payload + 1);   // flit i carries tag + i
    CHECK(t[1].credits[0] == 1);
    CHECK(t[1].reserved[0] == 2);
    CHECK(t[2].send_payload == t[0].send_payload + 2);
    CHECK(t[2].reserved[0] == 1);
    // Cycle 3: B (round-robin after A); A has 1 + 1 returned credit, not the 3 it needs.
    CHECK(t[3].grant == 0b10);
    CHECK(t[3].send_lane == 1u);
    CHECK(ChannelData::payload_channel(t[3].send_payload) == 1);   // B's tag
    // A's head flit (sent 0) arrives in 1 (t + L), is popped in 2, its credit reaches the sender
    // in 3 (t + 2L + 1): A holds 1 + 1 + 1 = 3 in cycle 5 and is granted as soon as B is not.
    CHECK(t[3].credits_arriving[0] == 1);
    CHECK(t[4].credits[0] == 2);
    CHECK(t[4].grant == 0b10);   // B again: A still needs 3
    CHECK(t[5].credits[0] == 3);
    CHECK(t[5].grant == 0b01);
    for (const auto& o : t) {
        CHECK(pool_total(o, layout(c), 0) == 4);
        CHECK(pool_total(o, layout(c), 1) == 2);
    }
}

TEST_CASE("header and data credits are taken together (PCIe)", "[channels][model]") {
    ChannelLinkConfig c;
    c.stages = 2;
    c.shared_return = true;
    ChannelSpec p;
    p.name = "P";
    p.split = true;
    p.credits = 2;
    p.data_credits = 4;
    p.unit = 16;
    p.traffic.min_bytes = p.traffic.max_bytes = 48;   // one header flit + 3 data flits
    p.traffic.drain = 0.0;                             // nothing comes back
    c.channels = {p};
    const auto t = trace(c, 20);
    CHECK(t[0].grant == 1);
    CHECK(t[0].send_lane == 0u);                       // header lane
    for (int i = 1; i <= 3; ++i) {
        CHECK(t[i].send_lane == 1u);                   // data lane
        CHECK(t[i].grant == 0);
    }
    CHECK(t[1].credits[0] == 1);                       // one header credit
    CHECK(t[1].credits[1] == 1);                       // three data credits
    // Header credits remain (1) but the data pool has 1 < 3: the next packet waits whole.
    for (int i = 4; i < 20; ++i) {
        CHECK(t[i].eligible == 0);
        CHECK_FALSE(t[i].send);
    }
}

TEST_CASE("the presets run clean on the model", "[channels][model][presets]") {
    for (const auto& name : channel_presets()) {
        ChannelRunSpec spec;
        spec.config = *channel_preset(name);
        REQUIRE_FALSE(validate(spec.config));
        spec.cycles = 20000;
        const ChannelRunResult r = run_channels(nullptr, spec);
        INFO(name << ": " << (r.first_violation() ? r.first_violation()->check + " " + r.first_violation()->detail : ""));
        CHECK(r.passed);
        CHECK(r.link_throughput > 0.1);
        CHECK(r.longest_wait <= static_cast<int>(spec.config.channels.size()) - 1);
    }
}

TEST_CASE("head-of-line: per-channel pools keep min(share, B / RTT), a shared pool collapses", "[channels][model][hol]") {
    for (const auto& [channels, credits, stages] : std::vector<std::array<int, 3>>{{4, 4, 4}, {4, 2, 4}, {3, 8, 2}, {2, 3, 4}}) {
        const int rtt = round_trip_cycles(stages);
        ChannelRunSpec per;
        per.config = hol_config(channels, credits, stages, false);
        per.cycles = 6000;
        const ChannelRunResult r = run_channels(nullptr, per);
        INFO(channels << " channels, B = " << credits << ", L = " << stages);
        CHECK(r.passed);
        for (int c = 1; c < channels; ++c)
            CHECK(r.channels[c].throughput == Approx(hol_per_channel_throughput(channels - 1, credits, rtt)).margin(0.002));
        CHECK(r.channels[0].throughput == 0.0);
        ChannelRunSpec shared = per;
        shared.config = hol_config(channels, credits, stages, true);
        const ChannelRunResult s = run_channels(nullptr, shared);
        CHECK(s.passed);
        for (int c = 1; c < channels; ++c) CHECK(s.channels[c].throughput == hol_shared_pool_throughput());
    }
}

TEST_CASE("bad channel descriptions get one line naming the problem", "[channels][config]") {
    ChannelLinkConfig none;
    CHECK(validate(none)->find("no channels") != std::string::npos);
    ChannelLinkConfig zero = *channel_preset("ib");
    zero.channels[1].credits = 0;
    CHECK(validate(zero)->find("credits = 0") != std::string::npos);
    ChannelLinkConfig big = *channel_preset("pcie");
    big.channels[0].traffic.max_bytes = 1024;   // 64 data credits > 32
    CHECK(validate(big)->find("more than the pool") != std::string::npos);
    ChannelLinkConfig chi = *channel_preset("chi");
    chi.channels[3].credits = 16;
    CHECK(validate(chi)->find("at most 15") != std::string::npos);
    ChannelSpec spec;
    CHECK(apply_channel_text(spec, "name=REQ,credits=9,bytes=1-64,load=0.5").empty());
    CHECK(spec.credits == 9);
    CHECK(spec.traffic.max_bytes == 64);
    CHECK(apply_channel_text(spec, "colour=red").find("unknown key 'colour'") != std::string::npos);
    CHECK(apply_channel_text(spec, "credits=x").find("whole number") != std::string::npos);
}

TEST_CASE("packet cost is max(1, ceil(size / unit)) (seed 003's calc_credits)", "[channels][config]") {
    ChannelSpec plain;
    plain.unit = 16;
    CHECK(packet_cost(plain, 0).flits == 1);
    CHECK(packet_cost(plain, 16).header_credits == 1);
    CHECK(packet_cost(plain, 17).header_credits == 2);
    ChannelSpec split = plain;
    split.split = true;
    CHECK(packet_cost(split, 0).flits == 1);
    CHECK(packet_cost(split, 0).data_credits == 0);
    CHECK(packet_cost(split, 256).data_credits == 16);
    CHECK(packet_cost(split, 256).flits == 17);
}

// ---- each check fires on a fault it exists for

namespace {
ChannelLinkConfig two_plain() {
    ChannelLinkConfig c = hol_config(2, 4, 2, false);
    c.channels[0].traffic.drain = 1.0;
    return c;
}
ChannelObservation idle(const ChannelLinkConfig& c, uint64_t cycle) {
    ChannelObservation o;
    o.cycle = cycle;
    const ChannelLayout l = layout(c);
    for (int p = 0; p < l.pools; ++p) o.credits[p] = static_cast<uint32_t>(l.pool_credits[p]);
    return o;
}
bool fired(const ChannelScoreboard& board, const std::string& check, uint64_t cycle) {
    return !board.violations().empty() && board.violations().front().check == check &&
           board.violations().front().cycle == cycle;
}
}  // namespace

TEST_CASE("conservation names a credit returned to the wrong pool", "[channels][scoreboards]") {
    const auto c = two_plain();
    ChannelConservation board(c);
    board.step(idle(c, 0));
    ChannelObservation o = idle(c, 1);
    o.credits[0] = 3;   // pool C0 one short
    o.credits[1] = 5;   // pool C1 one over
    board.step(o);
    REQUIRE(fired(board, "conservation.pool", 1));
    CHECK(board.violations().front().detail.find("went to the other") != std::string::npos);
    CHECK(board.violations()[1].check == "conservation.pool");    // and pool C1 over
    CHECK(board.violations()[2].check == "conservation.grant");   // 5 > 4 as well
}

TEST_CASE("data catches order, phantoms and flits crossing channels", "[channels][scoreboards]") {
    const auto c = two_plain();
    ChannelData board(c);
    ChannelObservation o = idle(c, 0);
    o.send = 1;
    o.send_lane = 1;
    o.send_payload = 0x00000100;   // channel 0's flit on channel 1's lane
    board.step(o);
    CHECK(fired(board, "data.cross_channel", 0));
    // A tag names its channel as bits 27:24 XOR bits 31:28: 0xA ^ 0xB = 1, 0x7 ^ 0x7 = 0.
    CHECK(ChannelData::payload_channel(0xAB123456u) == 1);
    CHECK(ChannelData::payload_channel(0x77ffffffu) == 0);
    ChannelData crossed(c);
    o.send_payload = 0xAB000000u;   // channel 1's flit on channel 1's lane: no violation
    crossed.step(o);
    CHECK(crossed.violations().empty());
    ChannelData order(c);
    for (uint32_t i = 0; i < 2; ++i) {
        ChannelObservation s = idle(c, i);
        s.send = 1;
        s.send_lane = 0;
        s.send_payload = i << 8;
        order.step(s);
    }
    ChannelObservation p = idle(c, 5);
    p.pop = 1;
    p.pop_payload[0] = 1u << 8;   // the second flit first
    order.step(p);
    // Both still on the forward path (sent, not arrived): the second overtook the first.
    CHECK(fired(order, "data.order", 5));
    ChannelData phantom(c);
    ChannelObservation q = idle(c, 3);
    q.pop = 2;
    q.pop_payload[1] = 0x10000000;
    phantom.step(q);
    CHECK(fired(phantom, "data.corrupt", 3));   // nothing was sent to lane 1
    CHECK(phantom.violations().front().detail.find("never sent") != std::string::npos);
}

// Hand-worked, as the single link's (test_recovery.cpp): L = 2, one credit, a packet every cycle.
// The credit sent in 0 is popped in 3 and its message reaches the sender in 5 (2L + 1), where it
// is dropped; from 6 pool C0 holds nothing anywhere. Its bound is 2 (RTT + K - 1) = 2 (6 + 0) =
// 12, so the watchdog speaks in the 13th starved cycle, 18. The quiet pool C1 never starves.
TEST_CASE("starvation names the one pool a lost message starved, at its bound", "[channels][scoreboards][starvation]") {
    ChannelRunSpec spec;
    spec.config = single_channel_config(2, 1, 1);
    ChannelSpec quiet;
    quiet.name = "C1";
    quiet.credits = 2;
    quiet.traffic.load = 0.0;
    spec.config.channels.push_back(quiet);
    spec.cycles = 40;
    spec.faults.drop_at = 5;
    const ChannelRunResult r = run_channels(nullptr, spec);
    CHECK_FALSE(r.passed);
    const Violation* starved = nullptr;
    for (const auto& v : r.violations)
        if (v.check == "starvation") {
            CHECK(starved == nullptr);   // once, for the one pool
            starved = &v;
        }
    REQUIRE(starved != nullptr);
    CHECK(starved->cycle == 18);
    CHECK(starved->signal.find("C0") != std::string::npos);
    CHECK(starved->detail.find("pool C0 held at 0 credits since cycle 6") != std::string::npos);
    CHECK(starved->detail.find("1 credit missing") != std::string::npos);
}

// Each lane keeps the single link's data classes, counted from the lane's own flits: a flit
// that vanished from the lane's buffer is lost (not out of order), a second copy is a duplicate,
// and a flit neither delivered nor in the link at the end is lost.
TEST_CASE("data names a lost flit, a second copy and a flit gone by the end, per lane", "[channels][scoreboards]") {
    const auto c = two_plain();
    const uint32_t a = 0x00000100, b = 0x00000200;   // two flits of channel 0 (bits 27:24 ^ 31:28 = 0)
    ChannelData board(c);
    ChannelObservation o = idle(c, 0);
    o.send = 1;
    o.send_lane = 0;
    o.send_payload = a;
    board.step(o);
    o = idle(c, 1);
    o.send = 1;
    o.send_lane = 0;
    o.send_payload = b;
    board.step(o);
    o = idle(c, 2);
    o.arrive = 1;   // a reaches lane 0
    board.step(o);
    o = idle(c, 3);
    o.occupancy[0] = 0;   // ... and is gone from it as b arrives
    o.arrive = 1;
    board.step(o);
    o = idle(c, 4);
    o.occupancy[0] = 1;
    o.pop = 1;
    o.pop_payload[0] = b;
    board.step(o);
    REQUIRE(fired(board, "data.lost", 4));
    CHECK(board.violations().front().detail.find("0x00000100 was skipped") != std::string::npos);
    o = idle(c, 5);
    o.pop = 1;
    o.pop_payload[0] = b;   // b again: nothing is due, b was delivered
    board.step(o);
    REQUIRE(board.violations().size() == 2);
    CHECK(board.violations()[1].check == "data.duplicate");
    CHECK(board.violations()[1].cycle == 5);

    ChannelData gone(c);
    o = idle(c, 0);
    o.send = 1;
    o.send_lane = 1;
    o.send_payload = 0x01000000;   // channel 1's
    gone.step(o);
    o = idle(c, 1);
    o.arrive = 1;
    o.arrive_lane = 1;
    gone.step(o);
    gone.step(idle(c, 2));   // lane 1 holds nothing: the flit is neither delivered nor in the link
    gone.finish();
    REQUIRE(fired(gone, "data.lost", 2));
    CHECK(gone.violations().front().detail == "1 flit sent and never delivered, and no longer in the link");
}

TEST_CASE("fairness catches a grant without credits, an idle arbiter and starvation", "[channels][scoreboards]") {
    ChannelLinkConfig c = hol_config(3, 4, 2, false);
    ChannelFairness ineligible(c);
    ChannelObservation o = idle(c, 2);
    o.eligible = 0b001;
    o.grant = 0b010;
    o.send = 1;
    ineligible.step(o);
    CHECK(fired(ineligible, "fairness.ineligible", 2));
    ChannelFairness stall(c);
    ChannelObservation s = idle(c, 4);
    s.eligible = 0b100;
    stall.step(s);
    CHECK(fired(stall, "fairness.idle", 4));
    ChannelFairness starve(c);
    for (uint64_t t = 0; t < 3; ++t) {   // channel 2 eligible throughout, 0 and 1 take turns
        ChannelObservation g = idle(c, t);
        g.eligible = 0b111;
        g.grant = t % 2 ? 0b010 : 0b001;
        g.send = 1;
        starve.step(g);
    }
    CHECK(fired(starve, "fairness.starved", 2));   // the third grant to others: N - 1 = 2 exceeded
}

TEST_CASE("sizing catches a pool carrying more than B / RTT", "[channels][scoreboards]") {
    ChannelLinkConfig c = hol_config(1, 2, 4, false);   // B / RTT = 0.2
    ChannelSizing board(c, 0);
    for (uint64_t t = 0; t < 100; ++t) {
        ChannelObservation o = idle(c, t);
        o.send = t % 2 == 0;   // 0.5 flits per cycle
        board.step(o);
    }
    board.finish();
    REQUIRE(board.violation_count() == 1);
    CHECK(board.violations().front().check == "sizing.round_trip");
}

TEST_CASE("lockstep reports the first divergent signal by pool name", "[channels][scoreboards]") {
    const auto c = *channel_preset("pcie");
    ChannelLockstep board(c);
    ChannelObservation model = idle(c, 7), rtl = idle(c, 7);
    rtl.credits[3] = 1;
    board.expect(model);
    board.step(rtl);
    REQUIRE(fired(board, "lockstep", 7));
    CHECK(board.violations().front().signal == "link.pool.NP.data.credits");
}

TEST_CASE("one channel with faults, with and without recovery, is today's link, cycle for cycle", "[channels][model][recovery]") {
    for (bool recovery : {false, true}) {
        for (const auto& [stages, credits, batch] : std::vector<std::array<int, 3>>{{4, 12, 1}, {2, 5, 2}, {3, 8, 8}}) {
            INFO("recovery " << recovery << " L=" << stages << " B=" << credits << " K=" << batch);
            LinkConfig link{stages, credits, batch, 32};
            ChannelLinkConfig channels = one_channel(stages, credits, batch);
            if (recovery) {
                link.recovery = channels.recovery = true;
                link.total_bits = channels.total_bits = 5;
                link.resend_period = channels.resend_period = 7;
            }
            ReferenceLinkModel reference(link);
            reference.reset();
            ChannelModel model(channels);
            Rng rng(99);
            for (uint64_t t = 0; t < 3000; ++t) {
                // Bursts of traffic, and faults at random (they act only on an arriving message).
                const bool want = (t / 16) % 3 != 2;
                const bool drop = rng.chance(0.1);
                const uint32_t add = rng.chance(0.05) ? 1 + static_cast<uint32_t>(rng.next() % 3) : 0;
                LinkInputs li;
                li.want_send = want;
                li.drain = true;
                li.fault_drop = drop;
                li.fault_add = add;
                ChannelInputs ci;
                ci.have = want ? 1 : 0;
                ci.bytes[0] = 1;
                ci.drain = 1;
                ci.fault_drop = drop ? 1 : 0;
                ci.fault_corrupt = add ? 1 : 0;
                ci.fault_add = add;
                const Observation& r = reference.evaluate(li);
                const ChannelObservation& o = model.evaluate(ci);
                INFO("cycle " << t);
                REQUIRE(o.send == r.send);
                REQUIRE(o.credits[0] == r.credits);
                REQUIRE(o.credits_arriving[0] == r.credits_arriving);
                REQUIRE(o.credits_returned[0] == r.credits_returned);
                REQUIRE(o.return_waiting[0] == r.return_waiting);
                REQUIRE(o.return_flight[0] == r.return_flight);
                REQUIRE(o.pending_returns[0] == r.pending_returns);
                REQUIRE((o.return_message & 1u) == (r.return_message ? 1u : 0u));
                REQUIRE((o.update_refused & 1u) == (r.update_refused ? 1u : 0u));
                reference.update();
                model.update();
            }
        }
    }
}

TEST_CASE("per pool: recovery heals lost updates on every preset; without it the loss is named by pool", "[channels][model][recovery]") {
    for (const auto& name : channel_presets()) {
        ChannelRunSpec spec{*channel_preset(name), 20000, 3};
        spec.config.recovery = true;
        spec.config.total_bits = 7;   // 2^7 > 2 x 32, the largest pool
        spec.config.resend_period = 16;
        spec.faults.drop_probability = 0.1;
        const ChannelRunResult healed = run_channels(nullptr, spec);
        INFO(name << ": " << (healed.first_violation() ? healed.first_violation()->check : ""));
        CHECK(healed.passed);
        CHECK(healed.faults.size() > 100);
    }
    ChannelRunSpec lost{*channel_preset("pcie"), 4000, 1};
    lost.faults.drop_at = 300;
    const ChannelRunResult r = run_channels(nullptr, lost);
    CHECK_FALSE(r.passed);
    REQUIRE(r.first_violation());
    CHECK(r.first_violation()->check == "conservation.injected_loss");
    REQUIRE(r.faults.size() == 1);
    const ChannelLayout l = layout(lost.config);
    CHECK(r.first_violation()->signal == "link.pool." + pool_name(lost.config, l, r.faults[0].pool) + ".total");
    CHECK(r.first_violation()->cycle == r.faults[0].cycle + 1);
}
