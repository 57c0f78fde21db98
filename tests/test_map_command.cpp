// creditloop map: a map guessed from your RTL's ports and parameters. On each example of
// examples/own_rtl/ the guess equals the hand-written map beside it (roles, parameters, reset
// polarity), and what a guess cannot know is marked to confirm; on designs in other published
// naming shapes (tests/fixtures/map_guess/) the guesses are the roles written here; a role it
// cannot place is "?", which run refuses with one line; bad input is one line, exit 2, nothing
// written; and a guessed map runs.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "test_support.h"

using nlohmann::json;
namespace fs = std::filesystem;
using creditloop::testing::CliOutcome;
using creditloop::testing::run_creditloop;
using creditloop::testing::slurp;
using creditloop::testing::source_dir;

namespace {

fs::path scratch_dir() {
    const fs::path dir = fs::temp_directory_path() / ("creditloop_map_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return dir;
}

std::string src(const std::string& relative) { return (fs::path(source_dir()) / relative).string(); }

// `creditloop map ARGS -o OUT --force`: its outcome, and the map it wrote.
struct Mapped {
    CliOutcome outcome;
    std::string text;
    json map;
};
Mapped map_of(const std::string& args, const std::string& name) {
    const fs::path out = scratch_dir() / name;
    Mapped m{run_creditloop("map " + args + " -o " + out.string() + " --force"), slurp(out.string()), json()};
    if (!m.text.empty()) m.map = json::parse(m.text, nullptr, true, /*ignore_comments=*/true);
    return m;
}

json hand_map(const std::string& relative) { return json::parse(std::ifstream(src(relative))); }

// The comment on the line of `"key":` (the first such line after `after`, when given), or "".
std::string comment_on(const std::string& text, const std::string& key, const std::string& after = "") {
    const size_t from = after.empty() ? 0 : text.find("\"" + after + "\":");
    const size_t at = text.find("\"" + key + "\":", from == std::string::npos ? 0 : from);
    if (at == std::string::npos) return "";
    const std::string line = text.substr(at, text.find('\n', at) - at);
    const size_t slash = line.find("//");
    return slash == std::string::npos ? "" : line.substr(slash + 2);
}

}  // namespace

TEST_CASE("map: each example's guess equals its hand-written map", "[map][fast]") {
    SECTION("occupancy counter") {
        const auto m = map_of(src("examples/own_rtl/occupancy_counter/occupancy_credit_counter.sv") + " -I " +
                                  src("examples/own_rtl/include"),
                              "occupancy.map.json");
        INFO(m.outcome.err << m.text);
        REQUIRE(m.outcome.exit_code == 0);
        const json hand = hand_map("examples/own_rtl/occupancy_counter/occupancy_counter.map.json");
        CHECK(m.map["block"] == "credit_counter");
        CHECK(m.map["ports"] == hand["ports"]);
        CHECK(m.map["parameters"] == hand["parameters"]);
        CHECK(m.map["sources"]["top"] == "occupancy_credit_counter");
        CHECK_FALSE(m.map.contains("ties"));
        CHECK(comment_on(m.text, "init").find("confirm") != std::string::npos);   // held at 0: a guess
        CHECK(comment_on(m.text, "reset").find("Confirm") != std::string::npos);
    }
    SECTION("valid/ready counter: counts with valids, a synchronous active-high reset, an initial value") {
        const auto m = map_of(src("examples/own_rtl/vr_counter/vr_credit_counter.sv") + " -I " + src("examples/own_rtl/include"),
                              "vr.map.json");
        INFO(m.outcome.err << m.text);
        REQUIRE(m.outcome.exit_code == 0);
        const json hand = hand_map("examples/own_rtl/vr_counter/vr_counter.map.json");
        CHECK(m.map["ports"] == hand["ports"]);
        CHECK(m.map["parameters"] == hand["parameters"]);
        CHECK(m.map["ports"]["reset"]["active"] == "high");
        CHECK(comment_on(m.text, "init").find("confirm") != std::string::npos);   // B: a guess of the initial value
        CHECK(comment_on(m.text, "withhold").find("confirm") != std::string::npos);
    }
    for (const auto& [name, files, hand_path] :
         {std::tuple<std::string, std::string, std::string>{"link", "examples/own_rtl/link/cbfc_tx.sv examples/own_rtl/link/cbfc_rx.sv",
                                                            "examples/own_rtl/link/link.map.json"},
          {"bypass_link", "examples/own_rtl/bypass_link/bypass_tx.sv examples/own_rtl/link/cbfc_rx.sv",
           "examples/own_rtl/bypass_link/bypass_link.map.json"},
          // A receiver of credit logic only: its one-bit pop_credit is a slot freed, and no
          // out_ready is needed (creditloop supplies the buffer).
          {"credit_receiver", "examples/own_rtl/link/cbfc_tx.sv examples/own_rtl/credit_receiver/credit_rx_logic.sv",
           "examples/own_rtl/credit_receiver/credit_receiver.map.json"},
          // A sender with a FIFO of its own: its tx_valid comes from the FIFO's flops, not from in_valid.
          {"fifo_sender", "examples/own_rtl/fifo_sender/fifo_tx.sv examples/own_rtl/link/cbfc_rx.sv",
           "examples/own_rtl/fifo_sender/fifo_sender.map.json"}}) {
        SECTION(name) {
            std::string args;
            std::istringstream each(files);
            for (std::string f; each >> f;) args += src(f) + " ";
            const auto m = map_of(args, name + ".map.json");
            INFO(m.outcome.err << m.text);
            REQUIRE(m.outcome.exit_code == 0);
            const json hand = hand_map(hand_path);
            CHECK(m.map["block"] == "link");
            for (const char* side : {"sender", "receiver"}) {
                CHECK(m.map[side]["module"] == hand[side]["module"]);
                CHECK(m.map[side]["ports"] == hand[side]["ports"]);
                CHECK(m.map[side]["parameters"] == hand[side]["parameters"]);
            }
            // The cycles the pair adds and a bypass, read from the logic behind the ports (a flop
            // before the credit out, a ready that reads the credits in): guesses, marked to confirm.
            CHECK(m.map["return_latency"] == hand["return_latency"]);
            CHECK(m.map["credits_on_arrival"] == hand.value("credits_on_arrival", false));
            CHECK(m.map.value("sender_fifo_latency", -1) == hand.value("sender_fifo_latency", -1));
            CHECK(comment_on(m.text, "return_latency").find("Confirm") != std::string::npos);
            CHECK(comment_on(m.text, "credits_on_arrival").find("Confirm") != std::string::npos);
        }
    }
    // One module holding every channel's counters: a parameter named like a count of channels
    // sizes its ports a slice per channel. An array of counters (CHI-style), and a sender with a
    // push and arbiter ports per virtual channel and one flit out (bedrock's br_credit_sender_vc).
    for (const auto& [name, file, hand_path] :
         {std::tuple<std::string, std::string, std::string>{"counter_array", "examples/own_rtl/counter_array/lcrd_counter_array.sv",
                                                            "examples/own_rtl/counter_array/counter_array.map.json"},
          {"vc_sender", "examples/own_rtl/vc_sender/vc_credit_sender.sv", "examples/own_rtl/vc_sender/vc_sender.map.json"}}) {
        SECTION(name) {
            const auto m = map_of(src(file), name + ".map.json");
            INFO(m.outcome.err << m.text);
            REQUIRE(m.outcome.exit_code == 0);
            const json hand = hand_map(hand_path);
            CHECK(m.map["block"] == "credit_counters");
            CHECK(m.map["parameters"] == hand["parameters"]);
            CHECK(m.map["ports"] == hand["ports"]);
            CHECK(m.map.value("ties", json::object()) == hand.value("ties", json::object()));
            CHECK(comment_on(m.text, "credits").find("a channel: confirm") != std::string::npos);
            std::string count;   // the parameter that is N: where it came from, to confirm
            for (const auto& [param, value] : hand["parameters"].items())
                if (value == "N") count = param;
            CHECK(comment_on(m.text, count).find("sizes the per-channel ports") != std::string::npos);
            CHECK(comment_on(m.text, count).find("(confirm)") != std::string::npos);
        }
    }
}

TEST_CASE("map: designs in other published naming shapes get the roles intended", "[map][fast]") {
    const std::string dir = "tests/fixtures/map_guess/";
    SECTION("OpenTitan-style counter: _i/_o/_ni, consume/release, inputs with no role tied") {
        const auto m = map_of(src(dir + "ot_credit_counter.sv"), "ot.map.json");
        INFO(m.outcome.err << m.text);
        REQUIRE(m.outcome.exit_code == 0);
        CHECK(m.map["ports"] == json::parse(R"({
            "clock": "clk_i",
            "reset": {"port": "rst_ni", "active": "low", "kind": "async"},
            "send": "consume_i", "credit_return": "release_i",
            "can_send": "credit_avail_o", "credits": "credit_cnt_o"})"));
        CHECK(m.map["parameters"] == json::parse(R"({"NumCredit": "B"})"));
        CHECK(m.map["ties"] == json::parse(R"({"test_mode_i": 0, "clr_i": 0})"));
        CHECK(comment_on(m.text, "clr_i").find("confirm") != std::string::npos);
    }
    SECTION("bedrock-style link: push/pop interfaces, credits as counts, a stall input, a synchronous reset") {
        const auto m = map_of(src(dir + "bd_link.sv"), "bd.map.json");
        INFO(m.outcome.err << m.text);
        REQUIRE(m.outcome.exit_code == 0);
        CHECK(m.map["sender"]["module"] == "bd_credit_sender");
        CHECK(m.map["sender"]["ports"] == json::parse(R"({
            "clock": "clk", "reset": {"port": "rst", "active": "high", "kind": "sync"},
            "in_valid": "push_valid", "in_ready": "push_ready", "in_data": "push_data",
            "out_valid": "pop_valid", "out_data": "pop_data",
            "credit_count": "pop_credit", "credits": "credit_count_o"})"));
        CHECK(m.map["sender"]["parameters"] == json::parse(R"({"MaxCredit": "B", "DataWidth": "W"})"));
        CHECK(m.map["receiver"]["module"] == "bd_credit_receiver");
        CHECK(m.map["receiver"]["ports"] == json::parse(R"({
            "clock": "clk", "reset": {"port": "rst", "active": "high", "kind": "sync"},
            "in_valid": "push_valid", "in_data": "push_data",
            "out_valid": "pop_valid", "out_ready": "pop_ready", "out_data": "pop_data",
            "credit_count": "push_credit"})"));
        CHECK(m.map["receiver"]["parameters"] == json::parse(R"({"Depth": "B", "DataWidth": "W"})"));
        CHECK(m.map["receiver"]["ties"] == json::parse(R"({"push_credit_stall": 0})"));
        CHECK(m.map["return_latency"] == 0);   // push_credit is logic of pop_ready: no flop between
        CHECK(m.map["credits_on_arrival"] == false);
    }
    SECTION("plain valid/ready/data: which way each flit goes from the ports' directions alone") {
        const auto m = map_of(src(dir + "plain_link.sv"), "plain.map.json");
        INFO(m.outcome.err << m.text);
        REQUIRE(m.outcome.exit_code == 0);
        CHECK(m.map["sender"]["ports"] == json::parse(R"({
            "clock": "clk", "reset": {"port": "rstn", "active": "low", "kind": "async"},
            "in_valid": "valid", "in_ready": "ready", "in_data": "data",
            "out_valid": "tx_valid", "out_data": "tx_data",
            "credit_valid": "credit_valid", "credit_count": "credit"})"));
        CHECK(m.map["receiver"]["ports"] == json::parse(R"({
            "clock": "clk", "reset": {"port": "rstn", "active": "low", "kind": "async"},
            "in_valid": "rx_valid", "in_data": "rx_data",
            "out_valid": "valid", "out_ready": "ready", "out_data": "data",
            "credit_valid": "credit_valid", "credit_count": "credit"})"));
        CHECK(m.map["sender"]["parameters"] == json::parse(R"({"CREDITS": "B", "W": "W"})"));
    }
    SECTION("upper-case credit pools: NUM_POOLS, one-bit consume and crd_release a pool, no init, a clear tied") {
        const auto m = map_of(src(dir + "fc_pool_credits.sv"), "fc.map.json");
        INFO(m.outcome.err << m.text);
        REQUIRE(m.outcome.exit_code == 0);
        CHECK(m.map["block"] == "credit_counters");
        CHECK(m.map["parameters"] == json::parse(R"({"NUM_POOLS": "N", "CRD_MAX": "B"})"));
        CHECK(m.map["ports"] == json::parse(R"({
            "clock": "clk", "reset": {"port": "rst_n", "active": "low", "kind": "async"},
            "send": "consume", "credit_return": "crd_release", "can_send": "crd_avail", "credits": "crd_cnt"})"));
        CHECK(m.map["ties"] == json::parse(R"({"soft_clear": 0})"));
    }
    SECTION("a router's VC output port in a terse naming: NVC, in_vld/in_rdy/in_flit, arb_req/arb_gnt, out_vc_id, crd_rtn") {
        const auto m = map_of(src(dir + "noc_vc_tx.sv"), "noc.map.json");
        INFO(m.outcome.err << m.text);
        REQUIRE(m.outcome.exit_code == 0);
        CHECK(m.map["block"] == "credit_counters");
        CHECK(m.map["parameters"] == json::parse(R"({"NVC": "N", "FLIT_W": "W", "MAX_CRD": "B"})"));
        CHECK(m.map["ports"] == json::parse(R"({
            "clock": "clk", "reset": {"port": "rst_n", "active": "low", "kind": "async"},
            "push_valid": "in_vld", "push_ready": "in_rdy", "push_data": "in_flit",
            "request": "arb_req", "grant": "arb_gnt",
            "out_valid": "out_vld", "out_vc": "out_vc_id", "out_data": "out_flit",
            "credit_return": "crd_rtn", "init": {"port": "crd_init", "value": "B"}, "credits": "crd_cnt"})"));
        CHECK_FALSE(m.map.contains("ties"));
        CHECK(m.text.find("not placed (optional): can_grant") != std::string::npos);
    }
}

TEST_CASE("map: --kind counters finds the parameter that sizes the ports when no name says so, --kind counter keeps one counter",
          "[map][fast]") {
    // P sizes every port a slice per channel, but its name says nothing of channels.
    const fs::path rtl = scratch_dir() / "p_counters.sv";
    std::ofstream(rtl) << "module p_counters #(parameter int P = 2, parameter int Depth = 4, localparam int C = $clog2(Depth + 1)) (\n"
                          "  input logic clk, rst_n, input logic [P-1:0] take, give, output logic [P-1:0][C-1:0] count);\n"
                          "  for (genvar c = 0; c < P; c++) begin : g\n"
                          "    always_ff @(posedge clk or negedge rst_n)\n"
                          "      if (!rst_n) count[c] <= C'(Depth); else count[c] <= count[c] - C'(take[c]) + C'(give[c]);\n"
                          "  end\nendmodule\n";
    const auto guessed = map_of(rtl.string(), "p_guessed.map.json");
    CHECK(guessed.map["block"] == "credit_counter");   // no name says channels: one counter, as before
    const auto forced = map_of(rtl.string() + " --kind counters", "p_forced.map.json");
    INFO(forced.outcome.err << forced.text);
    REQUIRE(forced.outcome.exit_code == 0);
    CHECK(forced.map["block"] == "credit_counters");
    CHECK(forced.map["parameters"] == json::parse(R"({"P": "N", "Depth": "B"})"));
    CHECK(forced.map["ports"] == json::parse(R"({
        "clock": "clk", "reset": {"port": "rst_n", "active": "low", "kind": "async"},
        "send": "take", "credit_return": "give", "credits": "count"})"));
    CHECK(forced.text.find("(--kind counters; P sizes 3 of its ports a slice per channel: take, give, count)") != std::string::npos);
    // The examples' arrays as one counter when asked; and no parameter sizing ports is one line, exit 2.
    const auto one = map_of(src("examples/own_rtl/counter_array/lcrd_counter_array.sv") + " --kind counter", "one.map.json");
    CHECK(one.map["block"] == "credit_counter");
    const auto fixed = run_creditloop("map " + src("tests/fixtures/map_guess/ot_credit_counter.sv") + " --kind counters -o -");
    CHECK(fixed.exit_code == 2);
    CHECK(fixed.err == "creditloop: map: --kind counters: no parameter of ot_credit_counter sizes its ports a slice per channel "
                       "(logic [N-1:0][W-1:0], N a parameter): a module fixed at its channel count is not taken; map it as one "
                       "counter with --kind counter\n");
}

TEST_CASE("map: a role it cannot place is \"?\", exit 1, and run refuses the map with one line", "[map][fast][bad-input]") {
    const fs::path rtl = scratch_dir() / "odd_counter.sv";
    std::ofstream(rtl) << "module odd_counter (input logic clk, input logic rst_n, input logic foo, output logic [3:0] bar);\n"
                          "  always_ff @(posedge clk or negedge rst_n) if (!rst_n) bar <= '0; else bar <= bar + 4'(foo);\n"
                          "endmodule\n";
    const auto m = map_of(rtl.string(), "odd.map.json");
    INFO(m.outcome.err << m.text);
    CHECK(m.outcome.exit_code == 1);
    CHECK(m.map["ports"]["send"] == "?");
    CHECK(m.map["ports"]["credits"] == "?");
    CHECK(m.map["ties"]["foo"] == 0);
    CHECK(m.text.find("// NOT PLACED: send, credit_return, credits.") != std::string::npos);
    CHECK(m.outcome.err == "creditloop map: could not place send, credit_return, credits: each is \"?\" in " +
                               (scratch_dir() / "odd.map.json").string() + "; name its port before running\n");
    const auto run = run_creditloop("run --counter " + (scratch_dir() / "odd.map.json").string() + " --cycles 400");
    CHECK(run.exit_code == 2);
    CHECK(run.err == "creditloop: --counter " + (scratch_dir() / "odd.map.json").string() +
                         ": role credit_return is \"?\" (creditloop map could not place it): name the port that plays it\n");
}

TEST_CASE("map: bad input is one line, exit 2, nothing written", "[map][fast][bad-input]") {
    const fs::path out = scratch_dir() / "bad.map.json";
    fs::remove(out);
    const auto one_line = [](const CliOutcome& o) { return std::count(o.err.begin(), o.err.end(), '\n') == 1; };

    const auto missing = run_creditloop("map /nonexistent/counter.sv -o " + out.string());
    CHECK(missing.exit_code == 2);
    CHECK(missing.err == "creditloop: map: no such file: /nonexistent/counter.sv (give the paths of your RTL files)\n");
    const auto unknown = run_creditloop("map --frob " + src("tests/fixtures/map_guess/ot_credit_counter.sv") + " -o " + out.string());
    CHECK(unknown.exit_code == 2);
    CHECK(one_line(unknown));
    CHECK(unknown.err.find("--frob") != std::string::npos);
    const fs::path empty = scratch_dir() / "no_module.sv";
    std::ofstream(empty) << "// nothing here\n";
    const auto none = run_creditloop("map " + empty.string() + " -o " + out.string());
    CHECK(none.exit_code == 2);
    CHECK(none.err == "creditloop: map: no module in your files: give the files that hold your counter or link\n");
    const fs::path broken = scratch_dir() / "broken.sv";
    std::ofstream(broken) << "module broken (input logic clk;\nendmodule\n";
    const auto error = run_creditloop("map " + broken.string() + " -o " + out.string());
    CHECK(error.exit_code == 2);
    CHECK(one_line(error));
    CHECK(error.err.rfind("creditloop: Verilator cannot read your RTL: %Error: " + broken.string(), 0) == 0);
    const auto include = run_creditloop("map " + src("examples/own_rtl/vr_counter/vr_credit_counter.sv") + " -o " + out.string());
    CHECK(include.exit_code == 2);
    CHECK(include.err.find("cl_registers.svh") != std::string::npos);   // the fix: -I the include folder
    CHECK_FALSE(fs::exists(out));

    // An existing map is kept unless --force: refused before anything is read.
    std::ofstream(out) << "mine\n";
    const auto exists = run_creditloop("map " + src("tests/fixtures/map_guess/ot_credit_counter.sv") + " -o " + out.string());
    CHECK(exists.exit_code == 2);
    CHECK(exists.err == "creditloop: map: " + out.string() + " exists: give --force to overwrite it, or another -o\n");
    CHECK(slurp(out.string()) == "mine\n");
    const auto forced = run_creditloop("map " + src("tests/fixtures/map_guess/ot_credit_counter.sv") + " -o " + out.string() +
                                       " --force");
    CHECK(forced.exit_code == 0);
    CHECK(slurp(out.string()) != "mine\n");
    // No temporary file is left beside it.
    for (const auto& entry : fs::directory_iterator(scratch_dir())) CHECK(entry.path().filename().string().find(".tmp") == std::string::npos);
}

TEST_CASE("map: the guessed maps of every channel's counters run, on CHI's pools where they can take them", "[rtl][own-rtl][map][array]") {
    const fs::path dir = scratch_dir() / "guessed_counters";
    fs::create_directories(dir);
    // Each design, and the channels it can take: packets of one credit for a one-bit send or a
    // VC sender (DAT's lines as one 64-byte credit), pools of one B without an init port.
    const std::string chi_one_credit = "--preset chi --channel name=DAT,unit=64";
    for (const auto& [file, channels] :
         {std::pair<std::string, std::string>{"examples/own_rtl/counter_array/lcrd_counter_array.sv", "--preset chi"},
          {"examples/own_rtl/vc_sender/vc_credit_sender.sv", chi_one_credit},
          {"tests/fixtures/map_guess/noc_vc_tx.sv", chi_one_credit},
          {"tests/fixtures/map_guess/fc_pool_credits.sv", "--L 2 --channel name=P,credits=8 --channel name=NP,credits=8"}}) {
        const std::string map = (dir / (fs::path(file).stem().string() + ".map.json")).string();
        const auto m = run_creditloop("map " + src(file) + " -o " + map + " --force");
        REQUIRE(m.exit_code == 0);
        const auto run = run_creditloop("run " + channels + " --cycles 3000 --counter " + map);
        INFO(file << "\n" << run.out << run.err);
        CHECK(run.exit_code == 0);
        CHECK(run.out.find("lockstep: 3,000 cycles checked, 0 violations") != std::string::npos);
    }
}

TEST_CASE("map: the guessed map of the occupancy counter runs, its paths from its own folder", "[rtl][own-rtl][map]") {
    const fs::path dir = scratch_dir() / "guessed";
    fs::create_directories(dir);
    const auto m = run_creditloop("map " + src("examples/own_rtl/occupancy_counter/occupancy_credit_counter.sv") + " -I " +
                                  src("examples/own_rtl/include") + " -o " + (dir / "occupancy.map.json").string() + " --force");
    REQUIRE(m.exit_code == 0);
    const json map = json::parse(slurp((dir / "occupancy.map.json").string()), nullptr, true, true);
    CHECK(fs::path(map["sources"]["files"][0].get<std::string>()).is_relative());
    const auto run = run_creditloop("run --counter " + (dir / "occupancy.map.json").string() + " --cycles 2000");
    INFO(run.out << run.err);
    CHECK(run.exit_code == 0);
}
