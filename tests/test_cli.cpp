// Bad input gets one clear line naming the parameter and the allowed range, exit code 2, and
// nothing written; good input gives the seeds' numbers through the real binary.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "command_table.h"
#include "test_support.h"

using namespace creditloop;
namespace fs = std::filesystem;

namespace {

std::string parse_error(const std::vector<std::string>& args) {
    ParseError error;
    auto cmd = parse_run(args, error);
    return cmd ? "" : error.message;
}

struct Outcome {
    int exit_code;
    std::string out;
    std::string err;
};

// Run the real CLI with `args`, capturing stdout and stderr.
Outcome cli(const std::string& args) {
    const fs::path tmp = fs::temp_directory_path() / ("creditloop_cli_" + std::to_string(::getpid()));
    fs::create_directories(tmp);
    const std::string out = (tmp / "out").string(), err = (tmp / "err").string();
    const std::string command = creditloop::testing::build_dir() + "/creditloop " + args + " >" + out + " 2>" + err;
    const int status = std::system(command.c_str());
    using creditloop::testing::slurp;
    Outcome o{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    fs::remove_all(tmp);
    return o;
}

int lines(const std::string& text) {
    int n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

}  // namespace

TEST_CASE("impossible parameters name the parameter and the allowed range", "[cli][bad-input]") {
    CHECK(parse_error({"--B", "0"}).find("--B") != std::string::npos);
    CHECK(parse_error({"--B", "0"}).find("1..4096") != std::string::npos);
    CHECK(parse_error({"--L", "0"}).find("--L") != std::string::npos);
    CHECK(parse_error({"--K", "0"}).find("--K") != std::string::npos);
    const std::string k_above_b = parse_error({"--B", "4", "--K", "5"});
    CHECK(k_above_b.find("--K") != std::string::npos);
    CHECK(k_above_b.find("B = 4") != std::string::npos);
    CHECK(parse_error({"--drain-every", "0"}).find("--drain-every") != std::string::npos);
    CHECK(parse_error({"--cycles", "100"}).find("too few") != std::string::npos);
    CHECK(parse_error({"--B", "twelve"}).find("not a whole number") != std::string::npos);
    CHECK(parse_error({"--frobnicate"}).find("unknown option '--frobnicate'") != std::string::npos);
    // An unknown option with a value is named alone, not with its value (nor the words reversed).
    CHECK(parse_error({"--foo", "bar"}).rfind("unknown option '--foo' for 'creditloop run'", 0) == 0);
    CHECK(parse_error({"--L", "2", "x", "--bogus", "3"}).rfind("unknown option '--bogus'", 0) == 0);
    CHECK(parse_error({"bar", "baz"}).rfind("unexpected argument 'bar' for 'creditloop run'", 0) == 0);
    CHECK(parse_error({"bar", "--foo", "baz"}).rfind("unknown option '--foo' for 'creditloop run'", 0) == 0);
    CHECK(parse_error({"--L", "2", "--", "--foo", "bar"}).rfind("unknown option '--foo' for 'creditloop run'", 0) == 0);
    CHECK(parse_error({"--B"}).find("needs a value") != std::string::npos);
    CHECK(parse_error({"--drain-every", "2", "--drain-stall", "0.1"}).find("exclude") != std::string::npos);
    CHECK(parse_error({"--L=4", "--B=12", "--K=8"}).empty());
}

TEST_CASE("the cycles needed for the window", "[cli][bad-input]") {
    // 20 x (RTT + K - 1): L = 4, K = 1 needs 200 cycles; L = 8, K = 1 needs 360.
    CHECK(parse_error({"--L", "4", "--cycles", "200"}).empty());
    CHECK_FALSE(parse_error({"--L", "4", "--cycles", "199"}).empty());
    CHECK(parse_error({"--L", "8", "--cycles", "199"}).find("at least 360") != std::string::npos);
}

TEST_CASE("the CLI exits 2 with one error line and writes nothing on bad input", "[cli][bad-input][binary]") {
    const fs::path waves = fs::temp_directory_path() / "creditloop_bad_input.vcd";
    fs::remove(waves);
    for (const std::string args : {"run --B 0", "run --L 0", "run --K 13 --B 12", "run --cycles 10",
                                   "run --drain-every 0", "run --bogus", "frobnicate", "regress --bogus",
                                   "run --reverse-load 1", "run --policy lazy", "run --low 3",
                                   "run --policy each --K 4", "run --systemc --model", "run --preset pcie --systemc --model",
                                   "policies --loads 2",
                                   "speed --mode turbo", "speed --cycles 0",
                                   // an unknown option is named before a missing required one
                                   "gtkw --bogus x", "merge --bogus x"}) {
        const Outcome o = cli(args + " --waves " + waves.string());
        INFO(args << " -> " << o.err);
        CHECK(o.exit_code == 2);
        CHECK(lines(o.err) == 1);
        CHECK(o.err.rfind("creditloop: ", 0) == 0);
        CHECK(o.out.empty());
        CHECK_FALSE(fs::exists(waves));
    }
}

TEST_CASE("every subcommand answers --help with its options and exits 0", "[cli][binary]") {
    const std::vector<std::pair<std::string, std::string>> commands = {
        {"run", "--reverse-load"}, {"regress", "--junit"},   {"mutants", "--waves-dir"}, {"size", "--bandwidth"},
        {"sweep", "--rtl-grid"},   {"policies", "--loads"},  {"speed", "--mode"},        {"report", "--junit"}};
    for (const auto& [command, option] : commands) {
        const Outcome o = cli(command + " --help");
        INFO(command << ": " << o.out << o.err);
        CHECK(o.exit_code == 0);
        CHECK(o.err.empty());
        CHECK(o.out.find("creditloop " + command) != std::string::npos);
        CHECK(o.out.find(option) != std::string::npos);
    }
    // A flag takes no value, and an option that needs one says so, in every subcommand alike.
    CHECK(parse_error({"--full-rate=yes"}) == "--full-rate takes no value");
    CHECK(parse_error({"--B", "--K", "2"}) == "--B needs a value");
}

TEST_CASE("the usage and the unknown-command error are read from the command table", "[cli]") {
    const std::vector<Subcommand> commands = {
        {"run", {{"[options]", "one run"}, {"--preset NAME", "the multi-channel link"}}, nullptr},
        {"merge", {{"--junit OUT SHARD.xml...", "shards, merged"}}, nullptr},
        {"map", {{"FILE.sv...", "a port map"}}, nullptr}};
    CHECK(usage_text(commands) ==
          "usage: creditloop run [options]      one run\n"
          "       creditloop run --preset NAME  the multi-channel link\n"
          "       creditloop merge --junit OUT SHARD.xml...  shards, merged\n"
          "       creditloop map FILE.sv...     a port map\n"
          "'creditloop <command> --help' lists a command's options.\n");
    CHECK(unknown_command("bogus", commands) == "unknown command 'bogus': use 'run', 'merge' or 'map' (see 'creditloop --help')");
}

TEST_CASE("no command, help and an unknown command", "[cli][bad-input][binary]") {
    const Outcome none = cli("");
    CHECK(none.exit_code == 2);
    CHECK(none.out.rfind("usage: creditloop run [options]", 0) == 0);
    for (const std::string asked : {"--help", "-h", "help"}) {
        const Outcome o = cli(asked);
        CHECK(o.exit_code == 0);
        CHECK(o.out == none.out);
    }
    const Outcome bogus = cli("bogus");
    CHECK(bogus.exit_code == 2);
    CHECK(bogus.out.empty());
    CHECK(lines(bogus.err) == 1);
    CHECK(bogus.err.rfind("creditloop: unknown command 'bogus': use 'run', ", 0) == 0);
    // Every command the usage lists, the error names.
    std::istringstream usage(none.out);
    for (std::string line; std::getline(usage, line);) {
        if (line.rfind("usage: ", 0) != 0 && line.rfind("       ", 0) != 0) continue;
        std::istringstream words(line.substr(7));
        std::string program, name;
        if (!(words >> program >> name)) continue;
        INFO(name);
        CHECK(bogus.err.find("'" + name + "'") != std::string::npos);
    }
}

TEST_CASE("every command that takes a link's L and B gives them the same limits", "[cli][bad-input][binary]") {
    const std::string stages = "allowed 1.." + std::to_string(kMaxStages) + " (stages each way)";
    const std::string slots = "allowed 1.." + std::to_string(kMaxBufferSlots) + " (receiver slots)";
    for (const std::string command : {"run", "run --preset chi", "hol", "faults", "soak", "policies", "speed", "gtkw", "network"}) {
        const Outcome o = cli(command + " --L " + std::to_string(kMaxStages + 1));
        INFO(command << " -> " << o.err);
        CHECK(o.exit_code == 2);
        CHECK(o.err == "creditloop: --L: " + std::to_string(kMaxStages + 1) + " is out of range: " + stages + "\n");
    }
    for (const std::string command : {"run", "faults", "soak", "policies", "speed", "gtkw"}) {
        const Outcome o = cli(command + " --B " + std::to_string(kMaxBufferSlots + 1));
        INFO(command << " -> " << o.err);
        CHECK(o.exit_code == 2);
        CHECK(o.err == "creditloop: --B: " + std::to_string(kMaxBufferSlots + 1) + " is out of range: " + slots + "\n");
    }
}

TEST_CASE("regress leaves the SystemC repeats out unless asked for, by --systemc or a filter that names them",
          "[cli][binary][regression]") {
    const auto systemc_lines = [](const std::string& out) {
        std::istringstream in(out);
        int n = 0;
        for (std::string line; std::getline(in, line);) n += line.rfind("systemc/", 0) == 0;
        return n;
    };
    const Outcome plain = cli("regress --list");
    const Outcome asked = cli("regress --list --systemc");
    const Outcome named = cli("regress --list --filter systemc/");
    REQUIRE(plain.exit_code == 0);
    REQUIRE(asked.exit_code == 0);
    REQUIRE(named.exit_code == 0);
    CHECK(systemc_lines(plain.out) == 0);
    // The four single-link runs and the multi-channel one repeated under the SystemC harness.
    CHECK(systemc_lines(asked.out) == 5);
    CHECK(systemc_lines(named.out) == 5);
    CHECK(lines(asked.out) == lines(plain.out) + 5);
}

TEST_CASE("the CLI's JSON gives seed 000's K = 8 numbers from the model", "[cli][binary][seed000]") {
    const Outcome o = cli("run --model --json --L 4 --B 12 --K 8 --drain-every 1 --cycles 6000 --seed 1");
    CHECK(o.exit_code == 0);
    CHECK(lines(o.out) == 1);
    const auto json = nlohmann::json::parse(o.out);
    CHECK(json.at("throughput_3dp") == "0.615");
    CHECK(json.at("window").at("sends") == 1845);   // 0.615 of the 3000-cycle window
    CHECK(json.at("rtt") == 10);
    CHECK(json.at("passed") == true);
    CHECK(json.at("first_violation_cycle").is_null());
    CHECK(json.at("violations").empty());
}

TEST_CASE("the CLI never overwrites a waves file it was not asked to", "[cli][binary]") {
    const fs::path waves = fs::temp_directory_path() / "creditloop_user_waves.vcd";
    { std::ofstream(waves) << "precious"; }
    const Outcome o = cli("run --L 1 --B 4 --waves " + waves.string());
    CHECK(o.exit_code == 2);
    CHECK(o.err.find("--force") != std::string::npos);
    CHECK(creditloop::testing::slurp(waves.string()) == "precious");
    fs::remove(waves);
}

TEST_CASE("creditloop speed's loops run the cycles they are timed on", "[cli][binary][bench][rtl]") {
    // Every mode must do the work it is timed for: at L = 4, B = 12 (full rate) every cycle sends,
    // and seed 001's model in C++ sends B flits per round trip of 10 with B = 4 (seed 001's 0.400).
    for (const std::string mode : {"verilated", "model", "seed001-cpp"}) {
        const Outcome o = cli("speed --mode " + mode + " --cycles 100000");
        INFO(mode << ": " << o.out << o.err);
        CHECK(o.exit_code == 0);
        CHECK(nlohmann::json::parse(o.out).at("sends") == 100000);
    }
    const Outcome small = cli("speed --mode seed001-cpp --B 4 --cycles 100000");
    INFO(small.out);
    CHECK(nlohmann::json::parse(small.out).at("sends") == 40000);
}

TEST_CASE("mutation --cases gives each stimulus set with the parameters of its link", "[cli][binary][mutation]") {
    const Outcome o = cli("mutation --cases");
    REQUIRE(o.exit_code == 0);
    const auto cases = nlohmann::json::parse(o.out);
    REQUIRE(cases.size() >= 2);
    // Seed 004's loop: L = 2, B = 4, batches of one (seed 004's listing), saturating, drained every cycle.
    const auto& seed004 = cases.at(0);
    CHECK(seed004["name"] == "seed004");
    CHECK(seed004["parameters"]["L"] == 2);
    CHECK(seed004["parameters"]["B"] == 4);
    CHECK(seed004["parameters"]["K"] == 1);
    CHECK(seed004["run_arguments"].get<std::string>().find("--L 2 --B 4 --K 1") == 0);
    // The multi-channel link's sets give credit_link's parameters as its testbench top passes
    // them, tables as one constant with entry 0 in the low bits. channels/tight (written in
    // channel_mutants.cpp): A with 3 credits; B split, 2 header and 5 data credits (batches of
    // 2 on data); C with 2 credits; units 8, 16 and 1 bytes; L = 2, one shared return path.
    const auto tight = std::find_if(cases.begin(), cases.end(), [](const auto& x) { return x["name"] == "channels/tight"; });
    REQUIRE(tight != cases.end());
    const auto& p = (*tight)["parameters"];
    CHECK((*tight)["channels"] == true);
    CHECK(p["NCH"] == 3);
    CHECK(p["NLANE"] == 4);   // B's header and data wait in lanes of their own
    CHECK(p["NPOOL"] == 4);
    CHECK(p["L"] == 2);
    CHECK(p["SHARED_RET"] == 1);
    CHECK(p["MULTI_CREDIT"] == 1);
    CHECK(p["POOL_B"] == "256'h" + std::string(48, '0') + "0002000500020003");
    CHECK(p["POOL_K"] == "256'h" + std::string(48, '0') + "0001000200010001");
    CHECK(p["CH_SPLIT"] == "8'h02");
    CHECK(p["CH_UNIT"] == "128'h" + std::string(20, '0') + "000100100008");
    CHECK(p["CH_LANE"] == "64'h" + std::string(10, '0') + "030100");          // A: lane 0, B: 1 (and 2), C: 3
    CHECK(p["LANE_POOL"] == "128'h" + std::string(24, '0') + "03020100");     // one pool per lane here
    CHECK((*tight)["run_arguments"].get<std::string>().find("--L 2") != std::string::npos);
    // Every set of the link's has a companion under every input a passing run may drive, on the same link.
    for (const auto& c : cases) {
        const std::string name = c["name"];
        if (c["channels"] == true) continue;
        if (name.size() > 7 && name.substr(name.size() - 7) == "_stress") continue;
        const auto stress = std::find_if(cases.begin(), cases.end(), [&](const auto& x) { return x["name"] == name + "_stress"; });
        INFO(name);
        REQUIRE(stress != cases.end());
        CHECK((*stress)["parameters"] == c["parameters"]);
        CHECK((*stress)["run_arguments"].get<std::string>().find("--reverse-load") != std::string::npos);
    }
}

TEST_CASE("mutation --run refuses a bad manifest in one line and writes nothing", "[cli][bad-input][binary][mutation]") {
    const fs::path dir = fs::temp_directory_path() / ("creditloop_manifest_" + std::to_string(::getpid()));
    fs::create_directories(dir / "rtl");
    const fs::path out = dir / "results.json";
    const auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    };
    const std::string rtl = (dir / "rtl").string();
    for (const std::string& manifest :
         {(dir / "missing.json").string(), write("not.json", "{ netlists"), write("empty.json", "{}"),
          write("unknown_set.json", R"({"netlists": [{"name": "n", "rtl": ")" + rtl + R"(", "sets": ["nosuchset"], "mutants": [1]}]})"),
          write("mixed.json", R"({"netlists": [{"name": "n", "rtl": ")" + rtl + R"(", "sets": ["seed004", "random"], "mutants": [1]}]})"),
          write("mixed_kinds.json", R"({"netlists": [{"name": "n", "rtl": ")" + rtl + R"(", "sets": ["seed004", "channels/tight"], "mutants": [1]}]})"),
          write("no_rtl.json", R"({"netlists": [{"name": "n", "rtl": "/nonexistent", "sets": ["seed004"], "mutants": [1]}]})"),
          write("bad_id.json", R"({"netlists": [{"name": "n", "rtl": ")" + rtl + R"(", "sets": ["seed004"], "mutants": [0]}]})")}) {
        const Outcome o = cli("mutation --run " + manifest + " --out " + out.string());
        INFO(manifest << " -> " << o.err);
        CHECK(o.exit_code == 2);
        CHECK(lines(o.err) == 1);
        CHECK(o.err.rfind("creditloop: ", 0) == 0);
        CHECK_FALSE(fs::exists(out));
    }
    const Outcome plusarg = cli("run --plusarg creditloop_mutant=1");
    CHECK(plusarg.exit_code == 2);
    CHECK(plusarg.err.find("starts with '+'") != std::string::npos);
    fs::remove_all(dir);
}
