// Your own counter as it comes: two counters written the way open-source credit
// libraries publish them (an include of a register-macro header, _i/_o names, take/give/init, a
// valid/ready counter with several credits a cycle and a synchronous active-high reset, and a
// WIDTH warning each), plugged in through a JSON port map with no adapter; their mutants, patches
// of the live example files (--mutant PATH.mutant), are caught; a bad map or a patch that does not
// fit gets one line naming the problem.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "block_swap.h"
#include "dut_library.h"
#include "link_run.h"
#include "own_link.h"
#include "port_map.h"
#include "regress_support.h"
#include "regression.h"
#include "test_support.h"

using namespace creditloop;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Every configuration the RTL tests below run, built at once as one bank (the first test to get
// the build lock builds it, the others find it ready).
void prebuild_own_rtl();
// The vr counter's map with its values as expressions of B: it starts one credit short (B-1) and
// withholds B-B = 0. One wrapper for every B.
std::string short_start_map();

fs::path example(const std::string& relative) { return fs::path(creditloop::testing::source_dir()) / "examples/own_rtl" / relative; }

// An example design's mutant: the .mutant patch of one of its files, as `--mutant` takes it.
std::string mutant(const std::string& relative) { return example(relative).string(); }

// `j` written to a scratch file named by its content: the same map is the same file in every
// test process, so the wrapper (which names its map) and so the verilated bank are shared.
std::string write_scratch(const json& j, const std::string& prefix) {
    const std::string text = j.dump(2);
    const fs::path out = fs::temp_directory_path() / (prefix + std::to_string(std::hash<std::string>{}(text)) + ".json");
    std::ofstream(out) << text;
    return out.string();
}

// The example's map with some of it changed, written to a scratch file (paths made absolute).
std::string scratch_map(const std::string& map, const std::function<void(json&)>& change) {
    json j = json::parse(std::ifstream(example(map)));
    const fs::path dir = example(map).parent_path();
    for (auto& f : j["sources"]["files"]) f = (dir / f.get<std::string>()).string();
    for (auto& d : j["sources"]["incdirs"]) d = (dir / d.get<std::string>()).string();
    change(j);
    return write_scratch(j, "creditloop_map_");
}

std::string short_start_map() {
    return scratch_map("vr_counter/vr_counter.map.json", [](json& j) {
        j["ports"]["init"]["value"] = "B - 1";
        j["ports"]["withhold"] = {{"port", "withhold"}, {"tie", "B-B"}};
    });
}

std::string swap_error(const std::string& map_path, int b = 12) {
    DutSources sources = DutSources::from_environment();
    SwappedBlock swapped;
    return swap_block(sources, "credit_counter.sv", map_path, b, swapped);
}

RunResult run_with(const std::string& map_path, RunSpec spec, SwappedBlock& swapped, const std::string& patch = "") {
    prebuild_own_rtl();
    DutSources sources = DutSources::from_environment();
    const std::string problem = swap_block(sources, "credit_counter.sv", map_path, spec.config.buffer_slots, swapped, patch);
    INFO(problem);
    REQUIRE(problem.empty());
    std::string error;
    auto library = DutLibrary::load(spec.config, sources, error);
    INFO(error);
    REQUIRE(library);
    auto dut = library->create();
    return run_link(dut.get(), spec);
}

}  // namespace

TEST_CASE("both counter shapes plug in through a map, warnings shown, and pass in lockstep", "[rtl][own-rtl]") {
    RunSpec occupancy;
    occupancy.config = LinkConfig{4, 5, 1, 32};   // one credit back a cycle: K = 1
    SwappedBlock a;
    const RunResult ra = run_with(example("occupancy_counter/occupancy_counter.map.json").string(), occupancy, a);
    CHECK(ra.passed);
    CHECK(a.module == "occupancy_credit_counter");
    CHECK(a.single_credit_return);
    REQUIRE_FALSE(a.warnings.empty());   // its == against a 32-bit parameter, named at its own file and line
    CHECK(a.warnings.front().find("WIDTH") != std::string::npos);
    CHECK(a.warnings.front().find("occupancy_credit_counter.sv:40") != std::string::npos);
    RunSpec vr;
    vr.config = LinkConfig{4, 6, 2, 32};   // batches of 2 and flushes: several credits in one cycle
    vr.stimulus.flush_probability = 0.1;
    SwappedBlock b;
    const RunResult rb = run_with(example("vr_counter/vr_counter.map.json").string(), vr, b);
    CHECK(rb.passed);
    CHECK(b.synchronous_reset);
    CHECK_FALSE(b.single_credit_return);
    CHECK(rb.throughput == Approx(0.545).margin(0.01));   // B / (RTT + K - 1) = 6 / 11
}

TEST_CASE("each example counter's mutant is caught on its first cycle", "[rtl][own-rtl][mutant]") {
    RunSpec occupancy;
    occupancy.config = LinkConfig{4, 5, 1, 32};
    SwappedBlock a;
    const RunResult ra = run_with(example("occupancy_counter/occupancy_counter.map.json").string(), occupancy, a,
                                  mutant("occupancy_counter/mutants/occupancy_credit_counter_leak.mutant"));
    CHECK_FALSE(ra.passed);
    REQUIRE(ra.first_violation());
    // The first credit comes back in cycle 9 (2L + 1) while a flit is taken: lost at that edge,
    // found at cycle 10's start? The give and the take first meet in cycle 10 (B = 5 < RTT keeps
    // the sender idle in 5..9), so the total is one short at 11.
    CHECK(ra.first_violation()->cycle == 11);
    CHECK(ra.first_violation()->check == "conservation.total");
    RunSpec vr;
    vr.config = LinkConfig{4, 6, 2, 32};
    vr.stimulus.flush_probability = 0.1;
    SwappedBlock b;
    const RunResult rb = run_with(example("vr_counter/vr_counter.map.json").string(), vr, b,
                                  mutant("vr_counter/mutants/vr_credit_counter_drop.mutant"));
    CHECK_FALSE(rb.passed);
    REQUIRE(rb.first_violation());
    CHECK(rb.first_violation()->check == "conservation.total");
}

TEST_CASE("a counter whose ready depends on its valid makes no loop and passes, ready checked", "[rtl][own-rtl]") {
    // Offered half the time, so cycles with no flit waiting (valid low, the ready silent) come
    // between the sends. The offered 0.5 is below B / (RTT + K - 1) = 6 / 11 = 0.545, so every
    // offered flit goes: a throughput of 0.5.
    RunSpec vr;
    vr.config = LinkConfig{4, 6, 2, 32};
    vr.stimulus.flush_probability = 0.1;
    std::string error;
    vr.stimulus.traffic = *parse_traffic("bernoulli:0.5", error);
    SwappedBlock swapped;
    const RunResult r = run_with(example("vr_counter/vr_counter.map.json").string(), vr, swapped,
                                 mutant("vr_counter/variants/vr_ready_after_valid.mutant"));
    CHECK(r.passed);
    CHECK(r.throughput == Approx(0.5).margin(0.03));
}

