// `make sim`'s regression, in small: a passing smoke run, and a case that must fail leaving
// its waves, the rerun command and the JUnit failure behind.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <vector>

#include <pugixml.hpp>

#include "channels_command.h"
#include "regression.h"
#include "dut_bank.h"
#include "test_support.h"

using namespace creditloop;
using creditloop::testing::slurp;
namespace fs = std::filesystem;

namespace {

// Capture what the regression prints.
struct CoutCapture {
    std::ostringstream text;
    std::streambuf* saved = std::cout.rdbuf(text.rdbuf());
    ~CoutCapture() { std::cout.rdbuf(saved); }
};

}  // namespace

namespace {

// The full names a VCD declares, as GTKWave shows them: "scope.scope.name[3:0]".
std::set<std::string> vcd_signals(const std::string& vcd) {
    std::set<std::string> names;
    std::vector<std::string> scopes;
    std::istringstream in(vcd);
    for (std::string word; in >> word;) {
        if (word == "$scope") {
            std::string kind, name;
            in >> kind >> name;
            scopes.push_back(name);
        } else if (word == "$upscope") {
            if (!scopes.empty()) scopes.pop_back();
        } else if (word == "$var") {
            std::string kind, width, code, name, next;
            in >> kind >> width >> code >> name >> next;
            std::string full;
            for (const auto& s : scopes) full += s + ".";
            names.insert(full + name + (next != "$end" ? next : ""));
        } else if (word == "$enddefinitions") {
            break;
        }
    }
    return names;
}

}  // namespace

TEST_CASE("the regression lists every seed configuration and the random matrix", "[regression]") {
    const auto cases = regression_cases(1);
    int seed001 = 0, seed000 = 0, random = 0;
    for (const auto& c : cases) {
        seed001 += c.name.rfind("seed001/", 0) == 0;
        seed000 += c.name.rfind("seed000/", 0) == 0;
        random += c.name.rfind("random/", 0) == 0;
    }
    CHECK(seed001 == 40);   // L in {1, 4, 8} by ten B, and the drain-every-2nd row
    CHECK(seed000 == 6);
    // The regression is where the seeds' tables are checked on the RTL: every seed case carries
    // the number its seed prints.
    for (const auto& c : cases)
        if (c.name.rfind("seed00", 0) == 0) CHECK(c.seed_throughput.has_value());
    CHECK(random >= 12);
    CHECK(name_matches("seed001/L4_B10", "seed001/L4_*"));
    CHECK_FALSE(name_matches("seed000/K8", "seed001/*"));
    CHECK(name_matches("seed000/K8", "K8"));
    // SEED reseeds the random tests, the multi-channel matrix included.
    const auto reseeded = regression_cases(2);
    const auto last_random = [](const std::vector<RegressionCase>& all) {
        const RegressionCase* found = nullptr;
        for (const auto& c : all)
            if (c.name.rfind("random/", 0) == 0) found = &c;
        return found;
    };
    REQUIRE(last_random(cases));
    CHECK(last_random(reseeded)->spec.stimulus.seed != last_random(cases)->spec.stimulus.seed);
    int channel_cases = 0, channel_systemc_cases = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        if (!cases[i].channels) continue;
        ++channel_cases;
        if (cases[i].systemc) ++channel_systemc_cases;
        REQUIRE(reseeded[i].channels);
        CHECK(reseeded[i].channels->seed == 2);
    }
    CHECK(channel_cases == 37);   // chi, pcie, ib, 4 with faults, 3 with policies and resets, 2 head-of-line, 8 random
                                  // links, 6 + 10 seed rows on one channel, and pcie_drop_one again under SystemC
    CHECK(channel_systemc_cases == 1);
    CHECK(channel_run_arguments(*cases.back().channels) != channel_run_arguments(*reseeded.back().channels));
}

TEST_CASE("regression smoke run of seed 000 K = 8 passes and writes JUnit with the seed", "[regression][rtl][smoke]") {
    const fs::path dir = fs::temp_directory_path() / "creditloop_smoke";
    fs::remove_all(dir);
    RegressCommand cmd;
    cmd.filter = "seed000/K8";
    cmd.seed = 5;
    cmd.junit = (dir / "results.xml").string();
    cmd.waves_dir = (dir / "waves").string();
    int code = 0;
    std::string printed;
    {
        CoutCapture capture;
        code = run_regression(cmd, "build/creditloop");
        printed = capture.text.str();
    }
    CHECK(code == 0);
    CHECK(printed.find("seed000/K8") != std::string::npos);
    CHECK(printed.find("0.615") != std::string::npos);
    CHECK(printed.find("1 passed, 0 failed") != std::string::npos);
    pugi::xml_document junit;
    REQUIRE(junit.load_file(cmd.junit.c_str()));
    const auto suite = junit.child("testsuites").child("testsuite");
    CHECK(suite.attribute("tests").as_int() == 1);
    CHECK(suite.attribute("failures").as_int() == 0);
    CHECK(std::string(suite.select_node("properties/property[@name='seed']").node().attribute("value").value()) == "5");
    const auto test = suite.child("testcase");
    CHECK(std::string(test.attribute("classname").value()) == "creditloop.seed000");
    CHECK(std::string(test.attribute("name").value()) == "K8");
    CHECK_FALSE(test.child("failure"));
    CHECK(fs::is_empty(cmd.waves_dir));   // passing runs leave no waves
    fs::remove_all(dir);
}

