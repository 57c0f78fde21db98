// The four scoreboards against independent references: the seeds' printed tables, the closed
// forms, and cycle traces worked by hand from the seeds' slot-by-slot descriptions. Every check
// is shown to fire on a fault a real RTL bug would cause (tests/model_probe.h), and the clean
// golden model passes all four on the seeds' configurations.
//
// Timing used in the hand-worked traces (seed 001's step list, L stages, drain every cycle):
// a flit sent in cycle s arrives in cycle s + L, is popped in s + L + 1 (its credit is returned
// in the same cycle), the credit reaches the sender in s + 2L + 1 and can be spent in s + 2L + 2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "closed_forms.h"
#include "conservation.h"
#include "credit_loop_model.h"
#include "data_integrity.h"
#include "lockstep.h"
#include "model_probe.h"
#include "ring_queue.h"
#include "seed_tables.h"
#include "sizing.h"

using namespace creditloop;
using namespace creditloop::faults;

namespace {

// A distinct payload per cycle, so a distinct one per flit: murmur3's fmix32, a bijection on
// 32-bit values (of cycle + 1, so that no flit carries 0, the value of an idle payload port).
uint32_t payload_of(uint64_t cycle) {
    uint32_t h = static_cast<uint32_t>(cycle + 1);
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h;
}

std::string hex(uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", value);
    return text;
}

std::string fixed3(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", value);
    return text;
}

using InputsAt = std::function<LinkInputs(uint64_t cycle)>;

// The seeds' source: always offering; the consumer drains when cycle % drain_every == 0
// (drain_every = 0: never).
InputsAt saturating(int drain_every = 1) {
    return [drain_every](uint64_t t) {
        return LinkInputs{true, payload_of(t), drain_every > 0 && t % drain_every == 0, false};
    };
}

LinkConfig make_link(int stages, int buffer_slots, int batch = 1) {
    return LinkConfig{stages, buffer_slots, batch, 32};
}

// One cycle of a (possibly faulty) model: the observation the scoreboards see, then the edge.
Observation run_cycle(ReferenceLinkModel& model, Fault& fault, const LinkInputs& in) {
    model.evaluate(in);
    fault.after_evaluate(model, in);
    const Observation obs = ModelProbe::events(model);
    model.update();
    fault.after_update(model);
    return obs;
}

// Run `cycles` cycles from reset, feeding each observation to `boards`, then finish() them.
std::vector<Observation> run(const LinkConfig& config, Fault& fault, uint64_t cycles,
                             const InputsAt& inputs, const std::vector<Scoreboard*>& boards) {
    ReferenceLinkModel model(config);
    fault.after_reset(model);
    std::vector<Observation> trace;
    trace.reserve(cycles);
    for (uint64_t t = 0; t < cycles; ++t) {
        trace.push_back(run_cycle(model, fault, inputs(t)));
        for (Scoreboard* board : boards) board->step(trace.back());
    }
    for (Scoreboard* board : boards) board->finish();
    return trace;
}

// The golden model as the reference and `fault` on a second model as the "RTL", same inputs.
void run_lockstep(const LinkConfig& config, Fault& fault, uint64_t cycles, const InputsAt& inputs,
                  LockstepScoreboard& lockstep, const std::vector<Scoreboard*>& rtl_boards = {}) {
    CreditLoopModel golden(config);
    ReferenceLinkModel rtl(config);
    fault.after_reset(rtl);
    for (uint64_t t = 0; t < cycles; ++t) {
        const LinkInputs in = inputs(t);
        const Observation expected = golden.evaluate(in);
        golden.update();
        const Observation got = run_cycle(rtl, fault, in);
        lockstep.expect(expected);
        lockstep.step(got);
        for (Scoreboard* board : rtl_boards) board->step(got);
    }
    lockstep.finish();
    for (Scoreboard* board : rtl_boards) board->finish();
}

uint64_t sends_in(const std::vector<Observation>& trace, uint64_t first, uint64_t last) {
    uint64_t sends = 0;
    for (uint64_t t = first; t <= last; ++t) sends += trace.at(t).send;
    return sends;
}

std::vector<Violation> with_check(const Scoreboard& board, const std::string& check) {
    std::vector<Violation> out;
    for (const auto& v : board.violations())
        if (v.check == check) out.push_back(v);
    return out;
}

bool starts_with(const std::string& text, const std::string& prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// All four scoreboards on one configuration of the golden model.
struct CleanRun {
    ConservationScoreboard conservation;
    DataIntegrityScoreboard data;
    SizingScoreboard sizing;
    LockstepScoreboard lockstep;

    CleanRun(const LinkConfig& config, uint64_t cycles, int drain_every, bool declared_full_rate)
        : conservation(config),
          data(config),
          sizing(SizingSpec{config, cycles, declared_full_rate, drain_every == 1}) {
        NoFault none;
        run_lockstep(config, none, cycles, saturating(drain_every), lockstep,
                     {&conservation, &data, &sizing});
    }
    bool all_ok() const { return conservation.ok() && data.ok() && sizing.ok() && lockstep.ok(); }
};

}  // namespace

// ---- the clean golden model passes on the seeds' configurations --------------------------------

TEST_CASE("clean model passes all four scoreboards on seed 001's configurations and measures the round trip",
          "[scoreboard][sizing][seed001]") {
    // Seed 001's configurations (6000 cycles, the window the second half). The printed
    // throughputs are checked on the model in test_model_tables.cpp and on the RTL by the
    // regression; here the scoreboards must pass a clean run and measure the loop it built.
    for (const auto& row : seeds::kSeed001Rows) {
        for (const int b : seeds::kSeed001Buffers) {
            const int rtt = round_trip_cycles(row.stages);
            const bool full_rate = row.drain_every == 1 && b >= full_rate_buffer(rtt, 1);
            CAPTURE(row.stages, b, row.drain_every, full_rate);
            CleanRun run(make_link(row.stages, b), 6000, row.drain_every, full_rate);
            CHECK(run.all_ok());
            CHECK(run.conservation.summary() == "conservation: 6,000 cycles checked, 0 violations");
            CHECK(run.sizing.window_cycles() == 3000);
            REQUIRE(run.sizing.measured_round_trip());
            if (row.drain_every == 1)
                CHECK(*run.sizing.measured_round_trip() == static_cast<uint64_t>(rtt));
            else
                CHECK(*run.sizing.measured_round_trip() >= static_cast<uint64_t>(rtt));
        }
    }
}

TEST_CASE("clean model passes with batched returns - seed 000's prediction B / (RTT + K - 1)",
          "[scoreboard][sizing][seed000]") {
    // Seed 000: L = 4, B = 12, batches of K; the sizing prediction is the formula
    // min(1, 12 / (10 + K - 1)), which stranded credits undercut at K = 8 (the measured 0.615 is
    // checked with the table, in test_model_tables.cpp).
    for (const int k : seeds::kSeed000Batches) {
        const bool full_rate = 12 >= full_rate_buffer(10, k);
        CAPTURE(k, full_rate);
        CleanRun run(make_link(4, 12, k), 6000, 1, full_rate);
        CHECK(run.all_ok());
        CHECK(fixed3(run.sizing.predicted_throughput()) == fixed3(std::min(1.0, 12.0 / (10 + k - 1))));
        CHECK(run.sizing.measured_throughput() <= run.sizing.predicted_throughput() + 0.002);
        REQUIRE(run.sizing.measured_round_trip());
        CHECK(*run.sizing.measured_round_trip() == 10u);   // the batch's last flit waits for no one
    }
}

TEST_CASE("summary is one line with thousands separators", "[scoreboard][conservation]") {
    CleanRun run(make_link(4, 12), 1000, 1, true);
    CHECK(run.conservation.summary() == "conservation: 1,000 cycles checked, 0 violations");
    CHECK(run.data.summary() == "data: 1,000 cycles checked, 0 violations");
    CHECK(run.sizing.summary() == "sizing: 1,000 cycles checked, 0 violations");
    CHECK(run.lockstep.summary() == "lockstep: 1,000 cycles checked, 0 violations");
}

// ---- conservation ------------------------------------------------------------------------------

TEST_CASE("seed 004's if/else-if counter: the conservation total flags the first lost credit",
          "[scoreboard][conservation][seed004]") {
    // Seed 004: L = 2, B = 4, saturating, drain every cycle. Sends in slots 0-3, the first credit
    // back in slot 5, send and return coincide in slots 6 and 8: the credit dropped in slot 6
    // shows in the total at the start of cycle 7, the one dropped in slot 8 at cycle 9.
    const LinkConfig config = make_link(2, 4);
    ConservationScoreboard conservation(config);
    DataIntegrityScoreboard data(config);
    LeakOnSendAndReturn leak;
    const auto trace = run(config, leak, 60, saturating(), {&conservation, &data});

    REQUIRE(conservation.first_violation_cycle() == 7u);
    REQUIRE(conservation.violations().size() == 2);
    const Violation& first = conservation.violations()[0];
    CHECK(first.cycle == 7);
    CHECK(first.check == "conservation.total");
    CHECK(first.signal == "link.total_credits");
    CHECK(first.expected == "4");
    CHECK(first.got == "3");
    CHECK(starts_with(first.detail, "1 credit lost"));
    const Violation& second = conservation.violations()[1];
    CHECK(second.cycle == 9);
    CHECK(second.got == "2");
    CHECK(starts_with(second.detail, "1 credit lost"));

    // "2 of 4 credits leaked", and the throughput per 6-cycle round trip falls from 4 to 2.
    CHECK(conservation.net_change() == -2);
    CHECK(conservation.credits_lost() == 2);
    CHECK(conservation.credits_created() == 0);
    CHECK(conservation.buffer_slots() == 4);
    CHECK(sends_in(trace, 0, 5) == 4);
    CHECK(sends_in(trace, 40, 45) == 2);
    CHECK(conservation.summary() == "conservation: 60 cycles checked, 2 violations");

    // Only credits leak: every flit is still delivered once, in order.
    CHECK(data.ok());
}

TEST_CASE("a return counted twice: conservation.total - conservation.grant and sizing.rate_bound",
          "[scoreboard][conservation][sizing]") {
    // L = 2, B = 4: the counter becomes credits - send + 2 * arriving when a send and a return
    // coincide. Slot 6 is the first such cycle (credits 1 -> 2), then slots 7, 8 (-> 3, 4); slots 9
    // and 10 only send (-> 3, 2); from slot 11 every slot both sends and receives (-> 3, 4, 5).
    const LinkConfig config = make_link(2, 4);
    ConservationScoreboard conservation(config);
    DataIntegrityScoreboard data(config);
    SizingScoreboard sizing(SizingSpec{config, 40, false, true});
    DoubleCountOnSendAndReturn fault;
    run(config, fault, 40, saturating(), {&conservation, &data, &sizing});

    const auto totals = with_check(conservation, "conservation.total");
    REQUIRE(totals.size() >= 4);
    CHECK(totals[0].cycle == 7);
    CHECK(totals[0].got == "5");
    CHECK(starts_with(totals[0].detail, "1 credit created"));
    CHECK(totals[1].cycle == 8);
    CHECK(totals[1].got == "6");
    CHECK(totals[2].cycle == 9);
    CHECK(totals[3].cycle == 12);   // slots 9 and 10 create nothing
    CHECK(conservation.first_violation_cycle() == 7u);

    const auto grants = with_check(conservation, "conservation.grant");
    REQUIRE(grants.size() == 1);   // once per excursion above B
    CHECK(grants[0].cycle == 14);
    CHECK(grants[0].signal == "link.sender.credits");
    CHECK(grants[0].expected == "<= 4");
    CHECK(grants[0].got == "5");

    // Sends in slots 0-3 and every slot from 6: cycles 5..10 hold 5 > B sends.
    const auto rate = with_check(sizing, "sizing.rate_bound");
    REQUIRE(rate.size() == 1);
    CHECK(rate[0].cycle == 10);
    CHECK(rate[0].got == "5");
    CHECK(data.ok());
}

TEST_CASE("a send with no credit: conservation.send_at_zero", "[scoreboard][conservation]") {
    // L = 2, B = 4, send gated by a one-cycle-stale can_send: slots 0-3 spend the four credits,
    // slot 4 sends at zero (the stale can_send still says credits = 1).
    const LinkConfig config = make_link(2, 4);
    ConservationScoreboard conservation(config);
    StaleCanSend fault;
    run(config, fault, 20, saturating(), {&conservation});

    REQUIRE(!conservation.violations().empty());
    const Violation& first = conservation.violations()[0];
    CHECK(first.cycle == 4);
    CHECK(first.check == "conservation.send_at_zero");
    CHECK(first.signal == "link.sender.send");
    // The counter wrapped below zero: the sender now claims far more than B credits.
    const auto grants = with_check(conservation, "conservation.grant");
    REQUIRE(grants.size() == 1);
    CHECK(grants[0].cycle == 5);
}

TEST_CASE("a credit returned for a drain request with nothing popped: conservation.receiver_returns",
          "[scoreboard][conservation]") {
    // L = 2, B = 4, drain every cycle: in cycle 0 the consumer asks, the buffer is empty, and the
    // faulty return logic still returns a credit; it is on the return path at the start of cycle 1.
    const LinkConfig config = make_link(2, 4);
    ConservationScoreboard conservation(config);
    ReturnOnDrainRequest fault;
    run(config, fault, 20, saturating(), {&conservation});

    REQUIRE(!conservation.violations().empty());
    const Violation& first = conservation.violations()[0];
    CHECK(first.cycle == 0);
    CHECK(first.check == "conservation.receiver_returns");
    CHECK(first.signal == "link.ret.credits_returned");
    CHECK(first.got == "1");
    const auto totals = with_check(conservation, "conservation.total");
    REQUIRE(!totals.empty());
    CHECK(totals[0].cycle == 1);
    CHECK(totals[0].got == "5");
    CHECK(starts_with(totals[0].detail, "1 credit created"));
}

TEST_CASE("a sender reset to B + 1 credits: grant at reset - overflow and a flit lost for good",
          "[scoreboard][conservation][data]") {
    // L = 2, B = 4, the consumer never drains. Five sends in slots 0-4 arrive in slots 2-6; the
    // fifth finds all four slots full in slot 6 and is dropped, taking the extra credit with it.
    const LinkConfig config = make_link(2, 4);
    ConservationScoreboard conservation(config);
    DataIntegrityScoreboard data(config);
    WrongResetCredits fault(5);
    run(config, fault, 20, saturating(0), {&conservation, &data});

    const auto grants = with_check(conservation, "conservation.grant");
    REQUIRE(grants.size() == 1);
    CHECK(grants[0].cycle == 0);
    CHECK(grants[0].got == "5");

    const auto totals = with_check(conservation, "conservation.total");
    REQUIRE(totals.size() == 2);
    CHECK(totals[0].cycle == 0);
    CHECK(starts_with(totals[0].detail, "1 credit created"));
    CHECK(totals[1].cycle == 7);
    CHECK(totals[1].got == "4");
    CHECK(starts_with(totals[1].detail, "1 credit lost"));
    CHECK(conservation.net_change() == 0);
    CHECK(conservation.credits_created() == 1);
    CHECK(conservation.credits_lost() == 1);

    const auto overflows = with_check(conservation, "conservation.overflow");
    REQUIRE(overflows.size() == 1);
    CHECK(overflows[0].cycle == 6);
    CHECK(overflows[0].signal == "link.rx.overflow");

    // Five sent, four in the buffer at the end, none popped: one flit lost, found at finish().
    REQUIRE(data.violations().size() == 1);
    CHECK(data.violations()[0].check == "data.lost");
    CHECK(data.violations()[0].cycle == 19);
    CHECK(data.flits_lost() == 1);
    CHECK(data.flits_sent() == 5);
}

// ---- data integrity ----------------------------------------------------------------------------

TEST_CASE("a flit lost between the forward path and the buffer: data.lost and conservation.total",
          "[scoreboard][data][conservation]") {
    // L = 2, B = 4, drain every cycle; a push that coincides with a pop is lost. Flits of slots
    // 0-3 arrive in slots 2-5; slot 3 pops flit 0 as flit 1 arrives (lost), slot 5 pops flit 2 as
    // flit 3 arrives (lost). The credits of the two returned flits send again in slots 6 and 8.
    const LinkConfig config = make_link(2, 4);
    ConservationScoreboard conservation(config);
    DataIntegrityScoreboard data(config);
    FlitLostOnPushDuringPop fault;
    run(config, fault, 40, saturating(), {&conservation, &data});

    REQUIRE(conservation.violations().size() == 2);
    CHECK(conservation.first_violation_cycle() == 4u);
    CHECK(conservation.violations()[0].check == "conservation.total");
    CHECK(conservation.violations()[1].cycle == 6);
    CHECK(conservation.net_change() == -2);

    REQUIRE(data.violations().size() == 2);
    const Violation& first = data.violations()[0];
    CHECK(first.cycle == 5);   // flit 2 popped while flit 1 was due
    CHECK(first.check == "data.lost");
    CHECK(first.signal == "link.rx.pop_payload");
    CHECK(first.expected == hex(payload_of(1)));
    CHECK(first.got == hex(payload_of(2)));
    CHECK(starts_with(first.detail, "1 flit lost"));
    const Violation& second = data.violations()[1];
    CHECK(second.cycle == 9);   // the flit sent in slot 6 popped while flit 3 was due
    CHECK(second.expected == hex(payload_of(3)));
    CHECK(second.got == hex(payload_of(6)));
    CHECK(data.flits_lost() == 2);
}

TEST_CASE("two buffered flits swapped: data.order and nothing else", "[scoreboard][data]") {
    // L = 2, B = 4, drain in even cycles. Flits 0 and 1 arrive in slots 2 and 3 (slot 2's drain
    // finds the buffer empty), so the buffer holds [0, 1] at the start of cycle 4, swapped by the
    // fault to [1, 0]: cycle 4 pops flit 1 while flit 0 is still there; cycle 6 pops flit 0.
    const LinkConfig config = make_link(2, 4);
    ConservationScoreboard conservation(config);
    DataIntegrityScoreboard data(config);
    SwapOldestSlotsOnce fault;
    run(config, fault, 40, saturating(2), {&conservation, &data});

    REQUIRE(data.violations().size() == 1);
    const Violation& v = data.violations()[0];
    CHECK(v.cycle == 4);
    CHECK(v.check == "data.order");
    CHECK(v.expected == hex(payload_of(0)));
    CHECK(v.got == hex(payload_of(1)));
    CHECK(data.flits_lost() == 0);
    CHECK(conservation.ok());
}

TEST_CASE("a read pointer that sticks: data.duplicate - then data.lost - counts stay conserved",
          "[scoreboard][data]") {
    // L = 2, B = 4, drain in even cycles. Slot 4 pops flit 0 as flit 2 arrives and the read
    // pointer stays: the buffer reads [0, 1] at cycle 5, and slot 5's push of flit 3 overwrites
    // flit 2. Cycle 6 delivers flit 0 again; cycle 8 flit 1; cycle 10 flit 3 while flit 2 is due.
    const LinkConfig config = make_link(2, 4);
    ConservationScoreboard conservation(config);
    DataIntegrityScoreboard data(config);
    ReadPointerStuckOnPushDuringPop fault;
    run(config, fault, 40, saturating(2), {&conservation, &data});

    REQUIRE(data.violations().size() == 2);
    const Violation& dup = data.violations()[0];
    CHECK(dup.cycle == 6);
    CHECK(dup.check == "data.duplicate");
    CHECK(dup.expected == hex(payload_of(1)));
    CHECK(dup.got == hex(payload_of(0)));
    const Violation& lost = data.violations()[1];
    CHECK(lost.cycle == 10);
    CHECK(lost.check == "data.lost");
    CHECK(lost.expected == hex(payload_of(2)));
    CHECK(lost.got == hex(payload_of(3)));
    // Occupancy is counted right, so no credit goes missing: only the data check sees this bug.
    CHECK(conservation.ok());
}

TEST_CASE("a bit flipped in the buffer: data.corrupt", "[scoreboard][data]") {
    // L = 2, B = 4, drain every cycle: at the start of cycle 4 the buffer holds flit 1 alone.
    const LinkConfig config = make_link(2, 4);
    DataIntegrityScoreboard data(config);
    FlipHeadBit fault(3, 0x80u);
    run(config, fault, 20, saturating(), {&data});

    REQUIRE(data.violations().size() == 1);
    const Violation& v = data.violations()[0];
    CHECK(v.cycle == 4);
    CHECK(v.check == "data.corrupt");
    CHECK(v.expected == hex(payload_of(1)));
    CHECK(v.got == hex(payload_of(1) ^ 0x80u));
    CHECK(contains(v.detail, "0x00000080"));
}

TEST_CASE("data compares payloads under the W-bit mask", "[scoreboard][data]") {
    DataIntegrityScoreboard data(LinkConfig{1, 4, 1, 8});
    Observation sent;
    sent.cycle = 0;
    sent.send = true;
    sent.send_payload = 0x12345678u;   // the source's value; the link carries 8 bits
    data.step(sent);
    Observation popped;
    popped.cycle = 2;
    popped.occupancy = 1;
    popped.pop = true;
    popped.pop_payload = 0x78u;
    data.step(popped);
    data.finish();
    CHECK(data.ok());
    CHECK(data.flits_delivered() == 1);
}

// ---- sizing ------------------------------------------------------------------------------------

TEST_CASE("seed 001's late timing fix: functionally correct - sizing fails with B >= 12 and 0.667",
          "[scoreboard][sizing][seed001]") {
    // L = 5, B = 8 declared full rate: RTT = 12, so sends come in bursts of 8 every 12 cycles
    // from cycle 0; the credit of slot 0 arrives in slot 11. The window [1200, 2400) is 100 round
    // trips: 800 sends, and its first dry cycle is 1200 + 8.
    const LinkConfig config = make_link(5, 8);
    CleanRun run(config, 2400, 1, true);
    CHECK(run.conservation.ok());
    CHECK(run.data.ok());
    CHECK(run.lockstep.ok());

    REQUIRE(run.sizing.measured_round_trip() == 12u);
    CHECK(run.sizing.window_sends() == 800);
    CHECK(run.sizing.window_cycles() == 1200);
    CHECK(fixed3(run.sizing.measured_throughput()) == "0.667");
    CHECK(fixed3(run.sizing.predicted_throughput()) == "0.667");
    CHECK(run.sizing.first_stall_cycle() == 1208u);

    REQUIRE(run.sizing.violations().size() == 2);
    const auto buffer = with_check(run.sizing, "sizing.buffer");
    REQUIRE(buffer.size() == 1);
    CHECK(buffer[0].cycle == 11);
    CHECK(buffer[0].expected == "B >= 12");
    CHECK(buffer[0].got == "B = 8");
    CHECK(contains(buffer[0].detail, "B >= RTT + K - 1 = 12"));
    const auto throughput = with_check(run.sizing, "sizing.throughput");
    REQUIRE(throughput.size() == 1);
    CHECK(throughput[0].cycle == 1208);
    CHECK(contains(throughput[0].detail, "measured 0.667 vs 1.000"));

    SECTION("before the fix, L = 3 and B = 8 cover RTT = 8: everything passes at 1.000") {
        CleanRun before(make_link(3, 8), 2400, 1, true);
        CHECK(before.all_ok());
        CHECK(before.sizing.measured_round_trip() == 8u);
        CHECK(fixed3(before.sizing.measured_throughput()) == "1.000");
        CHECK(!before.sizing.first_stall_cycle());
    }
}

TEST_CASE("a loop one stage longer each way than declared: sizing.round_trip", "[scoreboard][sizing]") {
    // The RTL was built with L = 5 but the spec says L = 4 (RTT 10). B = 12 still covers the real
    // RTT of 12, so only the round-trip check sees it: the credit of slot 0 arrives in slot 11.
    SizingScoreboard sizing(SizingSpec{make_link(4, 12), 400, true, true});
    NoFault none;
    run(make_link(5, 12), none, 400, saturating(), {&sizing});

    REQUIRE(sizing.violations().size() == 1);
    const Violation& v = sizing.violations()[0];
    CHECK(v.check == "sizing.round_trip");
    CHECK(v.cycle == 11);
    CHECK(starts_with(v.expected, "10 cycles"));
    CHECK(v.got == "12 cycles");
    CHECK(sizing.measured_round_trip() == 12u);
    CHECK(fixed3(sizing.measured_throughput()) == "1.000");
}

TEST_CASE("a loop shorter than declared: sizing.round_trip at once - sizing.rate_bound",
          "[scoreboard][sizing]") {
    // Built with L = 3 (RTT 8), spec L = 4 (RTT 10), B = 4. The credit of slot 0 arrives in slot 7;
    // sends in slots 0-3 and 8-11 put 5 > B sends in the 10-cycle window ending at cycle 8.
    SizingScoreboard sizing(SizingSpec{make_link(4, 4), 100, false, true});
    NoFault none;
    run(make_link(3, 4), none, 100, saturating(), {&sizing});

    const auto trip = with_check(sizing, "sizing.round_trip");
    REQUIRE(trip.size() == 1);
    CHECK(trip[0].cycle == 7);
    CHECK(trip[0].got == "8 cycles");
    const auto rate = with_check(sizing, "sizing.rate_bound");
    REQUIRE(!rate.empty());
    CHECK(rate[0].cycle == 8);
    CHECK(rate[0].got == "5");
    CHECK(rate[0].expected == "<= 4 sends in 10 cycles (2L + 2, L = 4)");
}

TEST_CASE("a consumer that drains every third cycle may lengthen the loop - never shorten it",
          "[scoreboard][sizing]") {
    // L = 4, B = 1, drain when cycle % 3 == 0. The flit of slot 0 arrives in slot 4, waits to be
    // popped in slot 6, its credit arrives in slot 10: 11 cycles. The next, sent in slot 11,
    // arrives in 15 and is popped in 18: 12 cycles, and so on. With drain_every_cycle = false the
    // longer loop is allowed; held to drain-every-cycle timing it is reported at cycle 10.
    NoFault none;
    SizingScoreboard relaxed(SizingSpec{make_link(4, 1), 600, false, false});
    SizingScoreboard strict(SizingSpec{make_link(4, 1), 600, false, true});
    run(make_link(4, 1), none, 600, saturating(3), {&relaxed, &strict});
    CHECK(relaxed.ok());
    CHECK(relaxed.measured_round_trip() == 11u);
    REQUIRE(strict.violations().size() == 1);
    CHECK(strict.violations()[0].check == "sizing.round_trip");
    CHECK(strict.violations()[0].cycle == 10);
    CHECK(strict.violations()[0].got == "11 cycles");
}

// ---- lockstep ----------------------------------------------------------------------------------

TEST_CASE("lockstep against seed 004's leaking sender: first divergence at cycle 7",
          "[scoreboard][lockstep][seed004]") {
    // The golden model holds 1 credit at the start of cycle 7 (slot 6 sent and received one) and
    // sends; the leaking sender dropped slot 6's arrival, holds 0 and cannot send.
    const LinkConfig config = make_link(2, 4);
    LockstepScoreboard lockstep;
    LeakOnSendAndReturn leak;
    run_lockstep(config, leak, 60, saturating(), lockstep);

    REQUIRE(lockstep.first_divergence_cycle() == 7u);
    std::vector<Violation> at_7;
    for (const auto& v : lockstep.violations())
        if (v.cycle == 7) at_7.push_back(v);
    REQUIRE(at_7.size() == 5);
    CHECK(at_7[0].signal == "link.sender.credits");
    CHECK(at_7[0].expected == "1");
    CHECK(at_7[0].got == "0");
    CHECK(at_7[1].signal == "link.sender.can_send");
    CHECK(at_7[2].signal == "link.sender.send");
    CHECK(at_7[2].expected == "1");
    CHECK(at_7[2].got == "0");
    CHECK(at_7[3].signal == "link.sender.send_payload");
    CHECK(at_7[3].expected == hex(payload_of(7)));
    CHECK(at_7[3].got == "0x00000000");
    CHECK(at_7[4].signal == "link.credit_total");   // the loop holds 3 of its 4 credits
    CHECK(at_7[4].expected == "4");
    CHECK(at_7[4].got == "3");
    for (const auto& v : lockstep.violations()) CHECK(v.check == "lockstep");
    // Each signal is recorded once at most, however long it keeps differing.
    CHECK(lockstep.violations().size() <= static_cast<size_t>(kSignalCount));
    CHECK(lockstep.divergent_cycles() > lockstep.violations().size());
}

// Every signal is compared: tests/test_observed_signals.cpp, signal by signal from the list.
TEST_CASE("lockstep records each signal only when it starts to differ", "[scoreboard][lockstep]") {
    LockstepScoreboard lockstep;
    Observation model;
    model.occupancy = 2;
    for (uint64_t t = 0; t < 6; ++t) {
        model.cycle = t;
        Observation rtl = model;
        if (t >= 2) rtl.occupancy = 3;   // occupancy differs from cycle 2 on
        if (t == 4) rtl.pop = true;      // pop differs in cycle 4 only
        lockstep.expect(model);
        lockstep.step(rtl);
    }
    REQUIRE(lockstep.violations().size() == 2);
    CHECK(lockstep.first_divergence_cycle() == 2u);
    CHECK(lockstep.violations()[0].cycle == 2);
    CHECK(lockstep.violations()[0].signal == "link.rx.occupancy");
    CHECK(lockstep.violations()[0].expected == "2");
    CHECK(lockstep.violations()[0].got == "3");
    CHECK(lockstep.violations()[1].cycle == 4);
    CHECK(lockstep.violations()[1].signal == "link.rx.pop");
    CHECK(lockstep.divergent_cycles() == 4);
    CHECK(lockstep.violation_count() == 2);

    SECTION("a step without its model observation is a harness error, reported once") {
        Observation rtl;
        rtl.cycle = 6;
        lockstep.step(rtl);
        rtl.cycle = 7;
        lockstep.step(rtl);
        CHECK(with_check(lockstep, "lockstep.sequence").size() == 1);
    }
}

// ---- helpers -----------------------------------------------------------------------------------

TEST_CASE("ring queue keeps FIFO order across growth - wrap-around and erase", "[scoreboard]") {
    RingQueue<int> ring;
    std::vector<int> reference;
    int next = 0;
    for (int round = 0; round < 200; ++round) {
        for (int i = 0; i < round % 7 + 1; ++i) {
            ring.push_back(next);
            reference.push_back(next++);
        }
        for (int i = 0; i < round % 5 && !reference.empty(); ++i) {
            REQUIRE(ring.front() == reference.front());
            ring.pop_front();
            reference.erase(reference.begin());
        }
        if (round % 11 == 0 && reference.size() > 3) {
            ring.erase(2);
            reference.erase(reference.begin() + 2);
        }
        REQUIRE(ring.size() == reference.size());
        for (size_t i = 0; i < reference.size(); ++i) REQUIRE(ring[i] == reference[i]);
    }
}
