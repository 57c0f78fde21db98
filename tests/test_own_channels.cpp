// Your own credit counter on the multi-channel link: a counter map takes every pool's place
// (CHI's four pools, PCIe's header and data pools, InfiniBand's lanes), checked in lockstep
// with the channel model; a counter that takes one credit a send is refused where a packet
// takes several at once, in one line; its mutant is caught per pool; and make sim runs the
// channels/ tests it can take.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "test_support.h"

namespace fs = std::filesystem;
using creditloop::testing::CliOutcome;

namespace {

std::string example(const std::string& relative) {
    return (fs::path(creditloop::testing::source_dir()) / "examples/own_rtl" / relative).string();
}

// creditloop run in a scratch folder (where a failing run's waves go), both streams kept apart.
CliOutcome run_in_scratch(const std::string& args) {
    const fs::path dir = fs::temp_directory_path() / ("creditloop_own_channels_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string out = (dir / "out").string(), err = (dir / "err").string();
    const int status = std::system(("cd " + dir.string() + " && " + creditloop::testing::build_dir() + "/creditloop " + args +
                                    " >" + out + " 2>" + err)
                                       .c_str());
    CliOutcome o{WIFEXITED(status) ? WEXITSTATUS(status) : -1, creditloop::testing::slurp(out),
                 creditloop::testing::slurp(err)};
    fs::remove_all(dir);
    return o;
}

// The counter `map` in the chi, pcie and ib presets' pools: each passes, in lockstep, conserving.
void passes_every_preset(const std::string& map) {
    for (const char* preset : {"chi", "pcie", "ib"}) {
        const CliOutcome r = run_in_scratch(std::string("run --preset ") + preset + " --counter " + map);
        INFO(preset << "\n" << r.out << r.err);
        CHECK(r.exit_code == 0);
        CHECK(r.out.find("lockstep: 6,000 cycles checked, 0 violations") != std::string::npos);
        CHECK(r.out.find("conservation: 6,000 cycles checked, 0 violations") != std::string::npos);
    }
}

// A leak on chi (L = 4): no credit is back before 2L + 1 = 9 cycles, so the first loss shows at
// cycle 10 at the earliest, and it is one credit of one pool.
void first_loss_is_one_credit_after_the_round_trip(const std::string& out) {
    std::smatch m;
    const std::regex first("first violation: cycle (\\d+): conservation\\.pool link\\.pool\\.(\\w+)\\.total expected (\\d+) got (\\d+)");
    REQUIRE(std::regex_search(out, m, first));
    CHECK(std::stoi(m[1]) >= 10);
    CHECK(std::stoi(m[4]) == std::stoi(m[3]) - 1);
}

}  // namespace

TEST_CASE("your own counter takes every pool's place on the multi-channel link, in lockstep with the model",
          "[rtl][own-rtl][channels]") {
    const std::string vr = example("vr_counter/vr_counter.map.json");
    // vr_credit_counter takes a count with its valid: DAT's 64-byte lines cost 2 credits of 32
    // bytes at once, and its ready answers for both.
    passes_every_preset(vr);

    // occupancy_credit_counter takes one credit a send (a one-bit take): refused on CHI, whose DAT
    // packets take 2, in one line and exit 2; accepted where every packet is one credit.
    const std::string occupancy = example("occupancy_counter/occupancy_counter.map.json");
    const CliOutcome refused = run_in_scratch("run --preset chi --counter " + occupancy);
    CHECK(refused.exit_code == 2);
    CHECK(refused.err.find("creditloop: your counter takes one credit a send (a one-bit send), but a packet of channel DAT of "
                           "64 bytes takes 2 credits at once") != std::string::npos);
    const CliOutcome two = run_in_scratch("run --L 2 --channel name=A,credits=6 --channel name=B,credits=3 --counter " + occupancy);
    INFO(two.out << two.err);
    CHECK(two.exit_code == 0);

    // The vr counter's leak (a return beside a take is lost), on CHI: the first loss is one
    // credit of one pool, and none can come back before a round trip, 2L + 2 = 10 cycles.
    const CliOutcome leak = run_in_scratch("run --preset chi --counter " + vr + " --mutant " +
                                           example("vr_counter/mutants/vr_credit_counter_drop.mutant"));
    INFO(leak.out << leak.err);
    CHECK(leak.exit_code == 1);
    first_loss_is_one_credit_after_the_round_trip(leak.out);
    CHECK(leak.out.find("rerun: ") != std::string::npos);
    CHECK(leak.out.find("--counter " + vr + " --mutant ") != std::string::npos);

    // A name of rtl/mutants/channels/ with --counter is refused: the patch must be of the map's files.
    const CliOutcome named = run_in_scratch("run --preset chi --counter " + vr + " --mutant channel_shared_count");
    CHECK(named.exit_code == 2);
    CHECK(named.err.find("with --counter, --mutant is a .mutant patch of one of your counter's files") != std::string::npos);
}

TEST_CASE("make sim with a counter map runs the channels/ tests the counter can take", "[rtl][own-rtl][channels][regression]") {
    const fs::path dir = fs::temp_directory_path() / ("creditloop_own_channels_regress_" + std::to_string(::getpid()));
    const CliOutcome r = run_in_scratch("regress --counter " + example("vr_counter/vr_counter.map.json") +
                                        " --filter 'channels/chi*' --junit " + (dir / "r.xml").string());
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(std::regex_search(r.out, std::regex("channels/chi +4 channels, L4 +20000 .* PASS")));
    CHECK(std::regex_search(r.out, std::regex("channels/chi_drops_recovery +4 channels, L4 .* PASS")));
    // The synchronous reset of vr_credit_counter cannot take chi_policies_resets's mid-run resets.
    CHECK(r.out.find("1 channels/ tests need what your counter cannot take; skipped for yours") != std::string::npos);
    CHECK(r.out.find("channels/chi_policies_resets") == std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a module holding every channel's counter takes credit_counters' place, a slice a pool",
          "[rtl][own-rtl][channels][array]") {
    const std::string array = example("counter_array/counter_array.map.json");
    // lcrd_counter_array: per-channel packed ports, a count taken with its valid, an init port
    // that gives each pool its own B (CHI's 15/8/8/15), DAT's lines two credits at once.
    const CliOutcome chi = run_in_scratch("run --preset chi --counter " + array);
    INFO(chi.out << chi.err);
    CHECK(chi.exit_code == 0);
    CHECK(chi.out.find("lockstep: 6,000 cycles checked, 0 violations") != std::string::npos);
    CHECK(chi.out.find("conservation: 6,000 cycles checked, 0 violations") != std::string::npos);
    const CliOutcome single = run_in_scratch("run --L 4 --B 12 --K 4 --cycles 3000 --counter " + array);   // an array of one
    INFO(single.out << single.err);
    CHECK(single.exit_code == 0);
    CHECK(single.out.find("lockstep: 3,000 cycles checked, 0 violations") != std::string::npos);

    // Its one-line leak (a channel's returned credits lost in a cycle it also sends). No credit
    // comes back before the round trip 2L + 1 = 9 cycles on chi, so the first loss shows at the
    // next cycle at the earliest, one credit of one pool.
    const CliOutcome leak = run_in_scratch("run --preset chi --counter " + array + " --mutant " +
                                           example("counter_array/mutants/lcrd_counter_array_return_lost.mutant"));
    INFO(leak.out << leak.err);
    CHECK(leak.exit_code == 1);
    first_loss_is_one_credit_after_the_round_trip(leak.out);

    // Without an init port every pool starts from the module's parameter: pools of different B
    // are refused in one line before anything is built, pools of one B run.
    const fs::path dir = fs::temp_directory_path() / ("creditloop_array_map_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string no_init = (dir / "no_init.map.json").string();
    std::ofstream(dir / "param_array.sv")
        << "module param_array #(parameter int N = 2, parameter int M = 4, localparam int C = $clog2(M + 1)) (\n"
           "  input logic clk, rst_n, input logic [N-1:0] take_valid, input logic [N-1:0][C-1:0] take, give,\n"
           "  output logic [N-1:0] ready, output logic [N-1:0][C-1:0] count);\n"
           "  for (genvar c = 0; c < N; c++) begin : g\n"
           "    assign ready[c] = count[c] >= take[c];\n"
           "    always_ff @(posedge clk or negedge rst_n)\n"
           "      if (!rst_n) count[c] <= C'(M);   // every channel starts from the parameter\n"
           "      else count[c] <= count[c] - ((take_valid[c] && ready[c]) ? take[c] : '0) + give[c];\n"
           "  end\nendmodule\n";
    std::ofstream(no_init) << "{\"block\": \"credit_counters\", \"sources\": {\"files\": [\"param_array.sv\"]},\n"
                           << " \"parameters\": {\"N\": \"N\", \"M\": \"B\"},\n"
                           << " \"ports\": {\"clock\": \"clk\", \"reset\": \"rst_n\", \"send\": {\"port\": \"take\", "
                              "\"valid\": \"take_valid\"}, \"can_send\": \"ready\", \"credit_return\": \"give\", "
                              "\"credits\": \"count\"}}\n";
    const CliOutcome refused = run_in_scratch("run --preset chi --counter " + no_init);   // refused before any build
    INFO(refused.out << refused.err);
    CHECK(refused.exit_code == 2);
    CHECK(refused.err.find("creditloop: your counter array starts every pool from one B (no init role), but channel RSP has 8 "
                           "credits and channel REQ 15") != std::string::npos);
    const CliOutcome equal = run_in_scratch("run --L 2 --cycles 2000 --channel name=A,credits=6 --channel name=B,credits=6 --counter " + no_init);
    INFO(equal.out << equal.err);
    CHECK(equal.exit_code == 0);
    CHECK(equal.out.find("lockstep: 2,000 cycles checked, 0 violations") != std::string::npos);

    // A per-channel port that is not N slices is named with the form it takes.
    const std::string scalar = (dir / "scalar.map.json").string();
    std::ofstream(scalar) << "{\"block\": \"credit_counters\", \"sources\": {\"files\": [\""
                          << example("counter_array/lcrd_counter_array.sv") << "\"]},\n"
                          << " \"parameters\": {\"NumChannels\": \"2\", \"MaxCredits\": \"B\"},\n"
                          << " \"ports\": {\"clock\": \"clk_i\", \"reset\": \"rst_ni\", \"send\": {\"port\": \"take_i\", "
                             "\"valid\": \"take_valid_i\"}, \"can_send\": \"take_ready_o\", \"credit_return\": \"give_i\", "
                             "\"credits\": \"count_o\", \"init\": {\"port\": \"init_i\", \"value\": \"B\"}}}\n";
    const CliOutcome fixed = run_in_scratch("run --preset chi --counter " + scalar);
    CHECK(fixed.exit_code == 2);
    CHECK(fixed.err.find("role can_send: port take_ready_o is 2 bits at N = 3, not a slice per channel") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a per-virtual-channel sender launches its own flits: pushes per VC, its arbiter port granted, the flit and its VC checked",
          "[rtl][own-rtl][channels][array]") {
    const std::string vc = example("vc_sender/vc_sender.map.json");
    // vc_credit_sender (bedrock's br_credit_sender_vc shape): the link's round-robin grants a
    // channel, the sender is pushed its flit and launches it with its VC; lockstep compares the
    // flit, its lane (the VC) and payload with the model's, and the data check follows every tag.
    // CHI with DAT's lines of one 64-byte credit: one flit a packet, as a VC sender pushes.
    const std::string chi = "run --preset chi --channel name=DAT,unit=64 --counter " + vc;
    const CliOutcome r = run_in_scratch(chi);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("lockstep: 6,000 cycles checked, 0 violations") != std::string::npos);
    CHECK(r.out.find("data: 6,000 cycles checked, 0 violations") != std::string::npos);

    // Its one-line leak: a VC's returned credits lost beside a send. No credit is back before
    // the round trip's 2L + 1 = 9 cycles, so the first loss shows at cycle 10 at the earliest.
    const CliOutcome leak =
        run_in_scratch(chi + " --mutant " + example("vc_sender/mutants/vc_credit_sender_return_lost.mutant"));
    INFO(leak.out << leak.err);
    CHECK(leak.exit_code == 1);
    first_loss_is_one_credit_after_the_round_trip(leak.out);

    // What a VC sender cannot take, refused in one line before anything is built: packets of
    // several flits (CHI's DAT as it comes), header/data channels (PCIe), one shared pool.
    const CliOutcome lines = run_in_scratch("run --preset chi --counter " + vc);
    CHECK(lines.exit_code == 2);
    CHECK(lines.err.find("a packet of channel DAT of 64 bytes takes 2 credits at once") != std::string::npos);
    const CliOutcome split = run_in_scratch("run --L 2 --channel name=P,credits=4,data=8,bytes=0-16,unit=16 --counter " + vc);
    CHECK(split.exit_code == 2);
    CHECK(split.err.find("is header/data (two lanes): give every channel one lane") != std::string::npos);
    const CliOutcome shared = run_in_scratch("run --L 2 --shared-pool --channel name=A,credits=4 --channel name=B,credits=4 --counter " + vc);
    CHECK(shared.exit_code == 2);
    CHECK(shared.err.find("your sender keeps a counter a virtual channel: drop --shared-pool") != std::string::npos);
}