TEST_CASE("a model that cannot settle ends its run with a verdict, not an abort", "[rtl][own-rtl][mutant]") {
    // The loop closes in cycle 0, the first with decr_valid high and credits available.
    RunSpec vr;
    vr.config = LinkConfig{4, 6, 2, 32};
    SwappedBlock swapped;
    const RunResult r = run_with(example("vr_counter/vr_counter.map.json").string(), vr, swapped,
                                 mutant("vr_counter/mutants/vr_credit_counter_ready_loop.mutant"));
    CHECK_FALSE(r.passed);
    REQUIRE(r.first_violation());
    CHECK(r.first_violation()->check == "rtl.fatal");
    CHECK(r.first_violation()->cycle == 0u);
    CHECK(r.first_violation()->detail.find("did not converge") != std::string::npos);
    CHECK(r.first_violation()->detail.find("a combinational loop") != std::string::npos);
    CHECK(r.cycles == 1u);   // the run ended in the cycle it stopped in
    // From the command line: the summary, then FAILED and exit 1 (a check failed).
    const std::string out = (fs::temp_directory_path() / ("creditloop_loop_" + std::to_string(::getpid()))).string();
    const int status = std::system((creditloop::testing::build_dir() + "/creditloop run --counter " +
                                    example("vr_counter/vr_counter.map.json").string() + " --L 4 --B 6 --K 2 --mutant " +
                                    mutant("vr_counter/mutants/vr_credit_counter_ready_loop.mutant") + " >" + out + " 2>&1")
                                       .c_str());
    CHECK(WEXITSTATUS(status) == 1);
    const std::string text = creditloop::testing::slurp(out);
    INFO(text);
    CHECK(text.find("first violation (the one that matters): cycle 0: rtl.fatal") != std::string::npos);
    CHECK(text.find("FAILED") != std::string::npos);
    fs::remove(out);
}

TEST_CASE("a map's values are expressions of B: one map, each B's own value", "[rtl][own-rtl]") {
    // init = B - 1 at every B: the counter starts one credit short, so the first cycle's total
    // is B - 1 of B (conservation's closed form), whatever B is; withhold = B - B holds nothing.
    for (int b : {6, 9}) {
        RunSpec spec;
        spec.config = LinkConfig{4, b, 2, 32};
        SwappedBlock swapped;
        const RunResult r = run_with(short_start_map(), spec, swapped);
        INFO("B = " << b);
        REQUIRE(r.first_violation());
        CHECK(r.first_violation()->check == "conservation.total");
        CHECK(r.first_violation()->cycle == 0u);
        CHECK(r.first_violation()->expected == std::to_string(b));
        CHECK(r.first_violation()->got == std::to_string(b - 1));
    }
}

