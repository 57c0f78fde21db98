// Every input a fuzz target (fuzz/, docs/fuzzing.md) found that crashed a parser or broke its
// promise, fed to the parser again: each must now be refused with the clear error it should have
// given. The inputs are kept under fuzz/regressions/<target>/, which scripts/fuzz.sh replays
// before it fuzzes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "block_swap.h"
#include "channel_config.h"
#include "channels_command.h"
#include "coverage_report.h"
#include "dut_bank.h"
#include "dut_library.h"
#include "gtkw_command.h"
#include "merge.h"
#include "mutants.h"
#include "mutation.h"
#include "port_map.h"
#include "test_support.h"

using namespace creditloop;

namespace {

// An input kept under fuzz/regressions/<target>/.
std::string regression(const std::string& target, const std::string& name) {
    const std::string path = creditloop::testing::source_dir() + "/fuzz/regressions/" + target + "/" + name;
    const std::string text = creditloop::testing::slurp(path);
    REQUIRE_FALSE(text.empty());   // the file is there
    return text;
}

// A command line kept as fuzz_cli takes it: the subcommand, then one argument a line.
std::vector<std::string> command_line(const std::string& name) {
    std::vector<std::string> words;
    std::istringstream lines(regression("cli", name));
    for (std::string line; std::getline(lines, line);) words.push_back(line);
    return words;
}

// A port map regression: its first line names the option ("counter"), the rest is the map.
std::string map_error(const std::string& name, const std::string& base) {
    const std::string text = regression("port_map", name);
    const auto newline = text.find('\n');
    const std::string option = text.substr(0, newline);
    const MapKind kind = option == "link" ? MapKind::link : option == "rtl" ? MapKind::rtl : MapKind::counter;
    return check_map_text(kind, text.substr(newline + 1), creditloop::testing::source_dir() + "/" + base, "--" + option + " m.json");
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The harness's build tree pointed at an empty directory while alive: a run that got past its
// checks by mistake stops at "libcreditloop_vlrt.so not found" instead of verilating.
struct NoBuildTree {
    std::string saved;
    bool had = false;
    NoBuildTree() {
        if (const char* b = std::getenv("CREDITLOOP_BUILD")) saved = b, had = true;
        setenv("CREDITLOOP_BUILD", (std::filesystem::temp_directory_path() / "creditloop_no_build_tree").c_str(), 1);
    }
    ~NoBuildTree() {
        if (had) setenv("CREDITLOOP_BUILD", saved.c_str(), 1);
        else unsetenv("CREDITLOOP_BUILD");
    }
};

}  // namespace

TEST_CASE("a channel file's number beyond an int is refused, not cast", "[fast][fuzz][bad-input][channels]") {
    // nlohmann's get<int>() cast a float to int: undefined behaviour, caught by UBSan.
    ChannelLinkConfig config;
    CHECK(parse_channel_description(regression("channel_file", "L_beyond_int.json"), "link.json", config) ==
          "--channels link.json: L = 1.111111111111111e+25: a whole number of stages (1..1024)");
    CHECK(parse_channel_description(regression("channel_file", "bytes_beyond_int.json"), "link.json", config) ==
          "--channels link.json: bytes = [1,1e+300]: [MIN, MAX] in whole bytes");
    // A large integer is refused too, where it used to wrap to a small one (2^32 + 1 became L = 1).
    CHECK(parse_channel_description(R"({"L": 4294967297, "channels": [{"name": "A"}]})", "link.json", config) ==
          "--channels link.json: L = 4294967297: a whole number of stages (1..1024)");
    CHECK(parse_channel_description(R"({"L": 3, "channels": [{"name": "A", "credits": 4, "bytes": [1, 4]}]})", "link.json",
                                    config) == std::nullopt);
    CHECK(config.stages == 3);
}

TEST_CASE("a port map's number beyond a long is refused, not cast", "[fast][fuzz][bad-input][own-rtl]") {
    // ties and return_latency went through get<long>() / value<int>(): a float cast (undefined
    // behaviour) and a large integer wrapped (2^32 + 1 became a latency of 1, which passed).
    CHECK(map_error("tie_beyond_long", "examples/own_rtl/vr_counter") == "--counter m.json: ties: scan: give a whole number or an expression of B (\"B\", \"B-1\"), not 1e+300");
    CHECK(map_error("latency_beyond_int", "examples/own_rtl/link") == "--link m.json: return_latency must be 0..64 cycles");
}

TEST_CASE("a path too long for the system is refused in one line, not thrown", "[fast][fuzz][bad-input]") {
    // std::filesystem's throwing forms end the program on ENAMETOOLONG (a name over 255 bytes):
    // terminate, exit 134, instead of one line and exit 2.
    const std::string long_name(300, 'a');
    CHECK(contains(map_error("file_name_too_long", "examples/own_rtl/vr_counter"), ": RTL file "));
    CHECK(contains(map_error("file_name_too_long", "examples/own_rtl/vr_counter"), " not found"));
    CHECK(contains(check_mutation_manifest(regression("mutation_manifest", "rtl_name_too_long.json"), "m.json", 1).value_or(""),
                   "m.json: netlist x has no \"rtl\" directory"));
    CHECK(run_gtkw({"--waves", long_name + ".vcd", "--scope", "top"}) == 2);
    DutSources sources = DutSources::from_environment();
    SwappedBlock swapped;
    CHECK(swap_block(sources, "credit_counter.sv", long_name + ".sv", 12, swapped) ==
          long_name + ".sv not found: give the path of your .sv file");
    {
        const NoBuildTree guard;
        ParseError error;
        const auto cmd = parse_channel_run({"--preset", "chi", "--waves", long_name + ".vcd"}, error);
        REQUIRE(cmd);
        CHECK(run_channel_command(*cmd) == 2);
    }
    const testing::CliOutcome link_run = testing::run_creditloop("run --waves " + long_name + ".vcd");   // the link's run too
    CHECK(link_run.exit_code == 2);
    CHECK(link_run.err.rfind("creditloop: --waves " + long_name + ".vcd: ", 0) == 0);
    CHECK(std::count(link_run.err.begin(), link_run.err.end(), '\n') == 1);
    // A mutant whose manifest line names a file too long to look for: one error line for it.
    const std::filesystem::path root = std::filesystem::temp_directory_path() / ("creditloop_fuzz_mutants_" + std::to_string(::getpid()));
    std::filesystem::create_directories(root / "rtl" / "mutants");
    std::ofstream(root / "rtl" / "mutants" / "long.mutant") << "// creditloop-mutant: replaces=" << long_name << ".sv\n- x\n";
    std::vector<std::string> errors;
    CHECK(find_mutants(root.string(), errors).empty());
    CHECK(errors.size() == 1);
    std::filesystem::remove_all(root);
}

TEST_CASE("a channel name that would break the rerun line is refused", "[fast][fuzz][bad-input][channels]") {
    // fuzz_cli: a name with bytes a shell word cannot hold printed a rerun line (--channel
    // name=...) that parsed as another link, or not at all.
    std::vector<std::string> args = command_line("channel_name_breaks_rerun");
    REQUIRE(args.front() == "run");
    args.erase(args.begin());
    ParseError error;
    CHECK_FALSE(parse_channel_run(args, error));
    CHECK(error.message.rfind("channel name 'VL\\x", 0) == 0);
    CHECK(contains(error.message, "': use letters, digits and _ (it is part of the rerun line)"));
    CHECK_FALSE(parse_channel_run({"--channel", "name=A B,credits=4"}, error));
    CHECK(error.message == "channel name 'A B': use letters, digits and _ (it is part of the rerun line)");
    CHECK(parse_channel_run({"--channel", "name=REQ_0,credits=4"}, error));
}

TEST_CASE("module names with $ are renamed and a long run of blanks does not overflow the stack", "[fast][fuzz][dut]") {
    // fuzz_rtl_text: a name with $ in it ("autom$t") was never renamed (the regex alternative read
    // $ as an anchor), so two RTL variants in one bank would have clashed; `module` followed by
    // 60,000 blanks overflowed libstdc++'s recursive regex matcher (a crash, not an error).
    CHECK(modules_declared_in("module a$b (); endmodule\nmacromodule static c; endmodule") ==
          std::vector<std::string>{"a$b", "c"});
    CHECK(rename_modules("module a$b (); a$b u(); a$bc v(); xa$b w(); endmodule", {"a$b"}, "_v1") ==
          "module a$b_v1 (); a$b_v1 u(); a$bc v(); xa$b w(); endmodule");
    // Strings (a message, a `line directive's file) and comments keep the name as written: the
    // design's own messages and file names reach the user unchanged.
    CHECK(rename_modules("`line 3 \"rtl/a$b.sv\" 1\nmodule a$b; initial $error(\"a$b: \\\"a$b\\\" full\"); endmodule // a$b\n"
                         "/* a$b */ a$b x();",
                         {"a$b"}, "_v1") ==
          "`line 3 \"rtl/a$b.sv\" 1\nmodule a$b_v1; initial $error(\"a$b: \\\"a$b\\\" full\"); endmodule // a$b\n"
          "/* a$b */ a$b_v1 x();");
    CHECK(rename_modules("a$b \"unterminated a$b", {"a$b"}, "_v1") == "a$b_v1 \"unterminated a$b");
    CHECK(rename_modules("a$b /* open a$b", {"a$b"}, "_v1") == "a$b_v1 /* open a$b");
    CHECK(modules_declared_in("module" + std::string(60000, ' ') + "deep_blanks;\nendmodule\n") ==
          std::vector<std::string>{"deep_blanks"});
    for (const char* name : {"dollar_in_module_name.sv", "module_then_60k_blanks.sv"}) {
        INFO(name);
        const std::string text = regression("rtl_text", name);
        const auto modules = modules_declared_in(text);
        REQUIRE_FALSE(modules.empty());
        const auto renamed = modules_declared_in(rename_modules(text, modules, "_v1"));
        CHECK(renamed.size() == modules.size());
        for (const auto& m : renamed) CHECK((m.size() > 3 && m.compare(m.size() - 3, 3, "_v1") == 0));
    }
    CHECK(modules_declared_in(regression("rtl_text", "module_then_60k_blanks.sv")) == std::vector<std::string>{"deep_blanks"});
}

namespace {

// The two shards of fuzz/corpus/junit/two_shards (seed 000's K = 1, 2, 4 as --shard 1/2 and 2/2),
// each line of `edits` applied to both as (text, replacement), written with their coverage JSON
// beside them; then creditloop merge's verdict.
int merge_with(const std::vector<std::pair<std::string, std::string>>& edits) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("creditloop_merge_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string both = creditloop::testing::slurp(creditloop::testing::source_dir() + "/fuzz/corpus/junit/two_shards");
    const size_t cut = both.find("%%\n");
    REQUIRE(cut != std::string::npos);
    MergeCommand merge{(dir / "merged.xml").string(), {}, true};
    int k = 0;
    for (std::string shard : {both.substr(0, cut), both.substr(cut + 3)}) {
        for (const auto& [from, to] : edits)
            for (size_t at = shard.find(from); at != std::string::npos; at = shard.find(from, at + to.size()))
                shard.replace(at, from.size(), to);
        const std::string path = (dir / ("shard_" + std::to_string(++k) + ".xml")).string();
        std::ofstream(path) << shard;
        REQUIRE(write_coverage_json(coverage_json_path(path), CoverageTally{}));
        merge.shards.push_back(path);
    }
    const int verdict = run_merge(merge);
    std::filesystem::remove_all(dir);
    return verdict;
}

}  // namespace

TEST_CASE("merge refuses a shard's numbers and names it did not write, in one line, without throwing", "[fast][fuzz][bad-input][shard]") {
    // std::stoul threw on an index that is no number (the program ended, exit 134), a tests.total
    // beyond a long threw too and a large one was allocated before anything was checked; sscanf
    // read "1/2x" as shard 1/2; coverage.file could name any file on the machine.
    CHECK(merge_with({}) == 0);
    CHECK(merge_with({{R"(name="index" value="2")", R"(name="index" value="two")"}}) == 2);
    CHECK(merge_with({{R"(name="tests.total" value="3")", R"(name="tests.total" value="99999999999999999999")"}}) == 2);
    CHECK(merge_with({{R"(name="tests.total" value="3")", R"(name="tests.total" value="3000000000")"}}) == 2);
    CHECK(merge_with({{R"(name="tests.total" value="3")", R"(name="tests.total" value="4")"}}) == 2);
    CHECK(merge_with({{R"(value="1/2")", R"(value="1/2x")"}}) == 2);
    CHECK(merge_with({{"shard_1.coverage.json", "../shard_1.coverage.json"}}) == 2);
}

TEST_CASE("a coverage count that is no whole number is refused, not cast", "[fast][fuzz][bad-input][coverage]") {
    // fuzz_coverage_json: get<uint64_t>() cast a count of 8.9e80 (UBSan: outside the range of
    // unsigned long), and a negative count wrapped to a huge one.
    std::string error;
    CHECK_FALSE(parse_coverage_json(regression("coverage_json", "count_beyond_uint64.json"), "c.json", error));
    CHECK(error == "c.json: bin 'channels.recovery_resend' has count 8.888888888888889e+80: a whole number >= 0");
    CHECK_FALSE(parse_coverage_json(R"({"bins": [{"name": "credits.zero", "count": -1}]})", "c.json", error));
    CHECK(error == "c.json: bin 'credits.zero' has count -1: a whole number >= 0");
    CHECK_FALSE(parse_coverage_json(R"({"runs": 2.5, "bins": []})", "c.json", error));
    CHECK(error == "c.json: runs is 2.5: a whole number >= 0");
    const auto read = parse_coverage_json(R"({"runs": 3, "bins": [{"name": "credits.zero", "count": 7}]})", "c.json", error);
    REQUIRE(read);
    CHECK(read->runs() == 3);
}
