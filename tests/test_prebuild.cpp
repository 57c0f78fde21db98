// The first test `make test` runs (CTest orders the rest after it): one bank with every
// configuration the regression and the RTL tests below use, so the suite pays for one Verilator
// run and one compile instead of one per configuration. A test whose configuration is missing
// here still passes: it builds a bank of its own on first use, only slower.
#include <catch2/catch.hpp>

#include <vector>

#include "dut_library.h"
#include "regression.h"

using namespace creditloop;

namespace {

LinkConfig late(int stages, int buffer, int sync, int free_delay) {
    LinkConfig c{stages, buffer, 1, 32};
    c.sync_stages = sync;
    c.free_delay = free_delay;
    return c;
}

LinkConfig hybrid(int stages, int buffer, int batch, int low, int idle) {
    LinkConfig c{stages, buffer, batch, 32};
    c.policy = ReturnPolicy::hybrid;
    c.low_credits = low;
    c.idle_cycles = idle;
    return c;
}

// What the RTL tests load besides the regression's configurations (late returns, policies,
// resets, the seeds' Python models, the sweep grid). FULL_RATE instances are left out: each
// builds alone, as one that refuses to elaborate must.
std::vector<LinkConfig> rtl_test_configs() {
    LinkConfig timeout{2, 4, 4, 32};
    timeout.flush_timeout = 3;
    return {{2, 3, 1, 32},          {2, 4, 1, 32},          {2, 4, 4, 32},          {2, 5, 1, 32},
            {3, 7, 1, 32},          {4, 12, 5, 32},         {4, 40, 1, 32},         {5, 16, 1, 32},
            {5, 8, 1, 32},          timeout,                hybrid(2, 4, 4, 0, 2),  hybrid(2, 4, 4, 2, 64),
            hybrid(2, 4, 4, 3, 64), hybrid(4, 12, 8, 8, 2), late(4, 12, 0, 1),      late(4, 12, 0, 3),
            late(4, 12, 2, 0),      late(4, 12, 2, 1),      late(4, 12, 2, 4),      late(4, 12, 5, 0),
            late(4, 12, 8, 0),      late(4, 13, 2, 1),      late(4, 14, 2, 1),      late(4, 16, 2, 1),
            late(4, 4, 2, 1),       [] { LinkConfig c = late(2, 5, 1, 2); c.batch = 2; return c; }()};
}

}  // namespace

TEST_CASE("prebuild: one bank for the regression and the RTL tests", "[rtl][prebuild]") {
    std::vector<LinkConfig> configs = rtl_test_configs();
    for (const auto& c : regression_cases(1)) configs.push_back(c.spec.config);
    const auto errors = build_duts(configs, DutSources::from_environment(), 2);
    for (const auto& e : errors) INFO(e);
    CHECK(errors.empty());
    // Each of them is then found without another build.
    for (const auto& config : configs) {
        std::string error;
        INFO(config.key() << ": " << error);
        CHECK(DutLibrary::load(config, DutSources::from_environment(), error) != nullptr);
    }
}