TEST_CASE("a failing test leaves waves and the rerun command and a JUnit failure", "[regression][rtl][sizing]") {
    // Seed 001's late timing fix: L = 5, B = 8 declared full rate. Functionally correct, so only
    // the sizing check fails, and the regression must say so and keep the evidence.
    const fs::path dir = fs::temp_directory_path() / "creditloop_failing";
    fs::remove_all(dir);
    RegressionCase late;
    late.name = "story/late_timing_fix";
    late.spec = creditloop::testing::seed_run(5, 8);
    late.spec.declared_full_rate = true;
    RegressCommand cmd;
    cmd.junit = (dir / "results.xml").string();
    cmd.waves_dir = (dir / "waves").string();
    int code = 0;
    std::string printed;
    {
        CoutCapture capture;
        code = run_regression(cmd, "build/creditloop", {late});
        printed = capture.text.str();
    }
    CHECK(code == 1);
    CHECK(printed.find("FAIL story/late_timing_fix") != std::string::npos);
    CHECK(printed.find("sizing.") != std::string::npos);
    CHECK(printed.find("rerun: build/creditloop run --L 5 --B 8 --K 1 --cycles 6000 --seed 1 --drain-every 1 --full-rate") !=
          std::string::npos);
    const fs::path vcd = dir / "waves" / "story_late_timing_fix.vcd";
    CHECK(printed.find("waves: gtkwave " + vcd.string()) != std::string::npos);
    REQUIRE(fs::exists(vcd));
    const std::string waves = slurp(vcd.string());
    CHECK(waves.find("$enddefinitions") != std::string::npos);
    CHECK(waves.find("credits") != std::string::npos);
    // The save file groups the loop's signals and puts the marker on the first violation.
    const fs::path gtkw = dir / "waves" / "story_late_timing_fix.gtkw";
    CHECK(printed.find("waves: gtkwave " + vcd.string() + " " + gtkw.string()) != std::string::npos);
    const std::string save = slurp(gtkw.string());
    CHECK(save.find("[dumpfile] \"" + vcd.string() + "\"") != std::string::npos);
    CHECK(save.find("-sender credits") != std::string::npos);
    // Every signal the save file shows is in the waves, under its scope, with its width.
    const auto traced = vcd_signals(waves);
    std::vector<std::string> shown;
    std::istringstream lines(save);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty() && line[0] != '@' && line[0] != '-' && line[0] != '[' && line[0] != '*') shown.push_back(line);
    CHECK(shown.size() == bank_ports().size() - 1);   // every port of credit_link but tx_payload
    for (const auto& signal : shown) {
        INFO(signal);
        CHECK(traced.count(signal) == 1);
    }
    CHECK(traced.count(shown.front().substr(0, shown.front().rfind('.')) + ".credits[3:0]") == 1);   // B = 8: four bits
    const auto first = printed.find("first violation: cycle ");
    REQUIRE(first != std::string::npos);
    const uint64_t cycle = std::stoull(printed.substr(first + 23));
    CHECK(save.find("\n*-6.000000 " + std::to_string(10 * cycle) + " ") != std::string::npos);
    // It opens on the story: the first group names the check that fired and holds, beside the
    // marker, the conservation total and the sizing check's signals.
    const std::string line = printed.substr(first + 23);   // "151: sizing.round_trip link.sender..."
    const std::string fired = line.substr(line.find(": ") + 2);
    const std::string check = fired.substr(0, fired.find(' '));
    CHECK(check.rfind("sizing.", 0) == 0);
    const auto groups = creditloop::testing::gtkw_groups(save);
    REQUIRE(groups.size() >= 2);
    CHECK(groups.front().first == "first violation: " + check + " at cycle " + std::to_string(cycle));
    const std::string scope = shown.front().substr(0, shown.front().rfind('.'));
    std::set<std::string> story;
    for (const auto& signal : groups.front().second) story.insert(signal.substr(signal.rfind('.') + 1));
    CHECK(groups.front().second.front() == scope + ".credit_total[6:0]");   // the total first
    for (const char* signal : {"credit_total[6:0]", "send", "credits[3:0]", "credits_arriving[3:0]"}) {
        INFO(signal);
        CHECK(story.count(signal) == 1);
    }
    CHECK(groups[1].first == "clock and resets");   // the rest below, in loop order
    pugi::xml_document junit;
    REQUIRE(junit.load_file(cmd.junit.c_str()));
    const auto suite = junit.child("testsuites").child("testsuite");
    CHECK(suite.attribute("failures").as_int() == 1);
    const auto failure = suite.child("testcase").child("failure");
    REQUIRE(failure);
    CHECK(std::string(failure.attribute("message").value()).rfind("cycle ", 0) == 0);
    CHECK(std::string(failure.text().get()).find("rerun: build/creditloop run --L 5 --B 8") == 0);

    // WAVES=fst: the same failure, FST waves beside their save file.
    cmd.fst = true;
    {
        CoutCapture capture;
        code = run_regression(cmd, "build/creditloop", {late});
    }
    CHECK(code == 1);
    const fs::path fst = dir / "waves" / "story_late_timing_fix.fst";
    REQUIRE(fs::exists(fst));
    CHECK(fs::file_size(fst) > 0);
    CHECK(slurp(gtkw.string()).find("[dumpfile] \"" + fst.string() + "\"") != std::string::npos);
    fs::remove_all(dir);
}
