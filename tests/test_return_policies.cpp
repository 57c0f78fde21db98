// The return path shared with reverse traffic, and the return policies (seed 000): hand-
// worked cycle traces on the model and the RTL, the closed form of the wait for a free return
// slot, seed 000's opening story recovered by the hybrid, and the policy table in docs/sizing-and-policies.md.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include "credit_loop_model.h"
#include "dut_library.h"
#include "lockstep.h"
#include "policy_table.h"
#include "report.h"
#include "scoreboard.h"
#include "test_support.h"

using namespace creditloop;

namespace {

struct Script {
    std::function<bool(uint64_t)> want_send = [](uint64_t t) { return t == 0; };   // one flit
    std::function<bool(uint64_t)> busy = [](uint64_t) { return false; };
};

// The model's and the RTL's observations of `cycles` cycles of `script`, the consumer draining
// every cycle; the RTL's must equal the model's in every signal.
std::vector<Observation> traced(const LinkConfig& config, const Script& script, int cycles = 30) {
    std::string error;
    auto library = DutLibrary::load(config, DutSources::from_environment(), error);
    INFO(error);
    REQUIRE(library);
    auto dut = library->create();
    dut->reset();
    CreditLoopModel model(config);
    std::vector<Observation> trace;
    for (int t = 0; t < cycles; ++t) {
        LinkInputs in;
        in.want_send = script.want_send(static_cast<uint64_t>(t));
        in.payload = 0x100u + static_cast<uint32_t>(t);
        in.drain = true;
        in.return_busy = script.busy(static_cast<uint64_t>(t));
        Observation rtl;
        dut->step(in, rtl);
        rtl.cycle = static_cast<uint64_t>(t);
        const Observation golden = model.evaluate(in);
        model.update();
        INFO("cycle " << t);
        CHECK(differing_signals(golden, rtl) == 0u);
        trace.push_back(golden);
    }
    return trace;
}

// Cycles in which a credit message was sent, and what each carried.
std::vector<std::pair<uint64_t, uint32_t>> messages(const std::vector<Observation>& trace) {
    std::vector<std::pair<uint64_t, uint32_t>> sent;
    for (const auto& o : trace)
        if (o.credits_returned) sent.emplace_back(o.cycle, o.credits_returned);
    return sent;
}

LinkConfig link(int stages, int buffer, int batch) {
    LinkConfig c;
    c.stages = stages;
    c.buffer_slots = buffer;
    c.batch = batch;
    return c;
}

using Messages = std::vector<std::pair<uint64_t, uint32_t>>;

}  // namespace

TEST_CASE("a credit message waits for a free return slot, and waiting credits leave together",
          "[rtl][model][late-return][shared-return]") {
    // L = 2: a flit sent in cycle t arrives in t + 2 and is popped in t + 3; its credit is
    // released in t + 3 and reaches the sender L = 2 cycles after the message leaves.
    const LinkConfig config = link(2, 4, 1);
    SECTION("a dedicated return path: the credit leaves in the cycle it is freed") {
        const auto trace = traced(config, Script{});
        CHECK(messages(trace) == Messages{{3, 1}});
        CHECK(trace[5].credits_arriving == 1);
    }
    SECTION("reverse traffic in cycles 3..5: the credit waits three cycles in the port") {
        Script script;
        script.busy = [](uint64_t t) { return t >= 3 && t <= 5; };
        const auto trace = traced(config, script);
        CHECK(messages(trace) == Messages{{6, 1}});
        for (uint64_t t : {4u, 5u, 6u}) CHECK(trace[t].return_waiting == 1);
        CHECK(trace[7].return_waiting == 0);
        CHECK(trace[8].credits_arriving == 1);   // the round trip grew by the three busy cycles
        for (const auto& o : trace) CHECK(o.credit_total == 4);
    }
    SECTION("two credits freed behind the same busy run go back as one message of two") {
        Script script;
        script.want_send = [](uint64_t t) { return t <= 1; };
        script.busy = [](uint64_t t) { return t >= 3 && t <= 5; };
        const auto trace = traced(config, script);
        CHECK(messages(trace) == Messages{{6, 2}});
        CHECK(trace[5].return_waiting == 2);
        CHECK(trace[8].credits_arriving == 2);
    }
}

