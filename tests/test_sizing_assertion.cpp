// Seed 001's "lasting fix": the RTL's own sizing assertion. An instance that declares FULL_RATE
// must not build when B does not cover the round trip it builds; the message names the B needed.
#include <catch2/catch.hpp>

#include <tuple>

#include "dut_library.h"
#include "report.h"
#include "test_support.h"

using namespace creditloop;

TEST_CASE("the sizing assertion stops the late timing fix at build time and names B = 12", "[rtl][sizing][seed001]") {
    // L from 3 to 5 with B = 8: the round trip grows from 8 to 12 cycles.
    LinkConfig late{5, 8, 1, 32};
    late.rtl_full_rate = true;
    std::string error;
    auto library = DutLibrary::load(late, DutSources::from_environment(), error);
    CHECK_FALSE(library);
    CHECK(error.find("FULL_RATE is declared but B = 8") != std::string::npos);
    CHECK(error.find("need B >= 12") != std::string::npos);
    CHECK(error.find('\n') == std::string::npos);
}

TEST_CASE("a full-rate instance that covers its round trip builds and runs at 1.000", "[rtl][sizing][seed001]") {
    // Before the timing fix: L = 3, B = 8 = 2L + 2. With batches of 2, B = 9 = 2L + 2 + K - 1.
    for (const auto& [l, b, k] : {std::tuple{3, 8, 1}, std::tuple{3, 9, 2}}) {
        LinkConfig fits{l, b, k, 32};
        fits.rtl_full_rate = true;
        std::string error;
        auto library = DutLibrary::load(fits, DutSources::from_environment(), error);
        REQUIRE(library);
        auto dut = library->create();
        RunSpec spec = creditloop::testing::seed_run(l, b, k);
        spec.config = fits;
        spec.declared_full_rate = true;
        const RunResult r = run_link(dut.get(), spec);
        CHECK(r.passed);
        CHECK(three_decimals(r.throughput) == "1.000");
    }
}