TEST_CASE("a bad map gets one line naming the problem", "[own-rtl][bad-input]") {
    const std::string occ = "occupancy_counter/occupancy_counter.map.json";
    CHECK(swap_error(scratch_map(occ, [](json& j) { j["ports"]["send"] = "credit_spend_i"; }))
              .find("role send names port 'credit_spend_i', which module occupancy_credit_counter does not have") != std::string::npos);
    CHECK(swap_error(scratch_map(occ, [](json& j) { j["ports"]["credit_return"] = "credit_take_i"; }))
              .find("port credit_take_i is mapped to both") != std::string::npos);
    CHECK(swap_error(scratch_map(occ, [](json& j) { j["parameters"]["CntWidth"] = 2; }))
              .find("credits port credit_o is 2 bits, too narrow for B = 12 (needs 4)") != std::string::npos);
    CHECK(swap_error(scratch_map(occ, [](json& j) { j["parameters"]["Credits"] = "B"; })).find("unknown parameter") != std::string::npos);
    CHECK(swap_error(scratch_map(occ, [](json& j) { j["ports"]["colour"] = "x"; })).find("unknown role 'colour'") != std::string::npos);
    CHECK(swap_error(scratch_map(occ, [](json& j) { j["ports"].erase("init"); }))
              .find("input credit_init_i of occupancy_credit_counter has no role") != std::string::npos);
    CHECK(swap_error(scratch_map(occ, [](json& j) { j["sources"]["incdirs"] = json::array(); })).find("cl_registers.svh") !=
          std::string::npos);   // Verilator's own error: the include is not found
    CHECK(swap_error("/nonexistent/map.json").find("cannot read the map file") != std::string::npos);
    // A value that is no expression of B names its key and the form it takes.
    CHECK(swap_error(scratch_map(occ, [](json& j) { j["ports"]["init"]["tie"] = "L"; })) ==
          "--counter " + scratch_map(occ, [](json& j) { j["ports"]["init"]["tie"] = "L"; }) +
              ": role init: tie: give a whole number or an expression of B (\"B\", \"B-1\"): 'L': unknown name 'L'");
    CHECK(swap_error(scratch_map(occ, [](json& j) { j["parameters"]["NumCredits"] = "B+"; }))
              .find(": parameters: NumCredits: give a whole number or an expression of B") != std::string::npos);
    CHECK(swap_error(scratch_map(occ, [](json& j) { j["parameters"]["NumCredits"] = "B/(B-B)"; }))
              .find("parameters: NumCredits: 'B/(B-B)' has no value at B = 12 (it divides by zero)") != std::string::npos);
    // Through the CLI: exit 2, one line, nothing written.
    const fs::path waves = fs::temp_directory_path() / ("creditloop_map_waves_" + std::to_string(::getpid()) + ".vcd");
    const std::string bad = scratch_map(occ, [](json& j) { j["ports"]["send"] = "nope"; });
    const std::string err = (fs::temp_directory_path() / ("creditloop_map_err_" + std::to_string(::getpid()))).string();
    const int status = std::system((creditloop::testing::build_dir() + "/creditloop run --counter " + bad + " --waves " +
                                    waves.string() + " 2>" + err).c_str());
    CHECK(WEXITSTATUS(status) == 2);
    const std::string text = creditloop::testing::slurp(err);
    CHECK(std::count(text.begin(), text.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(waves));
    fs::remove(err);
}

TEST_CASE("make sim with a counter map: the regression runs the tests the counter can take", "[rtl][own-rtl][regression]") {
    prebuild_own_rtl();
    RegressCommand cmd;
    cmd.filter = "seed000/";
    cmd.counter_file = example("vr_counter/vr_counter.map.json").string();
    const auto [code, printed] = creditloop::testing::regress_captured(cmd, "map_regress");
    INFO(printed);
    CHECK(code == 0);
    CHECK(printed.find("credit_counter.sv is vr_credit_counter") != std::string::npos);
    CHECK(printed.find("6 passed, 0 failed") != std::string::npos);   // seed 000's six batches, to the digit
}

namespace {

// The example link's map, as it is in examples/.
std::string link_map() { return example("link/link.map.json").string(); }

// `map` run as `spec`, with `patch` (a .mutant of one of its files) applied when given.
RunResult run_link_map(const std::string& map, RunSpec spec, const std::string& patch = "") {
    prebuild_own_rtl();
    DutSources sources = DutSources::from_environment();
    MappedLink link;
    const std::string problem = swap_mapped_link(sources, map, false, link, patch);
    INFO(problem);
    REQUIRE(problem.empty());
    fit_to_mapped_link(spec, link);
    std::string error;
    auto library = DutLibrary::load(spec.config, sources, error);
    INFO(error);
    REQUIRE(library);
    auto dut = library->create();
    return run_link(dut.get(), spec);
}

// The bypassing sender's map with credits_on_arrival as `on_arrival` says.
std::string bypass_map(bool on_arrival) {
    json j = json::parse(std::ifstream(example("bypass_link/bypass_link.map.json")));
    for (auto& f : j["sources"]["files"]) f = example("bypass_link/" + f.get<std::string>()).lexically_normal().string();
    j["credits_on_arrival"] = on_arrival;
    return write_scratch(j, "creditloop_link_");
}

// The example link's map declaring no return latency (the receiver adds one) and no lockstep.
std::string wrong_latency_map() {
    json j = json::parse(std::ifstream(example("link/link.map.json")));
    for (auto& f : j["sources"]["files"]) f = example("link/" + f.get<std::string>()).string();
    j["return_latency"] = 0;
    j["lockstep"] = false;
    return write_scratch(j, "creditloop_link_");
}

// The example link with or without a probe of its receiver's count (run with the count-leak mutant).
std::string probed_map(bool probe) {
    json j = json::parse(std::ifstream(example("link/link.map.json")));
    for (auto& f : j["sources"]["files"]) f = example("link/" + f.get<std::string>()).string();
    if (probe) j["receiver"]["probes"] = {{"occupancy", "count_q"}};
    return write_scratch(j, "creditloop_link_");
}

const char* const kCountLeak = "link/mutants/cbfc_rx_count_leak.mutant";

void prebuild_own_rtl() {
    static bool done = false;
    if (done) return;
    done = true;
    std::vector<DutBuild> builds;
    const auto counter = [&](const std::string& map, const LinkConfig& config, const std::string& patch = "") {
        DutSources sources = DutSources::from_environment();
        SwappedBlock swapped;
        if (swap_block(sources, "credit_counter.sv", map, config.buffer_slots, swapped, patch).empty())
            builds.push_back({config, sources});
    };
    const auto link = [&](const std::string& map, const std::string& patch = "", int b = 6) {
        DutSources sources = DutSources::from_environment();
        MappedLink mapped;
        if (!swap_mapped_link(sources, map, false, mapped, patch).empty()) return;
        RunSpec spec;
        spec.config = LinkConfig{4, b, 1, 32};
        fit_to_mapped_link(spec, mapped);
        builds.push_back({spec.config, sources});
    };
    const std::string occupancy = example("occupancy_counter/occupancy_counter.map.json").string();
    const std::string vr = example("vr_counter/vr_counter.map.json").string();
    counter(occupancy, LinkConfig{4, 5, 1, 32});
    counter(vr, LinkConfig{4, 6, 2, 32});
    for (int k : {1, 2, 4, 6, 8, 12}) counter(vr, LinkConfig{4, 12, k, 32});   // the regression's seed000/ cases
    counter(occupancy, LinkConfig{4, 5, 1, 32}, mutant("occupancy_counter/mutants/occupancy_credit_counter_leak.mutant"));
    counter(vr, LinkConfig{4, 6, 2, 32}, mutant("vr_counter/mutants/vr_credit_counter_drop.mutant"));
    counter(vr, LinkConfig{4, 6, 2, 32}, mutant("vr_counter/variants/vr_ready_after_valid.mutant"));
    counter(vr, LinkConfig{4, 6, 2, 32}, mutant("vr_counter/mutants/vr_credit_counter_ready_loop.mutant"));
    for (int b : {6, 9}) counter(short_start_map(), LinkConfig{4, b, 2, 32});
    link(link_map());
    link(link_map(), mutant("link/mutants/cbfc_tx_leak.mutant"));
    link(link_map(), mutant("link/mutants/cbfc_tx_overflow.mutant"));
    link(link_map(), mutant("link/mutants/cbfc_rx_reorder.mutant"));
    link(link_map(), mutant("link/variants/cbfc_tx_strict_bound.mutant"));
    link(link_map(), "", 8);   // the regression's resets/L4_B8_sender_alone
    link(example("credit_receiver/credit_receiver.map.json").string());
    link(example("credit_receiver/credit_receiver.map.json").string(), mutant("credit_receiver/mutants/credit_rx_logic_leak.mutant"));
    for (const char* value : {"B", "B-1"})
        link(scratch_map("link/link.map.json",
                         [&](json& j) { j["sender"]["ports"]["init"] = {{"port", "crd_init"}, {"value", value}}; }),
             mutant("link/variants/cbfc_tx_init_port.mutant"));
    link(wrong_latency_map());
    link(bypass_map(true));
    link(bypass_map(false));
    link(example("fifo_sender/fifo_sender.map.json").string());
    for (const char* m : {"fifo_sender/mutants/fifo_tx_leak.mutant", "fifo_sender/mutants/fifo_tx_resend.mutant"})
        link(example("fifo_sender/fifo_sender.map.json").string(), mutant(m));
    link(scratch_map("fifo_sender/fifo_sender.map.json", [](json& j) { j.erase("sender_fifo_latency"); }));
    link(probed_map(true), mutant(kCountLeak));
    link(probed_map(false), mutant(kCountLeak));
    {   // the checkout's own link through its map
        DutSources sources = DutSources::from_environment();
        std::vector<std::string> warnings;
        if (use_rtl_map(sources, (fs::path(creditloop::testing::source_dir()) / "rtl" / "credit_link.map.json").string(), false,
                        warnings)
                .empty())
            builds.push_back({LinkConfig{4, 12, 4, 32}, sources});
    }
    build_duts(builds, 2);
}

}  // namespace

TEST_CASE("a sender and receiver of your own, functional ports only, pass through their interfaces", "[rtl][own-rtl][link]") {
    RunSpec spec;
    spec.config = LinkConfig{4, 6, 1, 32};
    const RunResult r = run_link_map(example("link/link.map.json").string(), spec);
    CHECK(r.passed);
    DutSources sources = DutSources::from_environment();
    MappedLink link;
    REQUIRE(swap_mapped_link(sources, example("link/link.map.json").string(), false, link).empty());
    CHECK(link.warnings.empty());   // the example pair is lint-clean: nothing to report
    // The receiver returns each credit a cycle after the pop: RTT = 2L + 2 + 1 = 11, B / RTT = 6 / 11.
    CHECK(r.measured_round_trip == 11u);
    CHECK(r.throughput == Approx(6.0 / 11).margin(0.002));
}

TEST_CASE("a sender that spends a credit in the cycle it arrives passes when its map says so, and is named when not", "[rtl][own-rtl][link]") {
    // The golden model alone first: spent on arrival, a credit goes round in 2L + 1 = 9 cycles at
    // L = 4 (no register in the counter's path), so B = 6 carries 6 / 9 of full rate.
    RunSpec model;
    model.config = LinkConfig{4, 6, 1, 32};
    model.config.credits_on_arrival = true;
    const RunResult alone = run_link(nullptr, model);
    CHECK(alone.passed);
    CHECK(alone.measured_round_trip == 9u);
    CHECK(alone.throughput == Approx(6.0 / 9).margin(0.002));

    // bypass_tx's ready takes the arriving count; cbfc_rx returns a credit the cycle after its pop
    // (return_latency 1): RTT = 2L + 1 + 1 = 10, B / RTT = 0.6, with ready (can_send) in lockstep.
    RunSpec spec;
    spec.config = LinkConfig{4, 6, 1, 32};
    const RunResult r = run_link_map(bypass_map(true), spec);
    CHECK(r.passed);
    CHECK(r.closed_form_round_trip == 10);
    CHECK(r.measured_round_trip == 10u);
    CHECK(r.throughput == Approx(0.6).margin(0.002));

    // Unsaid: sends 0..5 spend the six credits; the first comes back to the sender in cycle 10
    // (arrived 4, popped 5, returned 6, L = 4 stages back) and is spent at once, with none held.
    spec.cycles = 400;
    const RunResult unsaid = run_link_map(bypass_map(false), spec);
    REQUIRE(unsaid.first_violation());
    CHECK(unsaid.first_violation()->cycle == 10u);
    CHECK(unsaid.first_violation()->check == "conservation.send_at_zero");
    CHECK(unsaid.first_violation()->detail.find("in the cycle 1 credit arrived") != std::string::npos);
    CHECK(unsaid.first_violation()->detail.find("(\"credits_on_arrival\": true)") != std::string::npos);
}

TEST_CASE("three bugs in your own link are each caught on their first cycle", "[rtl][own-rtl][link][mutant]") {
    RunSpec saturate;
    saturate.config = LinkConfig{4, 6, 1, 32};
    saturate.cycles = 400;
    const auto first = [](const RunResult& r, const std::string& check) {
        for (const auto& v : r.violations)
            if (v.check == check) return std::optional<uint64_t>(v.cycle);
        return std::optional<uint64_t>();
    };
    // A leak in the sender: sends 0..5 spend the six credits; the first credit is back in cycle
    // 10 (popped in 5, returned in 6, L = 4 stages), spent in 11, when the second arrives: lost at
    // that edge, one short from cycle 12.
    const RunResult leak = run_link_map(link_map(), saturate, mutant("link/mutants/cbfc_tx_leak.mutant"));
    CHECK(first(leak, "conservation.total") == 12u);
    CHECK(leak.first_violation()->cycle == 12u);
    // Ready without a credit: the seventh send, in cycle 6, has none.
    const RunResult overflow = run_link_map(link_map(), saturate, mutant("link/mutants/cbfc_tx_overflow.mutant"));
    CHECK(first(overflow, "conservation.send_at_zero") == 6u);
    CHECK(overflow.first_violation()->cycle == 6u);
    // The second flit first: with the consumer taking every other cycle, two flits are held in
    // cycle 6 (arrived in 4 and 5) and the one sent in cycle 1 comes out before the one sent in 0.
    RunSpec every2 = saturate;
    every2.stimulus.drain.period = 2;
    const RunResult reorder = run_link_map(link_map(), every2, mutant("link/mutants/cbfc_rx_reorder.mutant"));
    CHECK(first(reorder, "data.order") == 6u);
    CHECK(reorder.first_violation()->cycle == 6u);
}

TEST_CASE("the design's own assertion is the catch in a test built to be caught, and a named failure in one that should pass",
          "[rtl][own-rtl][link][assertion]") {
    prebuild_own_rtl();
    // Where the assertion is, read from the example itself: Verilator places a failed assertion
    // at the statement that reports it (its else branch's $error).
    std::istringstream sender(creditloop::testing::slurp(example("link/cbfc_tx.sv").string()));
    int line = 0, at = 0;
    for (std::string text; std::getline(sender, text);)
        if (++line && text.find("$error(\"cbfc_tx: %0d credits held") != std::string::npos) at = line;
    REQUIRE(at > 0);
    const std::string where = "cbfc_tx.sv:" + std::to_string(at);
    const std::string named = "the design's assertion u_sender.a_credits_bounded at ";

    // The sender reset alone counts B credits again while some are on their way back: its count
    // passes CREDITS = 8, and its own bound fails. The test is built to be caught, so it passes,
    // caught by that assertion, named in the table and in the JUnit file.
    const fs::path dir = fs::temp_directory_path() / ("creditloop_assertion_" + std::to_string(::getpid()));
    const std::string junit = (dir / "results.xml").string();
    const auto caught = creditloop::testing::run_creditloop("regress --link " + link_map() +
                                                            " --filter resets/L4_B8_sender_alone --junit " + junit +
                                                            " --waves-dir " + (dir / "waves").string());
    INFO(caught.out + caught.err);
    CHECK(caught.exit_code == 0);
    const std::string row = "PASS (caught by " + named;
    const auto found = caught.out.find(row);
    REQUIRE(found != std::string::npos);
    CHECK(caught.out.substr(found, caught.out.find('\n', found) - found).find(where + ")") != std::string::npos);
    const std::string results = creditloop::testing::slurp(junit);
    CHECK(results.find("name=\"caught_by\" value=\"" + named) != std::string::npos);

    // The same assertion written one too tight fails at the first edge after reset, where the
    // sender holds all B = 6 credits: a test that should pass fails at cycle 0, naming it (run
    // in the scratch folder, where its waves go).
    const std::string out = (dir / "run.out").string();
    const int status = std::system(("cd " + dir.string() + " && " + creditloop::testing::build_dir() + "/creditloop run --link " +
                                    link_map() + " --mutant " + mutant("link/variants/cbfc_tx_strict_bound.mutant") +
                                    " --L 4 --B 6 --cycles 400 >" + out + " 2>&1")
                                       .c_str());
    const creditloop::testing::CliOutcome strict{WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                                                 creditloop::testing::slurp(out), ""};
    INFO(strict.out);
    CHECK(strict.exit_code == 1);
    CHECK(strict.out.find("first violation (the one that matters): cycle 0: rtl.assertion u_sender.a_credits_bounded") !=
          std::string::npos);
    CHECK(strict.out.find(named) != std::string::npos);
    CHECK(strict.out.find("cbfc_tx_strict_bound.sv:" + std::to_string(at) + " failed: cbfc_tx: 6 credits held") !=
          std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a mutant of your own RTL runs from the command line, in run and in regress", "[rtl][own-rtl][link][mutant]") {
    prebuild_own_rtl();
    const std::string leak = mutant("link/mutants/cbfc_tx_leak.mutant");
    // The same catch as the sender's leak above, through the CLI: cbfc_tx.sv patched, in its place.
    const auto run = creditloop::testing::run_creditloop("run --link " + link_map() + " --mutant " + leak +
                                                         " --L 4 --B 6 --cycles 400");
    INFO(run.out + run.err);
    CHECK(run.exit_code == 1);
    CHECK(run.out.find("first violation (the one that matters): cycle 12: conservation.total") != std::string::npos);
    // The patched file sits under the build folder, read in cbfc_tx.sv's place.
    DutSources sources = DutSources::from_environment();
    MappedLink link;
    REQUIRE(swap_mapped_link(sources, link_map(), false, link, leak).empty());
    const std::string pair = creditloop::testing::slurp(sources.rtl_files.at(1));   // the preprocessed sender and receiver
    const std::string patched = (fs::path(sources.build_root) / "mutants" / "maps").string();
    CHECK(pair.find(patched) != std::string::npos);   // its `line directives name the patched file
    CHECK(pair.find("cbfc_tx_leak.sv") != std::string::npos);
    // regress: every test runs the patch, the rerun line names it.
    RegressCommand cmd;
    cmd.filter = "seed001/L4_B6";
    cmd.link_map = link_map();
    cmd.mutant = leak;
    const auto [code, printed] = creditloop::testing::regress_captured(cmd, "mutant_regress");
    INFO(printed);
    CHECK(code == 1);
    CHECK(printed.find("creditloop regress: cbfc_tx.sv is patched by " + leak) != std::string::npos);
    CHECK(printed.find("--link " + link_map() + " --mutant " + leak) != std::string::npos);
}

TEST_CASE("a mutant of your own RTL that does not fit gets one line, exit 2, nothing written", "[own-rtl][bad-input][mutant]") {
    const std::string leak = mutant("link/mutants/cbfc_tx_leak.mutant");
    // The design changed under the patch: the line it takes out is written otherwise now.
    const fs::path dir = fs::temp_directory_path() / ("creditloop_stale_mutant_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "link");
    for (const char* file : {"cbfc_rx.sv", "link.map.json"}) fs::copy_file(example(std::string("link/") + file), dir / "link" / file);
    std::string tx = creditloop::testing::slurp(example("link/cbfc_tx.sv").string());
    const std::string line = "avail_q <= avail_q - CW'(m_valid) + (crd_valid ? crd_cnt : '0);";
    REQUIRE(tx.find(line) != std::string::npos);
    tx.replace(tx.find(line), line.size(), "avail_q <= avail_q + (crd_valid ? crd_cnt : '0) - CW'(m_valid);");
    std::ofstream(dir / "link" / "cbfc_tx.sv") << tx;
    const std::string map = (dir / "link" / "link.map.json").string();
    DutSources sources = DutSources::from_environment();
    MappedLink link;
    const std::string stale = swap_mapped_link(sources, map, false, link, leak);
    CHECK(stale == "--link " + map + ": the patch does not apply: " + leak +
                       ":9: the lines of this hunk are found 0 times in link/cbfc_tx.sv, need exactly once (the block "
                       "changed: update the mutant's '@' and '-' lines)");
    // Through the CLI, with a build folder of its own: exit 2, one line, and neither the build
    // folder nor the waves are made.
    const fs::path build = dir / "build", waves = dir / "waves.vcd", err = dir / "err";
    const auto cli = [&](const std::string& args) {
        const int status = std::system(("CREDITLOOP_BUILD=" + build.string() + " " + creditloop::testing::build_dir() +
                                        "/creditloop " + args + " >/dev/null 2>" + err.string())
                                           .c_str());
        return std::make_pair(WIFEXITED(status) ? WEXITSTATUS(status) : -1, creditloop::testing::slurp(err.string()));
    };
    const auto one_line = [](const std::string& text) { return std::count(text.begin(), text.end(), '\n') == 1; };
    {
        const auto [code, text] = cli("run --link " + map + " --mutant " + leak + " --waves " + waves.string());
        CHECK(code == 2);
        CHECK(one_line(text));
        CHECK(text == "creditloop: " + stale + "\n");
    }
    // A patch of another design: its replaces= names no file of this map.
    {
        const auto [code, text] = cli("run --counter " + example("occupancy_counter/occupancy_counter.map.json").string() +
                                      " --mutant " + leak + " --L 4 --B 5 --waves " + waves.string());
        CHECK(code == 2);
        CHECK(one_line(text));
        CHECK(text.find(": --mutant " + leak + ": replaces=cbfc_tx.sv names no file of the map (its files: "
                        "occupancy_credit_counter.sv): fix replaces=, or give the map of the design the patch is for") !=
              std::string::npos);
    }
    // A patch that is not there, a patch without a map, a mutant of rtl/mutants/ by name with a
    // link (run), and by name in regress, which takes patches only.
    const std::string run_waves = " --waves " + waves.string(), regress_waves = " --waves-dir " + (dir / "waves").string();
    for (const auto& [args, says] : std::vector<std::pair<std::string, std::string>>{
             {"run --link " + map + " --mutant " + (dir / "nowhere.mutant").string() + run_waves, ": no such file: give the path"},
             {"run --mutant " + leak + run_waves, "give it with the map of the file it patches"},
             {"run --link " + link_map() + " --mutant credit_counter_ifelse_leak" + run_waves,
              "--link takes --mutant as a .mutant patch of one of its files"},
             {"regress --link " + link_map() + " --mutant credit_counter_ifelse_leak" + regress_waves,
              "regress --mutant takes a .mutant patch of a file of your map"}}) {
        const auto [code, text] = cli(args);
        INFO(args);
        INFO(text);
        CHECK(code == 2);
        CHECK(one_line(text));
        CHECK(text.find(says) != std::string::npos);
    }
    CHECK_FALSE(fs::exists(dir / "waves"));
    CHECK_FALSE(fs::exists(build));
    CHECK_FALSE(fs::exists(waves));
    fs::remove_all(dir);
}

TEST_CASE("a link declared with the wrong return latency is caught by sizing, lockstep or not", "[rtl][own-rtl][link]") {
    // Declared 0 where the receiver adds 1, lockstep switched off: the credit of the send in cycle
    // 0 arrives in cycle 10 and is spent in 11, a round trip of 11 where 2L + 2 = 10 was declared.
    prebuild_own_rtl();
    const std::string map = wrong_latency_map();
    DutSources sources = DutSources::from_environment();
    MappedLink link;
    REQUIRE(swap_mapped_link(sources, map, false, link).empty());
    CHECK(link.lockstep_signals == 0u);
    RunSpec spec;
    spec.config = LinkConfig{4, 6, 1, 32};
    spec.cycles = 400;
    fit_to_mapped_link(spec, link);
    std::string error;
    auto library = DutLibrary::load(spec.config, sources, error);
    REQUIRE(library);
    auto dut = library->create();
    const RunResult r = run_link(dut.get(), spec);
    REQUIRE(r.first_violation());
    CHECK(r.first_violation()->check == "sizing.round_trip");
    CHECK(r.first_violation()->cycle == 10u);
    CHECK(r.first_violation()->got == "11 cycles");
    for (const auto& v : r.violations) CHECK(v.check != "lockstep");
}

TEST_CASE("a probe of the receiver's own count catches an internal miscount at once", "[rtl][own-rtl][link][probe]") {
    // The flit sent in cycle 0 arrives in 4 and is popped in 5, when the one sent in 1 arrives: a
    // push and a pop in one cycle, which the mutant counts as a push. With the probe, cycle 6
    // shows an occupancy of 2 where one flit is held: a credit made, at once. Through the
    // interfaces alone it shows only when a stale flit comes out again.
    RunSpec spec;
    spec.config = LinkConfig{4, 6, 1, 32};
    spec.cycles = 400;
    const RunResult probed = run_link_map(probed_map(true), spec, mutant(kCountLeak));
    REQUIRE(probed.first_violation());
    CHECK(probed.first_violation()->check == "conservation.total");
    CHECK(probed.first_violation()->cycle == 6u);
    const RunResult unprobed = run_link_map(probed_map(false), spec, mutant(kCountLeak));
    REQUIRE(unprobed.first_violation());
    CHECK(unprobed.first_violation()->cycle > 6u);
    CHECK(unprobed.first_violation()->check.rfind("data.", 0) == 0);
}

TEST_CASE("a bad link map gets one line naming the problem", "[own-rtl][bad-input]") {
    const auto error_for = [](const std::function<void(json&)>& change) {
        json j = json::parse(std::ifstream(example("link/link.map.json")));
        for (auto& f : j["sources"]["files"]) f = example("link/" + f.get<std::string>()).string();
        change(j);
        const fs::path out = fs::temp_directory_path() / ("creditloop_badlink_" + std::to_string(::getpid()) + ".json");
        std::ofstream(out) << j.dump(2);
        DutSources sources = DutSources::from_environment();
        MappedLink link;
        return swap_mapped_link(sources, out.string(), false, link);
    };
    CHECK(error_for([](json& j) { j["sender"]["ports"]["in_ready"] = "ready_o"; })
              .find("sender role in_ready names port 'ready_o', which module cbfc_tx does not have") != std::string::npos);
    CHECK(error_for([](json& j) { j["receiver"]["ports"]["out_ready"] = "s_valid"; }).find("mapped to both") != std::string::npos);
    CHECK(error_for([](json& j) { j["sender"]["parameters"]["CW"] = 2; }).find("too narrow for B = 12") != std::string::npos);
    CHECK(error_for([](json& j) { j["receiver"]["parameters"]["SIZE"] = "B"; }).find("unknown parameter") != std::string::npos);
    CHECK(error_for([](json& j) { j["sender"]["ties"] = {{"credit_initial", true}}; })
              .find(": sender: ties: credit_initial: give a whole number or an expression of B, L, W (\"B\", \"B-1\"), not true") !=
          std::string::npos);
    CHECK(error_for([](json& j) { j["receiver"]["parameters"]["DEPTH"] = "B*X"; })
              .find(": receiver: parameters: DEPTH: give a whole number or an expression of B, L, W (\"B\", \"B-1\"): 'B*X': unknown name 'X'") !=
          std::string::npos);
    CHECK(error_for([](json& j) { j["sender"]["ports"].erase("credit_count"); }).find("role credit_count is not mapped") !=
          std::string::npos);
    CHECK(error_for([](json& j) { j["lockstep"] = {"send", "bogus"}; }).find("lockstep: unknown signal 'bogus'") !=
          std::string::npos);
    CHECK(error_for([](json& j) { j["credits_on_arrival"] = "yes"; })
              .find(": credits_on_arrival: give true (your sender spends a credit in the cycle it arrives) or false") !=
          std::string::npos);
    CHECK(error_for([](json& j) { j["receiver"]["probes"] = {{"colour", "x"}}; }).find("probes: 'colour' is not a term") !=
          std::string::npos);
    // A key of the wrong type names the key and the form it takes.
    CHECK(error_for([](json& j) { j["sources"]["files"] = "cbfc_tx.sv"; })
              .find(": sources: files: give a list of files, [\"my_counter.sv\"], not \"cbfc_tx.sv\"") != std::string::npos);
    CHECK(error_for([](json& j) { j["sources"]["incdirs"] = {1}; }).find(": sources: incdirs: give a list of folders") !=
          std::string::npos);
    CHECK(error_for([](json& j) { j["sources"]["top"] = 3; }).find(": sources: top: give the top module's name, not 3") !=
          std::string::npos);
    CHECK(error_for([](json& j) { j["sender"]["module"] = 7; }).find(": sender: module: give the module's name, not 7") !=
          std::string::npos);
    CHECK(error_for([](json& j) { j["receiver"]["parameters"] = {"DEPTH"}; })
              .find(": receiver: parameters: give an object, {\"DEPTH\": \"B\"}, not [\"DEPTH\"]") != std::string::npos);
    CHECK(error_for([](json& j) { j["sender"]["ports"]["reset"] = {{"port", "rst_n"}, {"active", false}}; })
              .find(": sender: role reset: active: give \"low\" or \"high\", not false") != std::string::npos);
    CHECK(error_for([](json& j) { j["receiver"]["probes"] = {{"occupancy", 5}}; })
              .find(": receiver: probes: occupancy: give a signal's name inside the module, not 5") != std::string::npos);
    CHECK(error_for([](json& j) { j["lockstep"] = {"send", 2}; }).find(": lockstep: give signal names in quotes, not 2") !=
          std::string::npos);
    // The sender's init role: a port and the value it is held at.
    CHECK(error_for([](json& j) { j["sender"]["ports"]["init"] = {{"port", "crd_init"}}; })
              .find(": sender: role init: give the value it is held at") != std::string::npos);
    CHECK(error_for([](json& j) { j["sender"]["ports"]["init"] = {{"port", "crd_init"}, {"value", "C"}}; })
              .find(": sender: role init: value: give a whole number or an expression of B, L, W") != std::string::npos);
    CHECK(error_for([](json& j) { j["sender"]["ports"]["init"] = {{"port", "crd_init"}, {"value", "B"}}; })
              .find("sender role init names port 'crd_init', which module cbfc_tx does not have") != std::string::npos);
}

TEST_CASE("a receiver of credit logic only runs with creditloop's buffer, its own count probed, and its leak is caught",
          "[rtl][own-rtl][link]") {
    const std::string map = example("credit_receiver/credit_receiver.map.json").string();
    RunSpec spec;
    spec.config = LinkConfig{4, 6, 1, 32};
    // A slot freed in cycle t is a credit back at t + 1 (registered): RTT = 2L + 2 + 1 = 11, as
    // for cbfc_rx, so B = 6 carries 6 / 11.
    const RunResult r = run_link_map(map, spec);
    CHECK(r.passed);
    CHECK(r.measured_round_trip == 11u);
    CHECK(r.throughput == Approx(6.0 / 11).margin(0.002));
    // The consumer every third cycle bounds the rate at 1/3; the buffer fills and the receiver's
    // own count of slots taken (a probe) stays in lockstep with the model's occupancy.
    RunSpec slow = spec;
    slow.stimulus.drain.period = 3;
    const RunResult third = run_link_map(map, slow);
    CHECK(third.passed);
    CHECK(third.throughput == Approx(1.0 / 3).margin(0.002));
    // The leak: the flit sent in cycle 0 is popped in cycle 5 as the next one arrives; its credit,
    // due at the sender in cycle 10 (returned in 6, 4 stages), never comes.
    spec.cycles = 400;
    const RunResult leak = run_link_map(map, spec, mutant("credit_receiver/mutants/credit_rx_logic_leak.mutant"));
    REQUIRE(leak.first_violation());
    CHECK(leak.first_violation()->cycle == 10u);
    CHECK(leak.first_violation()->check == "lockstep");
    CHECK(leak.first_violation()->signal == "link.sender.credits_arriving");
    CHECK(leak.first_violation()->expected == "1");
    CHECK(leak.first_violation()->got == "0");

    // Its map: slot_freed in place of out_ready, never both; a receiver with neither is told both ways in.
    const auto error_for = [&](const std::function<void(json&)>& change) {
        json j = json::parse(std::ifstream(map));
        for (auto& f : j["sources"]["files"]) f = example("credit_receiver/" + f.get<std::string>()).lexically_normal().string();
        change(j);
        const fs::path out = fs::temp_directory_path() / ("creditloop_rxlogic_" + std::to_string(::getpid()) + ".json");
        std::ofstream(out) << j.dump(2);
        DutSources sources = DutSources::from_environment();
        MappedLink link;
        const std::string e = swap_mapped_link(sources, out.string(), false, link);
        fs::remove(out);
        return e;
    };
    CHECK(error_for([](json& j) { j["receiver"]["ports"]["out_ready"] = "pop_credit"; })
              .find(": receiver: map out_ready (a receiver with its own buffer) or slot_freed (credit logic only") != std::string::npos);
    CHECK(error_for([](json& j) { j["receiver"]["ports"].erase("slot_freed"); })
              .find(": receiver: role out_ready is not mapped (a receiver of credit logic only, with no buffer, maps slot_freed") !=
          std::string::npos);
    // A one-bit credit_count is one credit a cycle; a sender that takes one a cycle cannot take a
    // receiver's counts.
    json j = json::parse(std::ifstream(example("link/link.map.json")));
    for (auto& f : j["sources"]["files"]) f = example("link/" + f.get<std::string>()).string();
    j["sender"]["ports"]["credit_count"] = "crd_valid";
    j["sender"]["ports"].erase("credit_valid");
    j["sender"]["ties"] = {{"crd_cnt", 1}};
    const std::string narrow = write_scratch(j, "creditloop_narrow_");
    DutSources sources = DutSources::from_environment();
    MappedLink link;
    CHECK(swap_mapped_link(sources, narrow, false, link)
              .find(": the sender takes one credit a cycle (a one-bit credit_count, crd_valid) but the receiver returns counts "
                    "(crd_cnt, 4 bits)") != std::string::npos);
}

TEST_CASE("a sender with a FIFO of its own in front of its credit check passes, and its leak and resend are caught",
          "[rtl][own-rtl][link]") {
    const std::string map = example("fifo_sender/fifo_sender.map.json").string();
    RunSpec spec;
    spec.config = LinkConfig{4, 6, 1, 32};
    // The FIFO delays each flit's start, not the loop: a credit spent in cycle t is back at t + 11
    // (2L + 2 and cbfc_rx's registered return), so B = 6 carries 6 / 11, its ready checked only as
    // the FIFO's room.
    const RunResult r = run_link_map(map, spec);
    CHECK(r.passed);
    CHECK(r.measured_round_trip == 11u);
    CHECK(r.throughput == Approx(6.0 / 11).margin(0.002));
    // A source at 0.3 a cycle and a consumer stalling half the time: the FIFO fills and empties,
    // the model sends from what it holds, and every flit arrives once, in order.
    RunSpec uneven = spec;
    uneven.stimulus.traffic = {TrafficKind::bernoulli, 0.3};
    uneven.stimulus.drain = {DrainKind::random_stalls, 1, 0.5};
    const RunResult u = run_link_map(map, uneven);
    CHECK(u.passed);
    CHECK(u.throughput == Approx(0.3).margin(0.03));
    // The leak: the first flit, taken in cycle 0, leaves in 1 (a registered FIFO); sends 1..6 spend
    // the six credits; the first credit is back in cycle 1 + 11 = 12 and spent as the second
    // arrives, so it is lost at the edge ending cycle 12: one short from cycle 13.
    spec.cycles = 400;
    const RunResult leak = run_link_map(map, spec, mutant("fifo_sender/mutants/fifo_tx_leak.mutant"));
    REQUIRE(leak.first_violation());
    CHECK(leak.first_violation()->cycle == 13u);
    CHECK(leak.first_violation()->check == "conservation.total");
    CHECK(leak.first_violation()->expected == "6");
    CHECK(leak.first_violation()->got == "5");
    // The resend: in cycle 1 the head (flit 0) leaves as flit 1 comes in, and stays the head, so
    // cycle 2 sends flit 0 again where the model sends flit 1.
    const RunResult resend = run_link_map(map, spec, mutant("fifo_sender/mutants/fifo_tx_resend.mutant"));
    REQUIRE(resend.first_violation());
    CHECK(resend.first_violation()->cycle == 2u);
    CHECK(resend.first_violation()->check == "lockstep");
    CHECK(resend.first_violation()->signal == "link.sender.send_payload");

    // Without the key, the warning names it, and the model (sending as the source's flit is
    // taken, in cycle 0) is a credit ahead of the sender (whose flit leaves in 1) from cycle 1.
    const std::string undeclared = scratch_map("fifo_sender/fifo_sender.map.json", [](json& j) { j.erase("sender_fifo_latency"); });
    DutSources sources = DutSources::from_environment();
    MappedLink link;
    REQUIRE(swap_mapped_link(sources, undeclared, false, link).empty());
    CHECK(std::any_of(link.warnings.begin(), link.warnings.end(), [](const std::string& w) {
        return w.find("tx_valid (out_valid) is not logic of in_valid (in_valid)") != std::string::npos &&
               w.find("\"sender_fifo_latency\": 1") != std::string::npos;
    }));
    const RunResult ahead = run_link_map(undeclared, spec);
    REQUIRE(ahead.first_violation());
    CHECK(ahead.first_violation()->cycle == 1u);
    CHECK(ahead.first_violation()->signal == "link.sender.credits");
    CHECK(ahead.first_violation()->expected == "5");
    CHECK(ahead.first_violation()->got == "6");
    MappedLink refused;
    CHECK(swap_mapped_link(sources, scratch_map("fifo_sender/fifo_sender.map.json", [](json& j) { j["sender_fifo_latency"] = 9; }),
                           false, refused)
              .find(": sender_fifo_latency must be 0..8 cycles") != std::string::npos);
}

TEST_CASE("a sender whose starting credits come from a port takes them through its init role, as an expression of B",
          "[rtl][own-rtl][link]") {
    const auto with_init = [](const std::string& value) {
        return scratch_map("link/link.map.json",
                           [&](json& j) { j["sender"]["ports"]["init"] = {{"port", "crd_init"}, {"value", value}}; });
    };
    const std::string variant = mutant("link/variants/cbfc_tx_init_port.mutant");
    RunSpec spec;
    spec.config = LinkConfig{4, 6, 1, 32};
    // Held at B: the variant is the example, so it passes with the example's rate, 6 / 11.
    const RunResult r = run_link_map(with_init("B"), spec, variant);
    CHECK(r.passed);
    CHECK(r.throughput == Approx(6.0 / 11).margin(0.002));
    // Held at B-1 (5 at B = 6): one credit short from reset, found in cycle 0.
    spec.cycles = 400;
    const RunResult short_one = run_link_map(with_init("B-1"), spec, variant);
    REQUIRE(short_one.first_violation());
    CHECK(short_one.first_violation()->cycle == 0u);
    CHECK(short_one.first_violation()->check == "conservation.total");
    CHECK(short_one.first_violation()->got == "5");
}

TEST_CASE("a whole link of your own (rtl option) takes include directories, defines and file lists as Verilator does", "[own-rtl][rtl-sources]") {
    // A copy of rtl/ whose counter includes a header from another directory and needs a define.
    const fs::path dir = fs::temp_directory_path() / ("creditloop_rtl_sources_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "inc");
    for (const auto& entry : fs::directory_iterator(fs::path(creditloop::testing::source_dir()) / "rtl"))
        if (entry.path().extension() == ".sv") fs::copy_file(entry.path(), dir / entry.path().filename());
    std::ofstream(dir / "inc" / "counter_defs.svh") << "`define CL_FROM_HEADER 1\n";
    const std::string counter = creditloop::testing::slurp((dir / "credit_counter.sv").string());
    std::ofstream(dir / "credit_counter.sv") << "`include \"counter_defs.svh\"\n`ifndef CREDITLOOP_RUN\n  not_verilog;\n`endif\n"
                                            << counter;
    fs::create_directories(dir / "lib");
    std::ofstream(dir / "lib" / "extra.sv") << "module creditloop_extra_block;\nendmodule\n";
    std::ofstream(dir / "more.f") << (dir / "lib" / "extra.sv").string() << "\n";   // a file outside the directory
    // Without the include directory: Verilator's own error, naming the user's file and line.
    DutSources missing = DutSources::from_environment();
    const std::string error = use_rtl_directory(missing, dir.string(), RtlOptions{{}, {"CREDITLOOP_RUN"}, {}});
    CHECK(error.find("Cannot find include file: counter_defs.svh") != std::string::npos);
    CHECK(error.find("credit_counter.sv:1") != std::string::npos);
    // With it and the define: one preprocessed credit_link.sv, the guard gone, the top first.
    DutSources sources = DutSources::from_environment();
    REQUIRE(use_rtl_directory(sources, dir.string(),
                              RtlOptions{{(dir / "inc").string()}, {"CREDITLOOP_RUN"}, {(dir / "more.f").string()}})
                .empty());
    REQUIRE(sources.rtl_files.size() == 1);
    CHECK(fs::path(sources.rtl_files[0]).filename() == "credit_link.sv");
    const std::string text = creditloop::testing::slurp(sources.rtl_files[0]);
    CHECK(text.find("module credit_link") != std::string::npos);
    CHECK(text.find("not_verilog") == std::string::npos);
    CHECK(text.find("module creditloop_extra_block") != std::string::npos);   // from the file list
    fs::remove_all(dir);
}

TEST_CASE("a map's file list names every file, its paths from the list's own folder", "[own-rtl][rtl-sources]") {
    // The list in a folder of its own, naming the example counter by a path relative to that
    // folder; the map beside it gives no files. Read from another current folder, it still finds
    // the file (Verilator's -F), and paths it prints are clean.
    const fs::path dir = fs::temp_directory_path() / ("creditloop_lists_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "lists");
    const fs::path counter = example("vr_counter/vr_credit_counter.sv");
    std::ofstream(dir / "lists" / "rtl.f") << fs::relative(counter, dir / "lists").string() << "\n";
    json j = json::parse(std::ifstream(example("vr_counter/vr_counter.map.json")));
    j["sources"] = {{"file_lists", {"lists/../lists/rtl.f"}}, {"incdirs", {example("include").string()}}};
    const fs::path map = dir / "m.json";
    std::ofstream(map) << j.dump(2);
    const fs::path here = fs::current_path();
    fs::current_path(fs::temp_directory_path());
    const std::string error = swap_error(map.string());
    fs::current_path(here);
    CHECK(error.empty());
    j["sources"]["file_lists"] = {"lists/../lists/none.f"};
    std::ofstream(map) << j.dump(2);
    CHECK(swap_error(map.string()) == "--counter " + map.string() + ": file list " + (dir / "lists" / "none.f").string() + " not found");
    j["sources"] = {{"files", json::array()}};
    std::ofstream(map) << j.dump(2);
    CHECK(swap_error(map.string()).find("no \"sources\": {\"files\": [...]} or {\"file_lists\": [...]} naming your RTL") !=
          std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("the checkout's own link through its map: one way in for a whole link", "[rtl][own-rtl][rtl-sources]") {
    prebuild_own_rtl();
    DutSources sources = DutSources::from_environment();
    std::vector<std::string> warnings;
    const std::string own = (fs::path(creditloop::testing::source_dir()) / "rtl" / "credit_link.map.json").string();
    REQUIRE(use_rtl_map(sources, own, false, warnings).empty());
    CHECK(warnings.empty());
    REQUIRE(sources.rtl_files.size() == 1);
    std::string error;
    auto library = DutLibrary::load(LinkConfig{4, 12, 4, 32}, sources, error);
    INFO(error);
    REQUIRE(library);
    auto dut = library->create();
    const RunResult r = run_link(dut.get(), creditloop::testing::seed_run(4, 12, 4));
    CHECK(r.passed);
    CHECK(three_decimals(r.throughput) == "0.923");   // seed 000's K = 4 row, through the map
    // A mutant of rtl/mutants/ is a patch of a file this map names too: --rtl MAP --mutant PATH.mutant.
    DutSources patched = DutSources::from_environment();
    const std::string leak = (fs::path(creditloop::testing::source_dir()) / "rtl/mutants/credit_counter_ifelse_leak.mutant").string();
    REQUIRE(use_rtl_map(patched, own, false, warnings, leak).empty());
    CHECK(creditloop::testing::slurp(patched.rtl_files.at(0)).find("credit_counter_ifelse_leak.sv") != std::string::npos);
    // A link map of a sender and a receiver is not a whole link: one line says which option takes it.
    DutSources other = DutSources::from_environment();
    CHECK(use_rtl_map(other, example("link/link.map.json").string(), false, warnings).find("take --link") != std::string::npos);
}

TEST_CASE("rtl/credit_link.map.json names every file of rtl/, the top first", "[own-rtl][rtl-sources]") {
    const fs::path rtl = fs::path(creditloop::testing::source_dir()) / "rtl";
    const json map = json::parse(std::ifstream(rtl / "credit_link.map.json"));
    std::set<std::string> listed, present;
    for (const auto& f : map["sources"]["files"]) listed.insert(f.get<std::string>());
    for (const auto& entry : fs::directory_iterator(rtl))
        if (entry.path().extension() == ".sv") present.insert(entry.path().filename().string());
    CHECK(listed == present);
    CHECK(map["sources"]["files"][0] == "credit_link.sv");
}
