// The GTKWave save file opens on the story of the first violation: its first group names the
// check that fired and holds the conservation total and that check's signals; the rest follow
// in loop order, each signal once. (tests/test_regression.cpp shows it on a real failure's VCD.)
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gtkw.h"
#include "observation.h"
#include "dut_bank.h"
#include "test_support.h"
#include "violation_signals.h"

using namespace creditloop;
namespace fs = std::filesystem;

namespace {

// The groups of a save file in order: each one's name and the port names of its signals
// ("credits", without scope or width).
std::vector<std::pair<std::string, std::vector<std::string>>> groups_of(const std::string& save) {
    auto groups = creditloop::testing::gtkw_groups(save);
    for (auto& group : groups)
        for (auto& line : group.second) {
            line = line.substr(line.rfind('.') + 1);
            line = line.substr(0, line.find('['));
        }
    return groups;
}

Violation violation(uint64_t cycle, const char* check, std::string signal) {
    Violation v;
    v.cycle = cycle;
    v.check = check;
    v.signal = std::move(signal);
    return v;
}

}  // namespace

TEST_CASE("the save file opens on the conservation total and the fired check's signals", "[waves]") {
    const fs::path dir = fs::temp_directory_path() / "creditloop_waves_story";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string vcd = (dir / "run.vcd").string();
    const LinkConfig config{4, 12, 1, 32};

    struct Story {
        Violation first;
        std::vector<std::string> signals;   // the first group's, in order
    };
    const std::vector<Story> stories = {
        {violation(7, "conservation.total", "link.total_credits"),
         {"credit_total", "credits", "fwd_flits", "occupancy", "slots_freeing", "pending_returns", "return_waiting",
          "return_flight"}},
        {violation(9, "conservation.overflow", signal_name(Signal::overflow)),
         {"credit_total", "overflow", "credits", "fwd_flits", "occupancy", "slots_freeing", "pending_returns",
          "return_waiting", "return_flight"}},
        {violation(12, "data.order", signal_name(Signal::pop_payload)),
         {"credit_total", "pop_payload", "pop", "send", "send_payload"}},
        {violation(30, "sizing.throughput", signal_name(Signal::can_send)),
         {"credit_total", "can_send", "send", "credits", "credits_arriving"}},
        {violation(5, "lockstep", signal_name(Signal::arrive)), {"credit_total", "arrive"}},
        {violation(5, "lockstep", signal_name(Signal::want_send)), {"credit_total", "want_send"}},
        // Signals the waves do not hold are left out (reset_tx is the harness's, not a port).
        {violation(3, "conservation.one_sided_reset", signal_name(Signal::reset_tx)),
         {"credit_total", "credits", "fwd_flits", "occupancy", "slots_freeing", "pending_returns", "return_waiting",
          "return_flight"}},
        {violation(4, "rtl.assertion", "credit_link"), {"credit_total"}},
    };
    for (const Story& story : stories) {
        CAPTURE(story.first.check, story.first.signal);
        const std::string save = creditloop::testing::slurp(write_gtkw(vcd, config, "top.link", &story.first, 0));
        CHECK(save.find("\n*-6.000000 " + std::to_string(10 * story.first.cycle) + " ") != std::string::npos);
        const auto groups = groups_of(save);
        REQUIRE(groups.size() >= 2);
        CHECK(groups[0].first ==
              "first violation: " + story.first.check + " at cycle " + std::to_string(story.first.cycle));
        CHECK(groups[0].second == story.signals);
        CHECK(groups[1].first == "clock and resets");
        // Below the story, every other signal once, and no group left empty.
        std::multiset<std::string> shown;
        for (const auto& [name, signals] : groups) {
            CHECK_FALSE(signals.empty());
            shown.insert(signals.begin(), signals.end());
        }
        for (const auto& signal : shown) CHECK(shown.count(signal) == 1);
        CHECK(shown.size() == bank_ports().size() - 1);   // every port of credit_link but tx_payload
    }

    // No violation: no story group, no marker; the loop order from the clock on.
    const auto save = creditloop::testing::slurp(write_gtkw(vcd, config, "top.link", nullptr, 0));
    CHECK(save.find("\n*-6.000000 -1 ") != std::string::npos);
    const auto groups = groups_of(save);
    REQUIRE_FALSE(groups.empty());
    CHECK(groups.front().first == "clock and resets");
    CHECK(groups.back().first == "conservation total (must stay B)");
    fs::remove_all(dir);
}
