// Lost credit messages and the recovery protocol (docs/recovery.md) against independent
// references: the plain link (recovery without faults must be it, cycle for cycle), a
// hand-worked trace of one lost update, the closed forms of the resend and the watchdog, and
// each check fed the fault it exists for.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <vector>

#include "cli.h"
#include "closed_forms.h"
#include "credit_loop_model.h"
#include "dut_library.h"
#include "faults_command.h"
#include "link_run.h"
#include "starvation.h"
#include "test_support.h"

using namespace creditloop;
namespace fs = std::filesystem;

namespace {

struct Trace : RunHooks {
    std::vector<Observation> cycles;
    void on_cycle(const Observation& dut, const Observation&) override { cycles.push_back(dut); }
};

std::vector<uint64_t> send_cycles(const std::vector<Observation>& t) {
    std::vector<uint64_t> out;
    for (const auto& o : t)
        if (o.send) out.push_back(o.cycle);
    return out;
}

bool fired(const RunResult& r, const std::string& check, uint64_t cycle) {
    for (const auto& v : r.violations)
        if (v.check == check && v.cycle == cycle) return true;
    return false;
}

LinkConfig recovering(LinkConfig c, int bits, int period) {
    c.recovery = true;
    c.total_bits = bits;
    c.resend_period = period;
    return c;
}

// L = 2, B = 1, K = 1: one credit goes round every 2L + 2 = 6 cycles.
RunSpec one_credit(bool recovery) {
    RunSpec spec;
    spec.config = LinkConfig{2, 1, 1, 32};
    if (recovery) spec.config = recovering(spec.config, 2, 5);   // 2^2 = 4 > 2B
    spec.cycles = 40;
    return spec;
}

}  // namespace

TEST_CASE("recovery without faults is the plain link, cycle for cycle", "[recovery][model]") {
    std::string error;
    struct Case {
        LinkConfig config;
        const char* traffic;
        double reverse_load, flush;
    };
    LinkConfig hybrid{3, 8, 4, 32};
    hybrid.policy = ReturnPolicy::hybrid;
    hybrid.low_credits = 2;
    hybrid.idle_cycles = 2;
    const Case cases[] = {{LinkConfig{4, 12, 1, 32}, "saturate", 0, 0},
                          {LinkConfig{4, 12, 8, 32}, "saturate", 0, 0},
                          {LinkConfig{3, 7, 3, 32}, "bernoulli:0.7", 0.3, 0.1},
                          {hybrid, "bursts:6:9", 0.5, 0},
                          {LinkConfig{1, 2, 1, 32}, "bursts:3:20", 0, 0}};
    for (const Case& c : cases) {
        INFO(c.config.key() << " " << c.traffic);
        StimulusSpec stimulus;
        stimulus.traffic = *parse_traffic(c.traffic, error);
        stimulus.reverse_load = c.reverse_load;
        stimulus.flush_probability = c.flush;
        Stimulus plain_in(stimulus, 32), recovery_in(stimulus, 32);
        CreditLoopModel plain(c.config);
        int bits = 1;
        while ((1 << bits) <= 2 * c.config.buffer_slots) ++bits;
        CreditLoopModel recovery(recovering(c.config, bits, 7));
        for (int t = 0; t < 3000; ++t) {
            const Observation& p = plain.evaluate(plain_in.next());
            const Observation& r = recovery.evaluate(recovery_in.next());
            INFO("cycle " << t);
            REQUIRE(r.send == p.send);
            REQUIRE(r.credits == p.credits);
            REQUIRE(r.pop == p.pop);
            REQUIRE(r.occupancy == p.occupancy);
            REQUIRE(r.pending_returns == p.pending_returns);
            REQUIRE(r.return_waiting == p.return_waiting);
            REQUIRE(r.credits_returned == p.credits_returned);
            REQUIRE(r.credits_arriving == p.credits_arriving);
            REQUIRE(r.return_flight == p.return_flight);
            REQUIRE(r.credit_total == p.credit_total);
            REQUIRE_FALSE(r.update_refused);
            // The one difference: the periodic resend, a message with no new credits in it.
            if (r.return_message != p.return_message) REQUIRE(r.credits_returned == 0);
            plain_in.accepted(p.send);
            recovery_in.accepted(r.send);
            plain.update();
            recovery.update();
        }
    }
}

