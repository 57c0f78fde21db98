// The verilated RTL against the same tables, in lockstep with the model every cycle.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <vector>

#include "dut_library.h"
#include "report.h"
#include "test_support.h"

using namespace creditloop;
using creditloop::testing::seed_run;

namespace {

// All seed configurations, built once for the whole test binary (two at a time).
const DutLibrary& library_for(const LinkConfig& config) {
    static std::map<std::string, std::unique_ptr<DutLibrary>> loaded;
    static bool built = false;
    DutSources sources = DutSources::from_environment();
    if (!built) {
        std::vector<LinkConfig> configs;
        for (const auto& row : seeds::kSeed001Rows)
            for (int b : seeds::kSeed001Buffers) configs.push_back({row.stages, b, 1, 32});
        for (int k : seeds::kSeed000Batches) configs.push_back({4, 12, k, 32});
        const auto errors = build_duts(configs, sources, 2);
        for (const auto& e : errors) FAIL(e);
        built = true;
    }
    auto& slot = loaded[config.key()];
    if (!slot) {
        std::string error;
        slot = DutLibrary::load(config, sources, error);
        if (!slot) FAIL(error);
    }
    return *slot;
}

RunResult run_rtl(const RunSpec& spec, const RunOptions& options = {}) {
    auto dut = library_for(spec.config).create();
    return run_link(dut.get(), spec, options);
}

struct Trace : RunHooks {
    std::vector<Observation> rtl;
    void on_cycle(const Observation& dut, const Observation&) override { rtl.push_back(dut); }
};

}  // namespace

TEST_CASE("RTL reproduces seed 001's table in lockstep with the model", "[rtl][seed001]") {
    for (const auto& row : seeds::kSeed001Rows) {
        for (size_t i = 0; i < seeds::kSeed001Buffers.size(); ++i) {
            const int b = seeds::kSeed001Buffers[i];
            const RunResult r = run_rtl(seed_run(row.stages, b, 1, row.drain_every));
            INFO("L=" << row.stages << " B=" << b << " drain every " << row.drain_every);
            CHECK(r.source == "rtl");
            CHECK(three_decimals(r.throughput) == row.throughput[i]);
            CHECK(r.passed);   // lockstep, conservation, data and sizing all clean
            CHECK(r.throughput == r.model_throughput);
            if (row.drain_every == 1) CHECK(r.measured_round_trip == uint64_t(2 * row.stages + 2));
        }
    }
}

TEST_CASE("RTL reproduces seed 000's batching table in lockstep with the model", "[rtl][seed000]") {
    for (size_t i = 0; i < seeds::kSeed000Batches.size(); ++i) {
        const int k = seeds::kSeed000Batches[i];
        const RunResult r = run_rtl(seed_run(4, 12, k));
        INFO("K=" << k);
        CHECK(three_decimals(r.throughput) == seeds::kSeed000Throughput[i]);
        CHECK(r.passed);
    }
}

TEST_CASE("RTL follows seed 001's slot-by-slot trace (L = 2 is built on demand)", "[rtl][seed001][trace]") {
    RunSpec spec = seed_run(2, 3);
    spec.cycles = 120;
    Trace trace;
    RunOptions options;
    options.hooks.push_back(&trace);
    const RunResult r = run_rtl(spec, options);
    REQUIRE(trace.rtl.size() == 120);
    for (int t = 0; t < 3; ++t) CHECK(trace.rtl[t].credits == uint32_t(3 - t));
    for (int t = 0; t < 120; ++t) CHECK(trace.rtl[t].send == ((t % 6) < 3));
    CHECK(trace.rtl[5].credits_arriving == 1);
    CHECK(r.passed);
}

TEST_CASE("RTL and model agree under seeded random traffic and stalls", "[rtl][random]") {
    for (uint64_t seed : {1, 2, 3}) {
        RunSpec spec = seed_run(4, 12, 4);
        std::string error;
        spec.stimulus.traffic = *parse_traffic("bernoulli:0.8", error);
        spec.stimulus.drain.kind = DrainKind::random_stalls;
        spec.stimulus.drain.stall_probability = 0.3;
        spec.stimulus.seed = seed;
        spec.cycles = 20000;
        const RunResult r = run_rtl(spec);
        INFO("seed " << seed);
        CHECK(r.passed);
        CHECK(r.window_sends > 0);
        CHECK(r.throughput <= 0.7 + 0.03);   // the consumer drains 70% of cycles
    }
}
