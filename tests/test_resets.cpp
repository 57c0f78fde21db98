// Reset in the middle of traffic: both ends together must pass (the loop starts again with B
// credits at the sender); one end alone must be flagged by conservation on the cycle it happens
// (seed 004's one-sided reset).
#include <catch2/catch.hpp>

#include "dut_library.h"
#include "test_support.h"

using namespace creditloop;

namespace {

RunResult run_rtl(const RunSpec& spec) {
    std::string error;
    auto library = DutLibrary::load(spec.config, DutSources::from_environment(), error);
    REQUIRE(library);
    auto dut = library->create();
    return run_link(dut.get(), spec);
}

RunSpec busy_link() {
    RunSpec spec = creditloop::testing::seed_run(3, 7, 3);
    std::string error;
    spec.stimulus.traffic = *parse_traffic("bernoulli:0.8", error);
    spec.stimulus.drain = DrainSpec{DrainKind::random_stalls, 1, 0.2};
    spec.stimulus.flush_probability = 0.05;
    spec.cycles = 6000;
    return spec;
}

}  // namespace

TEST_CASE("both ends reset together mid-traffic pass on the RTL and the model", "[rtl][model][reset]") {
    RunSpec spec = busy_link();
    spec.stimulus.reset_every = 333;
    const RunResult rtl = run_rtl(spec);
    CHECK(rtl.passed);   // lockstep included: RTL and model reset the same way
    CHECK(rtl.window_sends > 0);
    CHECK(run_link(nullptr, spec).passed);
}

TEST_CASE("the sender reset alone is flagged on its cycle as created credits", "[rtl][reset][conservation]") {
    RunSpec spec = busy_link();
    spec.stimulus.reset_tx_at = 1000;
    const RunResult r = run_rtl(spec);
    REQUIRE_FALSE(r.passed);
    REQUIRE(r.first_violation_cycle == 1000u);
    const Violation& v = r.violations.front();
    CHECK(v.check == "conservation.one_sided_reset");
    CHECK(v.signal == "link.reset_tx");
    CHECK(v.detail.find("created") != std::string::npos);
    CHECK(std::stoi(v.got) > 7);
    // The model, reset the same way, agrees with the RTL: it is the protocol that broke.
    for (const auto& w : r.violations) CHECK(w.check != "lockstep");
}

TEST_CASE("the receiver reset alone is flagged on its cycle as lost credits", "[rtl][reset][conservation]") {
    RunSpec spec = busy_link();
    spec.stimulus.reset_rx_at = 1000;
    const RunResult r = run_rtl(spec);
    REQUIRE(r.first_violation_cycle == 1000u);
    const Violation& v = r.violations.front();
    CHECK(v.check == "conservation.one_sided_reset");
    CHECK(v.signal == "link.reset_rx");
    CHECK(v.detail.find("lost") != std::string::npos);
    CHECK(std::stoi(v.got) < 7);
}

TEST_CASE("a one-sided reset of an idle link changes nothing and passes", "[model][reset][conservation]") {
    // Before the first send every credit is at the sender: resetting either end alone is harmless.
    RunSpec spec = creditloop::testing::seed_run(2, 4);
    spec.stimulus.reset_rx_at = 0;
    CHECK(run_link(nullptr, spec).passed);
}