TEST_CASE("hand-worked: one lost update is resent T cycles after the last one went", "[recovery][model][trace]") {
    // The credit sent in cycle 0 is popped in 3; its update (total 1) enters the return path in 3
    // and arrives in 5 (L = 2), where it is dropped. The receiver's quiet count is 0 in cycle 4
    // and reaches T - 1 = 4 in cycle 8: the resend goes in 8, arrives in 10, and the credit is
    // spent again in 11 instead of 6: the loss cost exactly T = 5 cycles, no credit.
    for (bool drop : {false, true}) {
        RunSpec spec = one_credit(true);
        if (drop) spec.faults.drop_at = 5;
        Trace trace;
        RunOptions options;
        options.hooks.push_back(&trace);
        const RunResult r = run_link(nullptr, spec, options);
        INFO("drop " << drop);
        CHECK(r.passed);
        const auto sends = send_cycles(trace.cycles);
        REQUIRE(sends.size() >= 4);
        const uint64_t first_again = drop ? 11 : 6;
        CHECK(sends[0] == 0);
        CHECK(sends[1] == first_again);
        CHECK(sends[2] == first_again + 6);   // and the round trip is 2L + 2 again
        CHECK(sends[3] == first_again + 12);
        if (drop) {
            REQUIRE(r.faults.size() == 1);
            CHECK(r.faults[0].cycle == 5);
            CHECK(r.faults[0].credits == 1);
            CHECK(trace.cycles[8].return_message);   // the resend
            CHECK(trace.cycles[8].credits_returned == 0);
            CHECK(trace.cycles[10].credits_arriving == 1);
            // Conservation holds throughout: the credit sat in return_flight, covered by a total
            // sent but not yet accepted.
            for (uint64_t t = 6; t <= 10; ++t) CHECK(trace.cycles[t].return_flight == 1);
        }
    }
}

TEST_CASE("hand-worked: without recovery the same loss is caught by conservation and the watchdog", "[recovery][model][trace]") {
    RunSpec spec = one_credit(false);
    spec.faults.drop_at = 5;
    const RunResult r = run_link(nullptr, spec);
    CHECK_FALSE(r.passed);
    // The count dropped in 5 leaves the loop at that edge: cycle 6 is one short.
    CHECK(fired(r, "conservation.injected_loss", 6));
    // Starved from cycle 6 (0 credits, nothing anywhere): the bound is 2 (RTT + K - 1) = 12, so
    // the watchdog speaks at the 13th cycle, 18, with the one credit missing since 6.
    CHECK(starvation_bound(spec.config) == 12);
    REQUIRE(fired(r, "starvation", 18));
    for (const auto& v : r.violations) {
        if (v.check != "starvation") continue;
        CHECK(v.detail.find("since cycle 6") != std::string::npos);
        CHECK(v.detail.find("1 credit missing") != std::string::npos);
    }
    CHECK(r.credits_net_change == -1);
}

TEST_CASE("running totals wrap hundreds of times, with losses, and the link stays whole", "[recovery][model]") {
    RunSpec spec;
    spec.config = recovering(LinkConfig{1, 1, 1, 32}, 2, 3);   // totals modulo 4
    spec.cycles = 4000;
    spec.faults.drop_probability = 0.1;
    std::string error;
    spec.stimulus.traffic = *parse_traffic("bursts:5:7", error);
    const RunResult r = run_link(nullptr, spec);
    CHECK(r.passed);
    CHECK(r.window_sends > 400);   // > 100 wraps of the 2-bit totals in the window alone
    CHECK(r.faults.size() > 50);
}

TEST_CASE("the credit limit refuses a corrupted update past B, and a small one is absorbed or caught as made credits", "[recovery][model]") {
    RunSpec big;
    big.config = recovering(LinkConfig{4, 12, 1, 32}, 5, 16);
    big.faults.corrupt_probability = 0.02;
    big.faults.corrupt_add = 20;   // d + 20 > 12 - credits whatever d is
    const RunResult refused = run_link(nullptr, big);
    CHECK(refused.passed);
    CHECK(refused.refused_injected == refused.faults.size());
    CHECK(refused.refused_injected > 10);
    // +1 on one update. With a message every cycle (K = 1) the next update is already on its
    // way and covers the credit the corruption handed out early: running totals absorb it.
    RunSpec small = big;
    small.faults = FaultSpec{};
    small.faults.corrupt_at = 300;
    const RunResult absorbed = run_link(nullptr, small);
    CHECK(absorbed.passed);
    CHECK(absorbed.faults.size() == 1);
    CHECK(absorbed.credits_net_change == 0);
    // With batches of 8 no later update is on its way: the credit the corruption hands out is
    // still at the receiver, not in any total sent. It is made, and conservation names the fault.
    small.config = recovering(LinkConfig{4, 12, 8, 32}, 5, 16);
    const RunResult made = run_link(nullptr, small);
    CHECK_FALSE(made.passed);
    CHECK(made.refused_injected == 0);
    bool gain = false;
    for (const auto& v : made.violations) gain = gain || v.check == "conservation.injected_gain";
    CHECK(gain);
}