TEST_CASE("the flush timeout returns a partial batch TIMEOUT cycles after its oldest credit joined",
          "[rtl][model][policy][timeout]") {
    // K = 4, one flit: its credit joins the batch in cycle 3 and would wait there for good
    // (seed 000's stranded credit).
    LinkConfig config = link(2, 4, 4);
    SECTION("no timeout: stranded") {
        const auto trace = traced(config, Script{});
        CHECK(messages(trace).empty());
        CHECK(trace.back().pending_returns == 1);
        CHECK(trace.back().credits == 3);
    }
    SECTION("TIMEOUT = 3: flushed in cycle 3 + 3") {
        config.flush_timeout = 3;
        const auto trace = traced(config, Script{});
        CHECK(messages(trace) == Messages{{6, 1}});
        for (const auto& o : trace) CHECK(o.policy_flush == (o.cycle == 6));
        CHECK(trace.back().credits == 4);
    }
}

TEST_CASE("the hybrid flushes when the sender may run low, with the LOW threshold",
          "[rtl][model][policy][hybrid]") {
    // K = 4, B = 4, IDLE = 64 so the idle rule cannot act in these 30 cycles. The receiver's bound
    // on the sender's credits is B minus what it holds (buffer, batch, port).
    LinkConfig config = link(2, 4, 4);
    config.policy = ReturnPolicy::hybrid;
    config.idle_cycles = 64;
    SECTION("LOW = 3: holding one flit already means the sender may be down to 3") {
        config.low_credits = 3;
        const auto trace = traced(config, Script{});
        CHECK(messages(trace) == Messages{{3, 1}});   // returned with the pop, as K = 1 would
    }
    SECTION("LOW = 2: one flit held is not enough, two are") {
        config.low_credits = 2;
        CHECK(messages(traced(config, Script{})).empty());
        Script two;
        two.want_send = [](uint64_t t) { return t <= 1; };
        // Cycle 4 starts with flit 2 in the buffer and flit 1's credit pending: held = 2.
        CHECK(messages(traced(config, two)) == Messages{{4, 2}});
    }
}

TEST_CASE("the hybrid with LOW = B builds and returns every credit at once: B / (2L + 2)",
          "[rtl][model][policy][hybrid]") {
    // With LOW = B the receiver's bound on the sender (B minus what it holds) is always at most
    // LOW, so the hybrid flushes every cycle a credit is pending: batches of K never form, and the
    // link runs as K = 1 does, at min(1, B / RTT) = 4 / 6. (The RTL once refused this LOW: its
    // compare was a constant.)
    LinkConfig config{2, 4, 2, 32};
    config.policy = ReturnPolicy::hybrid;
    config.low_credits = 4;
    config.idle_cycles = kDefaultIdleCycles;
    std::string error;
    auto library = DutLibrary::load(config, DutSources::from_environment(), error);
    INFO(error);
    REQUIRE(library);
    auto dut = library->create();
    RunSpec spec = creditloop::testing::seed_run(2, 4, 2);
    spec.config = config;
    const RunResult r = run_link(dut.get(), spec);
    CHECK(r.passed);
    CHECK(three_decimals(r.throughput) == three_decimals(4.0 / 6.0));
    CHECK(r.measured_round_trip == 6u);
}

TEST_CASE("the hybrid flushes once the return path has been idle IDLE cycles", "[rtl][model][policy][hybrid]") {
    LinkConfig config = link(2, 4, 4);
    config.policy = ReturnPolicy::hybrid;
    config.low_credits = 0;
    config.idle_cycles = 2;
    Script script;
    script.busy = [](uint64_t t) { return t == 2; };
    // Cycle 3 (the pop) follows a busy cycle: not idle. Cycle 4 is the second free one in a row.
    CHECK(messages(traced(config, script)) == Messages{{4, 1}});
}

