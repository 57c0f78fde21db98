// The SystemC harness (verilator --sc, sc_main, sc_clock): the same run gives the same JSON as
// the C++ harness, number for number and verdict for verdict, and the comparison fires when the
// two disagree.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "channel_library.h"
#include "dut_library.h"
#include "regression.h"
#include "test_support.h"

using namespace creditloop;

namespace {

RegressionCase late_timing_fix() {
    // Seed 001's late timing fix: L = 5 with B = 8, declared full rate: the sizing check fails.
    RegressionCase c;
    c.name = "systemc/late_timing_fix";
    c.spec = creditloop::testing::seed_run(5, 8);
    c.spec.declared_full_rate = true;
    c.systemc = true;
    return c;
}

RunResult cpp_run(const RunSpec& spec) {
    std::string error;
    auto library = DutLibrary::load(spec.config, DutSources::from_environment(), error);
    REQUIRE(library);
    auto dut = library->create();
    return run_link(dut.get(), spec);
}

// A multi-channel run on the checkout's RTL under the C++ harness.
ChannelRunResult cpp_channel_run(const ChannelRunSpec& spec) {
    std::string error;
    auto library = ChannelLibrary::load({spec.config, {}}, DutSources::from_environment(), error);
    INFO(error);
    REQUIRE(library);
    auto dut = library->create();
    return run_channels(dut.get(), spec);
}

// PCIe's three channels with one update lost on the return path at cycle 300 (no recovery).
ChannelRunSpec pcie_drop_one() {
    ChannelRunSpec spec{*channel_preset("pcie"), 4000, 1, {}};
    spec.faults.drop_at = 300;
    return spec;
}

}  // namespace

TEST_CASE("the SystemC harness gives the C++ harness's verdict on a failing run, field for field",
          "[systemc][rtl][sizing]") {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    const RegressionCase c = late_timing_fix();
    const RunResult cpp = cpp_run(c.spec);
    REQUIRE_FALSE(cpp.passed);   // the sizing check fails and names B = 12
    CHECK(cpp.violations.front().check.rfind("sizing.", 0) == 0);
    CHECK_FALSE(systemc_disagreement(c, cpp, DutSources::from_environment()));
}

TEST_CASE("the SystemC comparison fires when the two harnesses disagree", "[systemc][rtl]") {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    const RegressionCase c = late_timing_fix();
    RunSpec other = c.spec;
    other.stimulus.seed += 1;                  // a different run: the payloads differ
    other.stimulus.drain.period = 2;           // and so does the throughput
    const std::string disagreement = systemc_disagreement(c, cpp_run(other), DutSources::from_environment()).value_or("");
    INFO(disagreement);
    CHECK(disagreement.find("the SystemC harness disagrees with the C++ harness") == 0);
    // It names the fields that differ, with both values: the drain at half rate halves the throughput.
    CHECK(disagreement.find("/throughput: C++ ") != std::string::npos);
    CHECK(disagreement.find('\n') == std::string::npos);
}

TEST_CASE("the multi-channel link under SystemC gives the C++ harness's verdict, field for field",
          "[systemc][rtl][channels]") {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    const ChannelRunSpec spec = pcie_drop_one();
    const ChannelRunResult cpp = cpp_channel_run(spec);
    REQUIRE_FALSE(cpp.passed);   // the lost update is caught, named by its pool
    CHECK(cpp.first_violation()->check == "conservation.injected_loss");
    CHECK_FALSE(channel_systemc_disagreement(spec, cpp, DutSources::from_environment()));
}

TEST_CASE("the multi-channel SystemC comparison fires when the two harnesses disagree", "[systemc][rtl][channels]") {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    const ChannelRunSpec spec = pcie_drop_one();
    ChannelRunSpec other = spec;
    other.faults.drop_at.reset();   // a different run: nothing lost, so it passes
    const std::string disagreement =
        channel_systemc_disagreement(spec, cpp_channel_run(other), DutSources::from_environment()).value_or("");
    INFO(disagreement);
    CHECK(disagreement.find("the SystemC harness disagrees with the C++ harness") == 0);
    // It names the differing fields with both values: the conservation board's violation count.
    CHECK(disagreement.find("/scoreboards/0/violations: C++ 0, SystemC 1") != std::string::npos);
    CHECK(disagreement.find('\n') == std::string::npos);
}

TEST_CASE("under SystemC the channel link's policies, SYNC, late frees and resets give the C++ verdict",
          "[systemc][rtl][channels][resets]") {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    // CHI with a hybrid pool, timeouts, a synchroniser stage and a late free, flushes and reverse
    // traffic per pool, resets of both ends every 700 cycles, and the receiver end reset alone at
    // cycle 1234: the one-end reset pulse after the edge, as the C++ harness gives it.
    ChannelRunSpec spec{*channel_preset("chi"), 2000, 3, {}, {}};
    spec.config.sync_stages = 1;
    spec.config.free_delay = 2;
    spec.config.channels[0].batch = 4;
    spec.config.channels[0].policy = ReturnPolicy::hybrid;
    spec.config.channels[3].batch = 3;
    spec.config.channels[3].timeout = 6;
    spec.environment.flush_probability = 0.02;
    spec.environment.reverse_load = 0.25;
    spec.environment.reset_every = 700;
    spec.environment.reset_rx_at = 1234;
    const ChannelRunResult cpp = cpp_channel_run(spec);
    REQUIRE_FALSE(cpp.passed);
    CHECK(cpp.first_violation()->check == "conservation.one_sided_reset");
    CHECK(cpp.first_violation()->cycle == 1234);
    for (const auto& board : cpp.scoreboards)
        if (board.name == "lockstep") CHECK(board.violations == 0);
    CHECK_FALSE(channel_systemc_disagreement(spec, cpp, DutSources::from_environment()));
}