TEST_CASE("recovery.refused fires on a refusal no injected fault explains", "[recovery][scoreboards]") {
    const LinkConfig c = recovering(LinkConfig{4, 8, 1, 32}, 5, 16);
    StarvationScoreboard board(c);
    Observation o{};
    o.credits = 8;
    o.update_refused = true;
    o.fault_add = 9;   // explained: the environment corrupted it
    board.step(o);
    CHECK(board.ok());
    CHECK(board.refused_injected() == 1);
    o.cycle = 1;
    o.fault_add = 0;   // not explained
    board.step(o);
    REQUIRE(board.violation_count() == 1);
    CHECK(board.violations().front().check == "recovery.refused");
    CHECK(board.violations().front().cycle == 1);
}

TEST_CASE("recovery options: ranges, and a rerun line that gives the same run back", "[recovery][cli][bad-input]") {
    ParseError error;
    CHECK_FALSE(parse_run({"--B", "4", "--recovery", "--total-bits", "3"}, error));
    CHECK(error.message.find("2^n > 2B") != std::string::npos);
    CHECK(error.message.find("4..16") != std::string::npos);
    CHECK_FALSE(parse_run({"--resend", "8"}, error));
    CHECK(error.message.find("add --recovery") != std::string::npos);
    CHECK_FALSE(parse_run({"--drop", "1.5"}, error));
    CHECK(error.message.find("--drop") != std::string::npos);
    auto cmd = parse_run({"--B", "5", "--K", "2", "--recovery", "--resend", "9", "--drop", "0.05", "--drop-at", "77",
                          "--drop-every", "4", "--corrupt-at", "500", "--corrupt-add", "6", "--traffic", "bursts:4:9"},
                         error);
    REQUIRE(cmd);
    CHECK(cmd->spec.config.total_bits == 4);   // the narrowest with 2^n > 2B = 10
    std::vector<std::string> words;
    std::istringstream line(run_arguments(cmd->spec));
    for (std::string w; line >> w;) words.push_back(w);
    auto again = parse_run(words, error);
    REQUIRE(again);
    CHECK(run_arguments(again->spec) == run_arguments(cmd->spec));
    CHECK(again->spec.config == cmd->spec.config);
    CHECK(again->spec.faults.drop_at == 77u);
    CHECK(again->spec.faults.corrupt_add == 6u);
}

TEST_CASE("the faults table on the model: every row meets its closed form", "[recovery][faults-table]") {
    const std::string out = (fs::temp_directory_path() / ("creditloop_faults_" + std::to_string(::getpid()))).string();
    const int status = std::system((creditloop::testing::build_dir() + "/creditloop faults --model --cycles 8000 > " + out).c_str());
    const std::string text = creditloop::testing::slurp(out);
    fs::remove(out);
    INFO(text);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    size_t rows = 0, met = 0;
    for (size_t at = text.find("\n| o"); at != std::string::npos; at = text.find("\n| o", at + 1)) {
        ++rows;
        met += text.find("| yes |", at) < text.find('\n', at + 1);
    }
    CHECK(rows == 16);   // 4 drop rates without recovery, and with it at 3 periods
    CHECK(met == rows);
}

TEST_CASE("the hand-worked lost update on the RTL, in lockstep", "[rtl][recovery]") {
    RunSpec spec = one_credit(true);
    spec.faults.drop_at = 5;
    std::string error;
    auto library = DutLibrary::load(spec.config, DutSources::from_environment(), error);
    REQUIRE(library);
    auto dut = library->create();
    Trace trace;
    RunOptions options;
    options.hooks.push_back(&trace);
    const RunResult r = run_link(dut.get(), spec, options);
    CHECK(r.passed);
    const auto sends = send_cycles(trace.cycles);
    REQUIRE(sends.size() >= 2);
    CHECK(sends[1] == 11);
}

TEST_CASE("creditloop faults on the RTL: every row meets its closed form", "[rtl][recovery][faults-table]") {
    RecoveryTally tally;
    RunSpec spec;
    spec.config = recovering(LinkConfig{4, 4, 1, 32}, 4, 16);
    spec.cycles = 8000;
    std::string error;
    spec.stimulus.traffic = *parse_traffic("bursts:10:30", error);
    spec.faults.drop_probability = 0.1;
    auto library = DutLibrary::load(spec.config, DutSources::from_environment(), error);
    REQUIRE(library);
    auto dut = library->create();
    const RunResult r = run_with_tally(dut.get(), spec, tally);
    CHECK(r.passed);
    CHECK(tally.outages > 20);
    CHECK(tally.within_bound);   // every outage of n lost messages ended within n x T
    CHECK(tally.longest <= tally.longest_chain * 16);
}
