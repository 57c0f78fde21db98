// The multi-channel link end to end: the real binary's bad-input contract and JSON, and on the
// RTL its mutants (each caught by the check it exists for), the head-of-line table, its waves
// and the per-pool sizing assertion.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "channel_library.h"
#include "channels_command.h"
#include "test_support.h"

using namespace creditloop;
using creditloop::testing::slurp;
namespace fs = std::filesystem;

namespace {

struct Outcome {
    int exit_code;
    std::string out;
    std::string err;
};

Outcome cli(const std::string& args) {
    const fs::path tmp = fs::temp_directory_path() / ("creditloop_channels_" + std::to_string(::getpid()));
    fs::create_directories(tmp);
    const std::string out = (tmp / "out").string(), err = (tmp / "err").string();
    const int status =
        std::system((creditloop::testing::build_dir() + "/creditloop " + args + " >" + out + " 2>" + err).c_str());
    Outcome o{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    fs::remove_all(tmp);
    return o;
}

fs::path scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("creditloop_channels_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

}  // namespace

TEST_CASE("a bad channel description gets one line, exit 2 and nothing written", "[cli][channels][bad-input]") {
    const fs::path dir = scratch("bad");
    const std::string waves = (dir / "w.vcd").string();
    std::ofstream(dir / "zero.json") << R"({"L": 2, "channels": []})";
    const std::pair<std::string, std::string> cases[] = {
        {"--channels " + (dir / "zero.json").string(), "no channels"},
        {"--preset ib --channel name=VL1,credits=0", "credits = 0"},
        {"--preset pcie --channel name=P,bytes=0-1024", "more than the pool's 32"},
        {"--preset chi --channel name=DAT,credits=16", "at most 15"},
        {"--channels " + (dir / "missing.json").string(), "cannot read it"},
        {"--preset nosuch", "not a channel preset"},
        {"--preset chi --stall XYZ", "no channel of that name"},
    };
    for (const auto& [args, says] : cases) {
        INFO(args);
        const Outcome o = cli("run " + args + " --waves " + waves);
        CHECK(o.exit_code == 2);
        CHECK(o.err.find(says) != std::string::npos);
        CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
        CHECK(o.out.empty());
        CHECK_FALSE(fs::exists(waves));
    }
    fs::remove_all(dir);
}

TEST_CASE("run --preset --model --json reports every channel and pool", "[cli][channels][json]") {
    const Outcome o = cli("run --preset pcie --model --json --cycles 4000");
    REQUIRE(o.exit_code == 0);
    const auto j = nlohmann::json::parse(o.out);
    CHECK(j["source"] == "model");
    REQUIRE(j["channels"].size() == 3);
    REQUIRE(j["pools"].size() == 6);   // a header and a data pool per channel
    CHECK(j["pools"][1]["name"] == "P.data");
    CHECK(j["pools"][1]["credits"] == 32);
    double sum = 0;
    for (const auto& ch : j["channels"]) sum += ch["throughput"].get<double>();
    CHECK(sum == Approx(j["link_throughput"].get<double>()));
    CHECK(j["longest_wait"].get<int>() <= 2);   // round-robin over 3 channels
    CHECK(j["passed"] == true);
}

TEST_CASE("every multi-channel mutant is caught, first by the check it exists for", "[rtl][channels][mutant]") {
    const DutSources sources = DutSources::from_environment();
    const auto mutants = find_channel_mutants(sources.source_root);
    REQUIRE(mutants.size() >= 7);
    const auto cases = channel_mutation_cases(1);
    std::vector<ChannelWanted> wanted;
    std::vector<std::vector<std::string>> rtl;
    for (const auto& m : mutants) {
        rtl.emplace_back();
        const auto problem = channel_mutant_rtl(sources, m, rtl.back());
        INFO(m.name << ": " << problem.value_or(""));
        REQUIRE_FALSE(problem);
        REQUIRE_FALSE(rtl.back().empty());
        for (const auto& [name, spec] : cases) wanted.push_back({spec.config, rtl.back()});
    }
    REQUIRE(build_channel_duts(wanted, sources).empty());
    for (size_t i = 0; i < mutants.size(); ++i) {
        const auto& m = mutants[i];
        INFO(m.name << " (" << m.mutant_class << "), expected to be caught by " << m.expect);
        REQUIRE_FALSE(m.expect.empty());
        bool caught = false;
        for (const auto& [name, spec] : cases) {
            std::string error;
            auto library = ChannelLibrary::load({spec.config, rtl[i]}, sources, error);
            REQUIRE(library);
            auto dut = library->create();
            const ChannelRunResult r = run_channels(dut.get(), spec);
            if (r.passed) continue;
            caught = true;
            // The expected check is among those that fired on the first violating cycle.
            bool expected = false;
            for (const auto& v : r.violations)
                expected = expected || (v.cycle == *r.first_violation_cycle && v.check.rfind(m.expect, 0) == 0);
            INFO("caught on " << name << " at cycle " << *r.first_violation_cycle << " by " << r.violations.front().check);
            CHECK(expected);
            break;
        }
        CHECK(caught);
    }
}

TEST_CASE("creditloop hol: every row meets its closed form on the RTL", "[rtl][channels][hol]") {
    const Outcome o = cli("hol");
    INFO(o.out << o.err);
    REQUIRE(o.exit_code == 0);
    size_t rows = 0, met = 0;
    for (size_t at = o.out.find("\n| "); at != std::string::npos; at = o.out.find("\n| ", at + 1)) {
        const std::string line = o.out.substr(at + 1, o.out.find('\n', at + 1) - at - 1);
        if (line.find("| channels") == 0) continue;
        ++rows;
        met += line.find("| yes | pass |") != std::string::npos;
    }
    CHECK(rows == 8);
    CHECK(met == 8);
}

TEST_CASE("creditloop hol: a window still in the shared pool's transient asks for a longer run", "[cli][channels][hol][fast]") {
    // 8 channels, B = 15, L = 64: the shared pool drains with the time constant 8 x 130 cycles;
    // at 2,000 cycles every check passes but the window has not reached the steady state.
    const Outcome early = cli("hol --channels 8 --credits 15 --L 64 --model --cycles 2000");
    INFO(early.out << early.err);
    CHECK(early.exit_code == 0);
    CHECK(early.out.find("| run longer: at least 9000 cycles | pass |") != std::string::npos);
    CHECK(early.out.find("Rerun with --cycles 9000") != std::string::npos);
    const Outcome settled = cli("hol --channels 8 --credits 15 --L 64 --model --cycles 9000");
    INFO(settled.out << settled.err);
    CHECK(settled.exit_code == 0);
    CHECK(settled.out.find("run longer") == std::string::npos);
    CHECK(settled.out.find("| one shared (120) | 0 (C0 holds every credit) | 0.000 .. 0.000 | yes | pass |") != std::string::npos);
}

TEST_CASE("channel waves: reproducible bit for bit, grouped by channel", "[rtl][channels][waves]") {
    const fs::path dir = scratch("waves");
    const std::string a = (dir / "a.vcd").string(), b = (dir / "b.vcd").string();
    REQUIRE(cli("run --preset pcie --cycles 500 --seed 7 --waves " + a).exit_code == 0);
    REQUIRE(cli("run --preset pcie --cycles 500 --seed 7 --waves " + b).exit_code == 0);
    const std::string first = slurp(a);
    CHECK(first.size() > 1000);
    // The date line aside (VCD writers stamp it), the files are the same.
    const auto body = [](const std::string& vcd) { return vcd.substr(vcd.find("$timescale")); };
    CHECK(body(first) == body(slurp(b)));
    const auto groups = creditloop::testing::gtkw_groups(slurp((dir / "a.gtkw").string()));
    REQUIRE(groups.size() == 4);
    CHECK(groups[0].first == "link");
    CHECK(groups[1].first == "P");
    CHECK(groups[2].first == "NP");
    CHECK(groups[3].first == "Cpl");
    // A header/data channel's group holds both its lanes and both its pools.
    bool data_credits = false, header_occupancy = false;
    for (const auto& line : groups[1].second) {
        data_credits = data_credits || line.find("#{P.data.credits}") == 0;
        header_occupancy = header_occupancy || line.find("#{P.hdr.occupancy}") == 0;
    }
    CHECK(data_credits);
    CHECK(header_occupancy);
    // Asked again without --force, the waves are not overwritten.
    const Outcome again = cli("run --preset pcie --cycles 500 --waves " + a);
    CHECK(again.exit_code == 2);
    CHECK(again.err.find("--force") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a pool declared full rate with B below RTT + K - 1 is refused by the RTL, named", "[rtl][channels][sizing]") {
    // L = 2: RTT = 6, so B = 4 with K = 1 is short and B = 6 is enough. With one pool the
    // message is the single link's; with more it names the pool.
    const Outcome short_pool = cli("run --L 2 --channel name=A,credits=6 --channel name=B,credits=4,full_rate=1 --cycles 400");
    CHECK(short_pool.exit_code == 3);
    CHECK(short_pool.err.find("POOL_FULL_RATE is declared for pool 1 but B = 4") != std::string::npos);
    CHECK(short_pool.err.find("need B >= 6") != std::string::npos);
    const Outcome one_pool = cli("run --L 2 --channel name=A,credits=4,full_rate=1 --cycles 400");
    CHECK(one_pool.exit_code == 3);
    CHECK(one_pool.err.find("FULL_RATE is declared but B = 4") != std::string::npos);
    const Outcome enough = cli("run --L 2 --channel name=A,credits=6,full_rate=1 --cycles 400");
    CHECK(enough.exit_code == 0);
}
