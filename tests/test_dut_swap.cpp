// Your own blocks in place of the project's: seed 002's counters drop in unchanged and pass the
// applicable regression; a one-bit credit_return skips (and names) the tests that return more
// than one credit a cycle; a file with the wrong ports is refused with one line naming them.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include "block_swap.h"
#include "regress_support.h"
#include "regression.h"
#include "test_support.h"

using namespace creditloop;
using creditloop::testing::slurp;
using creditloop::testing::source_dir;
namespace fs = std::filesystem;

namespace {

struct Regress {
    int code;
    std::string printed;
};

Regress regress(RegressCommand cmd) {
    const auto [code, printed] = creditloop::testing::regress_captured(std::move(cmd), "swap");
    return {code, printed};
}

}  // namespace

TEST_CASE("seed 002's SystemVerilog counter drops in and passes the one-credit-per-cycle tests", "[rtl][dut-counter][seed002]") {
    for (const char* file : {"seeds/seed002/chi_credit_counter.sv", "seeds/seed002/chi_credit_counter_v2001.v"}) {
        RegressCommand cmd;
        cmd.counter_file = (fs::path(source_dir()) / file).string();
        cmd.filter = "L1_B4";   // seed001/L1_B4 and the random tests on L = 1 and B = 4
        const Regress r = regress(cmd);
        INFO(file << "\n" << r.printed);
        CHECK(r.code == 0);
        CHECK(r.printed.find("credit_counter.sv is chi_credit_counter") != std::string::npos);
        // One bit of credit_return: flushes and a shared return path can return several credits in one cycle.
        CHECK(r.printed.find("are skipped: random/L1_B4_K1_flush") != std::string::npos);
        CHECK(r.printed.find("5 passed, 0 failed") != std::string::npos);   // resets included
    }
}

TEST_CASE("a counter with the wrong ports is refused with one line naming them", "[dut-counter][bad-input]") {
    std::string text = slurp((fs::path(source_dir()) / "seeds/seed002/chi_credit_counter.sv").string());
    text = std::regex_replace(text, std::regex(R"(\bdo_send\b)"), "sent");
    const fs::path file = fs::temp_directory_path() / "creditloop_bad_counter.sv";
    std::ofstream(file) << text;
    DutSources sources = DutSources::from_environment();
    SwappedBlock swapped;
    const std::string error = swap_block(sources, "credit_counter.sv", file.string(), 12, swapped);
    CHECK(error.find("missing port(s) do_send") != std::string::npos);
    CHECK(error.find("unknown port(s) sent") != std::string::npos);
    CHECK(error.find('\n') == std::string::npos);
    CHECK(swap_block(sources, "credit_counter.sv", "/nonexistent.sv", 12, swapped).find("not found") != std::string::npos);
    fs::remove(file);
}

TEST_CASE("your own return logic drops in under its contract and batches with flushes", "[rtl][dut-return]") {
    // The project's own return logic under another module name stands in for a user's design.
    std::string text = slurp((fs::path(source_dir()) / "rtl/credit_return.sv").string());
    text = std::regex_replace(text, std::regex(R"(module credit_return)"), "module my_credit_return");
    const fs::path file = fs::temp_directory_path() / "creditloop_my_return.sv";
    std::ofstream(file) << text;
    RegressCommand cmd;
    cmd.return_file = file.string();
    cmd.filter = "random/L3_B7_K3_*";   // batches of 3 with B = 7, flushes, resets, a shared return path, the hybrid
    const Regress r = regress(cmd);
    INFO(r.printed);
    CHECK(r.code == 0);
    CHECK(r.printed.find("credit_return.sv is my_credit_return") != std::string::npos);
    CHECK(r.printed.find("7 passed, 0 failed") != std::string::npos);
    fs::remove(file);
}

TEST_CASE("seed 002's counter under seed 002's own return stimulus is flagged at the first unearned credit", "[rtl][dut-counter][seed002]") {
    // Protocol-correct (the receiver returns what it frees): passes, as the test above shows.
    // The seed's stimulus returns a credit every third cycle from cycle 1, tied to nothing.
    RegressionCase c;
    c.name = "seed002/own_stimulus";
    c.spec = creditloop::testing::seed_run(2, 2);
    c.spec.cycles = 2000;
    RegressCommand cmd;
    cmd.counter_file = (fs::path(source_dir()) / "seeds/seed002/chi_credit_counter.sv").string();
    cmd.return_file = (fs::path(source_dir()) / "seeds/seed002/seed002_stimulus_return.sv").string();
    const std::vector<RegressionCase> cases{c};
    const auto [code, printed] = creditloop::testing::regress_captured(cmd, "seed002_own", &cases);
    INFO(printed);
    CHECK(code == 1);
    CHECK(printed.find("first violation: cycle 1: conservation.receiver_returns") != std::string::npos);
    CHECK(printed.find("credit returned with none outstanding") != std::string::npos);
}
