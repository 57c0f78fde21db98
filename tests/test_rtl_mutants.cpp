// Real bugs in real RTL: a mutant counter (rtl/mutants/) dropped into a copy of the link must be
// caught by the scoreboards and by the RTL's own assertions; a top with a missing port must be
// refused with one line that names the port; a configuration the RTL refuses fails alone.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "dut_library.h"
#include "mutants.h"
#include "mutant_patch.h"
#include "test_support.h"

using namespace creditloop;
using creditloop::testing::slurp;
namespace fs = std::filesystem;

namespace {

// A copy of rtl/*.sv in a fresh directory, for mutating.
fs::path rtl_copy(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("creditloop_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const auto& entry : fs::directory_iterator(fs::path(creditloop::testing::source_dir()) / "rtl"))
        if (entry.path().extension() == ".sv") fs::copy_file(entry.path(), dir / entry.path().filename());
    return dir;
}

}  // namespace

TEST_CASE("seed 002's DebugLab counter (no decrement on send) is caught on the cycle it happens", "[rtl][mutant][conservation]") {
    const fs::path dir = rtl_copy("no_decrement");
    std::string patch_error;
    const std::string built = build_mutant(creditloop::testing::source_dir() + "/rtl/mutants/credit_counter_no_decrement.mutant",
                                           creditloop::testing::source_dir() + "/rtl", dir.string(), patch_error);
    REQUIRE(patch_error.empty());
    fs::rename(built, dir / "credit_counter.sv");
    DutSources sources = DutSources::from_environment();
    REQUIRE(use_rtl_directory(sources, dir.string()).empty());
    std::string error;
    auto library = DutLibrary::load(LinkConfig{2, 4, 1, 32}, sources, error);
    REQUIRE(library);
    auto dut = library->create();
    const RunResult r = run_link(dut.get(), creditloop::testing::seed_run(2, 4));
    CHECK_FALSE(r.passed);
    // Hand-worked: the send in cycle 0 is not subtracted, so cycle 1 starts with 4 credits where
    // the model has 3, and one credit more than B is in the loop (4 at the sender + 1 in flight).
    REQUIRE(r.first_violation_cycle == 1u);
    bool lockstep = false, created = false;
    for (const auto& v : r.violations) {
        if (v.cycle != 1) continue;
        lockstep = lockstep || (v.check == "lockstep" && v.signal == "link.sender.credits" && v.expected == "3" &&
                                v.got == "4");
        created = created || (v.check == "conservation.total" && v.got == "5" &&
                              v.detail.find("created") != std::string::npos);
    }
    CHECK(lockstep);
    CHECK(created);
    // The RTL's own conservation assertion (in the probe bound into the link) fires on the same
    // cycle: credits 4 + 1 in flight = 5 != B = 4.
    REQUIRE(r.rtl_assertion_cycle.has_value());
    CHECK(*r.rtl_assertion_cycle == 1u);
    fs::remove_all(dir);
}

TEST_CASE("an RTL top without a port the harness needs is refused with one line naming it", "[rtl][bad-input]") {
    const fs::path dir = rtl_copy("missing_port");
    std::string top = slurp((dir / "credit_link.sv").string());
    // pop_payload stops being a port and becomes an internal signal: legal RTL, wrong contract.
    const std::string port = "  output logic [NLANE-1:0]     pop,\n  output logic [NLANE*W-1:0]   pop_payload\n";
    const auto at = top.find(port);
    REQUIRE(at != std::string::npos);
    top.replace(at, port.size(), "  output logic [NLANE-1:0]     pop\n");
    top.insert(top.find("  // ---- link.sender"), "  logic [NLANE*W-1:0] pop_payload;\n");
    std::ofstream(dir / "credit_link.sv") << top;
    DutSources sources = DutSources::from_environment();
    REQUIRE(use_rtl_directory(sources, dir.string()).empty());
    std::string error;
    auto library = DutLibrary::load(LinkConfig{1, 2, 1, 32}, sources, error);
    CHECK_FALSE(library);
    CHECK(error.find("no port 'pop_payload'") != std::string::npos);
    CHECK(error.find('\n') == std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a link without a signal the observation probe binds to is refused with one line naming it",
          "[rtl][bad-input]") {
    // The probe (rtl/observe/credit_link_probe.sv) reads the link's internal state by name: a
    // design whose buffer count is called something else cannot be observed, and says so.
    const fs::path dir = rtl_copy("missing_signal");
    std::string top = slurp((dir / "credit_link.sv").string());
    // The signal (a whole word; the lane's own lane_occupancy keeps its name) is renamed.
    const std::regex word("\\boccupancy\\b");
    const auto renamed = std::distance(std::sregex_iterator(top.begin(), top.end(), word), std::sregex_iterator());
    REQUIRE(renamed >= 3);
    top = std::regex_replace(top, word, "rx_count_");
    const auto pin = top.find(".rx_count_");   // the buffer's own port keeps its name
    REQUIRE(pin != std::string::npos);
    top.replace(pin, 10, ".occupancy");
    std::ofstream(dir / "credit_link.sv") << top;
    DutSources sources = DutSources::from_environment();
    REQUIRE(use_rtl_directory(sources, dir.string()).empty());
    std::string error;
    auto library = DutLibrary::load(LinkConfig{1, 2, 1, 32}, sources, error);
    CHECK_FALSE(library);
    INFO(error);
    CHECK(error.find("credit_link has no signal 'occupancy' for the observation probe") != std::string::npos);
    CHECK(error.find('\n') == std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a configuration the RTL refuses fails alone and the rest of its bank still builds", "[rtl][bad-input][bank]") {
    // An RTL that refuses B = 5 at elaboration: in a bank with two other configurations, only
    // that one fails, with Verilator's message, and the other two are built together and run.
    const fs::path dir = rtl_copy("refuses_b5");
    std::string top = slurp((dir / "credit_link.sv").string());
    const auto ports_end = top.find(");\n", top.find("module credit_link"));
    REQUIRE(ports_end != std::string::npos);
    top.insert(ports_end + 3, "  if (B == 5) begin : refuse_b5\n    $error(\"this link refuses B = 5\");\n  end\n");
    std::ofstream(dir / "credit_link.sv") << top;
    DutSources sources = DutSources::from_environment();
    REQUIRE(use_rtl_directory(sources, dir.string()).empty());
    const LinkConfig refused{2, 5, 2, 32}, fine_a{1, 4, 1, 32}, fine_b{3, 7, 3, 32};
    const auto errors = build_duts({fine_a, refused, fine_b}, sources, 2);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].find("verilating L2_B5_K2_W32 failed") == 0);
    CHECK(errors[0].find("this link refuses B = 5") != std::string::npos);
    for (const auto& config : {fine_a, fine_b}) {
        std::string error;
        auto library = DutLibrary::load(config, sources, error);
        INFO(config.key() << ": " << error);
        REQUIRE(library);
        auto dut = library->create();
        CHECK(run_link(dut.get(), creditloop::testing::seed_run(config.stages, config.buffer_slots, config.batch)).passed);
    }

    // A typo fails every configuration alike: one line, said once, naming the file and line.
    std::ofstream(dir / "pipeline.sv", std::ios::app) << "module broken (\n";
    const auto typo = build_duts({LinkConfig{1, 6, 1, 32}, LinkConfig{1, 8, 1, 32}}, sources, 2);
    REQUIRE(typo.size() == 1);
    CHECK(typo[0].find("verilating 2 configurations failed") == 0);
    CHECK(typo[0].find("pipeline.sv:") != std::string::npos);
    CHECK(typo[0].find('\n') == std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("the rtl option names what is wrong with the directory", "[cli][bad-input]") {
    DutSources sources;
    CHECK(use_rtl_directory(sources, "/nonexistent/rtl").find("not a directory") != std::string::npos);
    const fs::path empty = fs::temp_directory_path() / "creditloop_empty_rtl";
    fs::create_directories(empty);
    CHECK(use_rtl_directory(sources, empty.string()).find("no credit_link.sv") != std::string::npos);
    fs::remove_all(empty);
}

TEST_CASE("seed 004 on the RTL: the if/else-if leak loses its first credit in slot 6 and 2 of 4 in all", "[rtl][mutant][seed004][conservation]") {
    std::vector<std::string> errors;
    const auto mutants = find_mutants(creditloop::testing::source_dir(), errors);
    const auto leak = std::find_if(mutants.begin(), mutants.end(),
                                   [](const Mutant& m) { return m.name == "credit_counter_ifelse_leak"; });
    REQUIRE(leak != mutants.end());
    const DutSources sources = mutant_sources(DutSources::from_environment(), *leak);
    std::string error;
    auto library = DutLibrary::load(LinkConfig{2, 4, 1, 32}, sources, error);
    REQUIRE(library);
    auto dut = library->create();
    const RunResult r = run_link(dut.get(), creditloop::testing::seed_run(2, 4));
    // Seed 004: in slot 6 a send and a returning credit coincide and the credit is dropped at
    // that edge; the count at the start of cycle 7 is one short, the cycle its checker prints.
    REQUIRE(r.first_violation_cycle == 7u);
    const Violation& first = r.violations.front();
    CHECK(first.check == "conservation.total");
    CHECK(first.expected == "4");
    CHECK(first.got == "3");
    CHECK(first.detail.find("1 credit lost at the edge ending cycle 6") != std::string::npos);
    // "2 of 4 credits leaked and throughput fell from 4 to 2 flits per 6-cycle round trip".
    CHECK(r.credits_net_change == -2);
    CHECK(r.first_round_trip_sends == 4);
    CHECK(r.last_round_trip_sends == 2);
    CHECK_FALSE(r.passed);
}
