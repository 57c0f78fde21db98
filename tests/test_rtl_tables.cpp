// The verilated RTL against seed 001's hand-worked slot-by-slot trace, in lockstep with the model.
// (The seeds' printed tables are checked once on the model, in test_model_tables.cpp, and once on
// the RTL, by the regression: `make sim`, and the `regression` test of `make test`.)
#include <catch2/catch.hpp>

#include <vector>

#include "dut_library.h"
#include "test_support.h"

using namespace creditloop;
using creditloop::testing::seed_run;

namespace {

struct Trace : RunHooks {
    std::vector<Observation> rtl;
    void on_cycle(const Observation& dut, const Observation&) override { rtl.push_back(dut); }
};

}  // namespace

TEST_CASE("RTL follows seed 001's slot-by-slot trace (L = 2 is built on demand)", "[rtl][seed001][trace]") {
    RunSpec spec = seed_run(2, 3);
    spec.cycles = 120;
    std::string error;
    auto library = DutLibrary::load(spec.config, DutSources::from_environment(), error);
    INFO(error);
    REQUIRE(library);
    auto dut = library->create();
    Trace trace;
    RunOptions options;
    options.hooks.push_back(&trace);
    const RunResult r = run_link(dut.get(), spec, options);
    REQUIRE(trace.rtl.size() == 120);
    for (int t = 0; t < 3; ++t) CHECK(trace.rtl[t].credits == uint32_t(3 - t));
    for (int t = 0; t < 120; ++t) CHECK(trace.rtl[t].send == ((t % 6) < 3));
    CHECK(trace.rtl[5].credits_arriving == 1);
    CHECK(r.passed);
}
