// The shared pool's start-up transient in the head-of-line table: the closed form against numbers
// worked by hand, against the golden model, and the verdict it gives a window that began too early.
#include <catch2/catch.hpp>

#include "channel_config.h"
#include "channel_run.h"
#include "channels_command.h"
#include "closed_forms.h"

using namespace creditloop;

TEST_CASE("the shared pool's transient: numbers worked by hand", "[model][channels][hol][fast]") {
    // 8 channels of 15 credits, L = 64 (RTT 130): 120 credits < RTT, so the decay starts at once,
    // from (120/130)/8 = 0.11538 a cycle per channel, with the time constant 8 x 130 = 1040.
    const HolSharedTransient slow{8, 15, 130};
    CHECK(slow.time_constant() == 1040.0);
    CHECK(slow.linear_until() == 0.0);
    CHECK(slow.rate(0) == Approx(0.115385).epsilon(1e-5));
    // Over cycles 1000..2000: 0.115385 x 1040/1000 x (e^-0.961538 - e^-1.923077)
    //                        = 0.115385 x 1.04 x (0.382311 - 0.146166) = 0.028337.
    CHECK(slow.average(1000, 2000) == Approx(0.028337).epsilon(1e-4));
    // Below 0.002 from 1040 x ln(0.115385 / 0.002) = 1040 x 4.05505 = 4217.3 cycles on.
    CHECK(slow.settled_by(0.002) == Approx(4217.3).epsilon(1e-4));

    // 4 channels of 15 credits, L = 4 (RTT 10): 60 credits keep the link full, each channel
    // sending 1/4, until 4 x (60 - 10) = 200 cycles; then 10 x e^(-(t - 200)/40) circulate.
    const HolSharedTransient fast{4, 15, 10};
    CHECK(fast.linear_until() == 200.0);
    CHECK(fast.rate(100) == Approx(0.25));
    CHECK(fast.average(0, 200) == Approx(0.25));
    // Over 200..240: 0.25 x 40 x (1 - e^-1) / 40 = 0.158030.
    CHECK(fast.average(200, 240) == Approx(0.158030).epsilon(1e-5));
    CHECK(fast.rate(240) == Approx(0.25 * 0.367879).epsilon(1e-5));
}

TEST_CASE("the golden model's shared pool drains as the transient's closed form says", "[model][channels][hol][fast]") {
    const ChannelRunResult r = run_channels(nullptr, {hol_config(8, 15, 64, true), 2000, 1}, {});
    const HolSharedTransient transient{8, 15, 130};
    REQUIRE(r.channels.size() == 8);
    for (size_t c = 1; c < r.channels.size(); ++c) {
        INFO("channel " << c);
        CHECK(r.channels[c].throughput == Approx(transient.average(1000, 2000)).margin(kHolTolerance));
    }
}

TEST_CASE("a shared pool's row asks for a longer run only while the pool drains as it must", "[channels][hol][fast]") {
    HolRow row{8, 15, 64, true};
    row.closed_form = hol_shared_pool_throughput();
    // At 2000 cycles the window starts at 1000, before the pool settles (4217): on the transient's
    // closed form (0.028), the row asks for at least 2 x 4217.3, rounded up to 9000, cycles.
    row.lowest = 0.027;
    row.highest = 0.028;
    hol_settling(row, 2000);
    CHECK(row.run_longer == 9000);
    CHECK(row.transient == Approx(0.028337).epsilon(1e-3));
    // Far above what a draining pool allows (credits come back from the stalled channel): a miss.
    HolRow leaking = row;
    leaking.run_longer = 0;
    leaking.lowest = leaking.highest = 0.11;
    hol_settling(leaking, 2000);
    CHECK(leaking.run_longer == 0);
    // A window that began after the pool settled has no excuse.
    HolRow settled = row;
    settled.run_longer = 0;
    settled.lowest = settled.highest = 0.01;
    hol_settling(settled, 10000);
    CHECK(settled.run_longer == 0);
}
