// The golden model against the seeds' printed tables, their closed forms and a hand-worked
// cycle trace.
#include <catch2/catch.hpp>

#include <vector>

#include "closed_forms.h"
#include "credit_loop_model.h"
#include "report.h"
#include "test_support.h"

using namespace creditloop;
using creditloop::testing::seed_run;

TEST_CASE("model reproduces seed 001's table digit for digit", "[model][seed001]") {
    for (const auto& row : seeds::kSeed001Rows) {
        for (size_t i = 0; i < seeds::kSeed001Buffers.size(); ++i) {
            const int b = seeds::kSeed001Buffers[i];
            const RunResult r = run_link(nullptr, seed_run(row.stages, b, 1, row.drain_every));
            INFO("L=" << row.stages << " B=" << b << " drain every " << row.drain_every);
            CHECK(three_decimals(r.throughput) == row.throughput[i]);
            CHECK(r.passed);
            if (row.drain_every == 1) {
                // Seed 001's own assertion: within 0.002 of min(1, B / RTT).
                CHECK(std::abs(r.throughput - throughput_bound(b, round_trip_cycles(row.stages))) < 0.002);
            }
        }
    }
}

TEST_CASE("model reproduces seed 000's batching table", "[model][seed000]") {
    for (size_t i = 0; i < seeds::kSeed000Batches.size(); ++i) {
        const int k = seeds::kSeed000Batches[i];
        const RunResult r = run_link(nullptr, seed_run(seeds::kSeed000Stages, seeds::kSeed000Buffer, k));
        INFO("K=" << k);
        CHECK(three_decimals(r.throughput) == seeds::kSeed000Throughput[i]);
        CHECK(r.passed);
    }
}

TEST_CASE("seed 000's closed forms 12/13 12/15 and 12/21 and K = 8 below 12/17", "[model][seed000][closed-form]") {
    auto thr = [](int k) { return run_link(nullptr, seed_run(4, 12, k)).throughput; };
    CHECK(full_rate_buffer(round_trip_cycles(4), 2) == 11);   // 12 >= 10 + 1: no cost
    CHECK(thr(2) == 1.0);
    CHECK(std::abs(thr(4) - 12.0 / 13) < 0.001);
    CHECK(std::abs(thr(6) - 12.0 / 15) < 0.001);
    CHECK(std::abs(thr(12) - 12.0 / 21) < 0.001);
    // Stranded credits: the truth is below the formula's estimate.
    CHECK(thr(8) < batched_throughput_estimate(12, 10, 8) - 0.05);
}

TEST_CASE("closed forms", "[closed-form]") {
    CHECK(round_trip_cycles(4) == 10);
    CHECK(round_trip_cycles(2) == 6);
    CHECK(full_rate_buffer(10, 8) == 17);
    CHECK(rate_limited_buffer(0.5, 10) == Approx(5.0));   // seed 001: 0.5 x 10 = 5
    CHECK(throughput_bound(4, 10) == Approx(0.4));         // the opening story: 40%
    CHECK(throughput_bound(8, 12) == Approx(8.0 / 12));    // the late timing fix: 67%
}

namespace {
struct Trace : RunHooks {
    std::vector<Observation> cycles;
    void on_cycle(const Observation& dut, const Observation&) override { cycles.push_back(dut); }
};
}  // namespace

TEST_CASE("model follows seed 001's slot-by-slot trace (L = 2 and B = 3)", "[model][seed001][trace]") {
    // Seed 001, "How to read it": slots 0-2 spend credits 3, 2, 1; slots 3-5 credits 0 and no
    // send while the receiver drains; the first credit arrives in slot 5; slot 6 sends again.
    RunSpec spec = seed_run(2, 3);
    spec.cycles = 120;
    Trace trace;
    RunOptions options;
    options.hooks.push_back(&trace);
    const RunResult r = run_link(nullptr, spec, options);
    REQUIRE(trace.cycles.size() == 120);
    const auto& c = trace.cycles;
    CHECK(c[0].credits == 3); CHECK(c[1].credits == 2); CHECK(c[2].credits == 1);
    for (int t = 0; t <= 2; ++t) CHECK(c[t].send);
    for (int t = 3; t <= 5; ++t) {
        CHECK(c[t].credits == 0);
        CHECK_FALSE(c[t].send);
        CHECK(c[t].pop);   // the receiver is not stalled
    }
    CHECK(c[5].credits_arriving == 1);
    CHECK(c[6].send);
    // Three on, three off from then on: 3 / 6 = 50%.
    for (int t = 6; t < 120; ++t) CHECK(c[t].send == ((t % 6) < 3));
    CHECK(r.measured_round_trip == 6u);
    CHECK(r.throughput == 0.5);
}