TEST_CASE("reverse load p adds p / (1 - p) cycles to the mean round trip, on the RTL",
          "[rtl][model][late-return][shared-return]") {
    // Batches of one: a released credit waits for the first free return slot. Reverse traffic
    // holds each cycle independently with probability p, so the wait is geometric with mean
    // p / (1 - p), and waiting credits share the next message, so they never queue behind one
    // another. B = 40 keeps the sender from running dry, so nothing else adds to the loop. The
    // shortest round trip stays 2L + 2 (some credits find the slot free).
    for (double p : {0.3, 0.5, 0.9}) {
        RunSpec spec = creditloop::testing::seed_run(4, 40);
        spec.cycles = 200000;
        spec.stimulus.reverse_load = p;
        std::string error;
        auto library = DutLibrary::load(spec.config, DutSources::from_environment(), error);
        REQUIRE(library);
        auto dut = library->create();
        const RunResult r = run_link(dut.get(), spec);
        const double closed_form = 10.0 + p / (1.0 - p);
        INFO("p = " << p << ", mean round trip " << r.mean_round_trip << " against " << closed_form);
        CHECK(r.passed);
        CHECK(r.measured_round_trip == uint64_t(10));
        CHECK(std::abs(r.mean_round_trip - closed_form) < 0.02 * closed_form);
        // Little's law: B credits each out for a mean round trip bound the rate.
        CHECK(r.throughput <= std::min(1.0, 40.0 / r.mean_round_trip) + 0.001);
        CHECK(r.throughput == r.model_throughput);
    }
}

TEST_CASE("the hybrid recovers seed 000's opening story: K = 8 from 0.615 back to full rate",
          "[rtl][model][policy][hybrid][seed000]") {
    // B = 12, RTT = 10, K = 8 (seed 000's table: 0.615). With nothing else on the return path
    // the hybrid flushes every cycle, so the loop is seed 001's again: min(1, B / RTT) = 1.
    RunSpec spec = creditloop::testing::seed_run(seeds::kSeed000Stages, seeds::kSeed000Buffer, 8);
    std::string error;
    for (const ReturnPolicy policy : {ReturnPolicy::batch, ReturnPolicy::hybrid}) {
        spec.config.policy = policy;
        spec.config.low_credits = policy == ReturnPolicy::hybrid ? 8 : 0;
        spec.config.idle_cycles = policy == ReturnPolicy::hybrid ? 2 : 1;
        auto library = DutLibrary::load(spec.config, DutSources::from_environment(), error);
        REQUIRE(library);
        auto dut = library->create();
        const RunResult r = run_link(dut.get(), spec);
        INFO(policy_name(policy));
        CHECK(r.passed);
        CHECK(three_decimals(r.throughput) == (policy == ReturnPolicy::batch ? seeds::kSeed000Throughput[4] : "1.000"));
        // Batching by eight sends one message per eight flits; the hybrid pays one per flit.
        CHECK(three_decimals(r.messages_per_flit) == (policy == ReturnPolicy::batch ? "0.125" : "1.000"));
    }
}

TEST_CASE("the policy table in the docs is what creditloop policies prints", "[model][policy][readme]") {
    PolicyTableSpec spec;
    spec.rtl = false;
    std::vector<PolicyRow> rows = policy_rows(spec);
    for (PolicyRow& row : rows)
        for (double load : spec.loads) row.results.push_back(run_link(nullptr, policy_run_spec(spec, row.config, load)));
    const std::string table = policy_table_markdown(spec, rows, "creditloop policies");
    const std::string readme = creditloop::testing::slurp(creditloop::testing::source_dir() + "/docs/sizing-and-policies.md");
    std::istringstream lines(table);
    std::string line;
    int table_rows = 0;
    while (std::getline(lines, line)) {
        if (line.rfind("| ", 0) != 0) continue;
        ++table_rows;
        INFO(line);
        CHECK(readme.find(line) != std::string::npos);
    }
    CHECK(table_rows == 6);
    // Seed 000's numbers are in it: batch K = 8 alone at 0.615 and 1 message in 8.
    CHECK(table.find("| batch K = 8 | 0.615 | 0.125 |") != std::string::npos);
}

TEST_CASE("creditloop policies refuses bad input with one line and writes no table", "[cli][bad-input][policy]") {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--loads", "0,1"}, {"--K", "20"}, {"--loads", "half"}, {"--bogus"},
          {"--low", "13"}}) {
        std::ostringstream out, err;
        CHECK(run_policy_table(args, "creditloop", out, err) == 2);
        CHECK(out.str().empty());
        const std::string message = err.str();
        INFO(message);
        CHECK(message.rfind("creditloop: ", 0) == 0);
        CHECK(std::count(message.begin(), message.end(), '\n') == 1);
    }
}
