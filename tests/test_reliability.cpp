// The tool under faults and at scale: the same command and seed give the same bytes,
// a regression killed half way leaves a valid JUnit file and reruns what did not pass, two
// regressions at once share the cache of verilated configurations, a full disk or an unwritable
// waves folder stops with one line and loses nothing, shards merge back into the unsharded run,
// and the soak's memory check fires on a leak. Each through the real binary, as a user runs it.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "mutant_patch.h"
#include "regression.h"
#include "test_support.h"

namespace fs = std::filesystem;
using creditloop::testing::build_dir;
using creditloop::testing::slurp;
using creditloop::adopt_rtl_options;
using creditloop::RegressCommand;
using creditloop::rtl_arguments;

namespace {

// A scratch folder of this process, removed at the end of the test.
struct Scratch {
    fs::path dir;
    explicit Scratch(const std::string& name)
        : dir(fs::temp_directory_path() / ("creditloop_" + name + "_" + std::to_string(::getpid()))) {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~Scratch() { fs::remove_all(dir); }
    std::string operator/(const std::string& name) const { return (dir / name).string(); }
};

struct Outcome {
    int exit_code;
    std::string out;
    std::string err;
};

// The real CLI under sh (so a test can set ulimits), capturing both streams.
Outcome cli(const std::string& args, const Scratch& scratch, const std::string& prefix = "") {
    const std::string out = scratch / "stdout", err = scratch / "stderr";
    const std::string command = prefix + build_dir() + "/creditloop " + args + " >" + out + " 2>" + err;
    const int status = std::system(("sh -c '" + command + "'").c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

// A test's verdict as the JUnit file gives it: "pass", "failure: <message>", "error: ...", "skipped".
struct Verdict {
    std::string name;
    std::string verdict;
    bool operator==(const Verdict& o) const { return name == o.name && verdict == o.verdict; }
};

std::vector<Verdict> verdicts(const std::string& junit) {
    pugi::xml_document doc;
    REQUIRE(doc.load_file(junit.c_str()));
    std::vector<Verdict> out;
    for (auto test : doc.child("testsuites").child("testsuite").children("testcase")) {
        std::string verdict = "pass";
        if (auto f = test.child("failure")) verdict = std::string("failure: ") + f.attribute("message").as_string();
        if (auto e = test.child("error")) verdict = std::string("error: ") + e.attribute("type").as_string();
        if (test.child("skipped")) verdict = "skipped";
        out.push_back({std::string(test.attribute("classname").as_string()) + "/" + test.attribute("name").as_string(), verdict});
    }
    return out;
}

// The JUnit file less what may differ between two runs of one command: wall times, and the
// folders the two runs were told to write to.
std::string without_times(std::string text, const std::vector<std::string>& folders) {
    text = std::regex_replace(text, std::regex(R"( time="[0-9.e+-]*")"), "");
    for (const auto& f : folders) {
        for (size_t at = text.find(f); at != std::string::npos; at = text.find(f)) text.replace(at, f.size(), "DIR");
    }
    return text;
}

std::vector<fs::path> files_in(const std::string& dir) {
    std::vector<fs::path> out;
    if (fs::is_directory(dir))
        for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename());
    std::sort(out.begin(), out.end());
    return out;
}

// A small slice of the regression: seed tables, random traffic and a multi-channel case.
const char* const kSlice = "*L1_B[12]*";

}  // namespace

TEST_CASE("the same command and seed give the same JUnit, coverage, log and waves at any --jobs", "[rtl][determinism]") {
    Scratch s("determinism");
    const auto run = [&](int jobs, const std::string& tag) {
        const Outcome o = cli(std::string("regress --filter '") + kSlice + "' --waves --seed 7 --jobs " + std::to_string(jobs) +
                                  " --junit " + (s / tag) + "/r.xml --waves-dir " + (s / tag) + "/waves",
                              s);
        REQUIRE(o.exit_code == 0);
        return o;
    };
    const Outcome one = run(1, "one");
    const Outcome two = run(2, "two");
    const std::vector<std::string> folders = {s / "one", s / "two"};
    CHECK(verdicts(s / "one/r.xml").size() >= 6);
    CHECK(without_times(slurp(s / "one/r.xml"), folders) == without_times(slurp(s / "two/r.xml"), folders));
    CHECK(slurp(s / "one/r.coverage.json") == slurp(s / "two/r.coverage.json"));
    // The log: every test's verdict line, in the regression's order at any --jobs, the summary
    // table and its totals; less the progress lines, which tell the wall time (and come every few
    // seconds).
    const auto log = [&](const std::string& out) {
        std::string kept;
        std::istringstream lines(without_times(out, folders));
        for (std::string line; std::getline(lines, line);)
            if (!std::regex_search(line, std::regex(R"(, [0-9:]+ elapsed)"))) kept += line + "\n";
        return kept;
    };
    CHECK(log(one.out).find("[1/") != std::string::npos);
    CHECK(log(one.out) == log(two.out));
    const auto waves = files_in(s / "one/waves");
    REQUIRE(waves == files_in(s / "two/waves"));
    size_t vcds = 0;
    for (const auto& name : waves) {
        if (name.extension() != ".vcd") continue;
        ++vcds;
        INFO(name.string());
        CHECK(slurp(s / ("one/waves/" + name.string())) == slurp(s / ("two/waves/" + name.string())));
    }
    CHECK(vcds == verdicts(s / "one/r.xml").size());
}

TEST_CASE("the C++ and SystemC harnesses give the same JSON, byte for byte but for the harness's name", "[systemc][determinism]") {
    Scratch s("determinism_sc");
    const std::string args = "run --L 4 --B 12 --K 1 --traffic bernoulli:0.7 --drain-stall 0.2 --seed 3 --cycles 4000 --json";
    const Outcome cpp = cli(args, s);
    const Outcome sc = cli(args + " --systemc", s);
    REQUIRE(cpp.exit_code == 0);
    REQUIRE(sc.exit_code == 0);
    REQUIRE(cpp.out.find("\"source\":\"rtl\"") != std::string::npos);
    std::string renamed = sc.out;
    const auto at = renamed.find("\"source\":\"systemc\"");
    REQUIRE(at != std::string::npos);
    renamed.replace(at, std::string("\"source\":\"systemc\"").size(), "\"source\":\"rtl\"");
    CHECK(renamed == cpp.out);
    // And a second C++ run of the same command is the same bytes.
    CHECK(cli(args, s).out == cpp.out);
}

TEST_CASE("shards of a regression merge into the unsharded run's verdicts and coverage", "[rtl][shard]") {
    Scratch s("shards");
    const std::string select = std::string("--filter '") + kSlice + "' --seed 3";
    const Outcome whole = cli("regress " + select + " --junit " + (s / "whole.xml") + " --waves-dir " + (s / "w"), s);
    REQUIRE(whole.exit_code == 0);
    std::string shard_files;
    for (int i = 1; i <= 3; ++i) {
        const std::string junit = s / ("shard" + std::to_string(i) + ".xml");
        const Outcome o = cli("regress " + select + " --shard " + std::to_string(i) + "/3 --junit " + junit +
                                  " --waves-dir " + (s / "w"),
                              s);
        REQUIRE(o.exit_code == 0);
        shard_files += " " + junit;
        // Every third test from the ith: shard i's first test is the whole run's (i-1)th.
        CHECK(verdicts(junit).front() == verdicts(s / "whole.xml")[i - 1]);
    }
    const Outcome merged = cli("merge --junit " + (s / "merged.xml") + shard_files, s);
    REQUIRE(merged.exit_code == 0);
    CHECK(verdicts(s / "merged.xml") == verdicts(s / "whole.xml"));
    CHECK(without_times(slurp(s / "merged.xml"), {"merged", "whole"}) == without_times(slurp(s / "whole.xml"), {"merged", "whole"}));
    CHECK(nlohmann::json::parse(slurp(s / "merged.coverage.json")) == nlohmann::json::parse(slurp(s / "whole.coverage.json")));

    // A shard missing, given twice, or an existing output: one line, exit 2, nothing written.
    const Outcome missing = cli("merge --junit " + (s / "m2.xml") + " " + (s / "shard1.xml") + " " + (s / "shard3.xml"), s);
    CHECK(missing.exit_code == 2);
    CHECK(missing.err.find("shard 2/3 is missing") != std::string::npos);
    CHECK_FALSE(fs::exists(s / "m2.xml"));
    const Outcome twice = cli("merge --junit " + (s / "m3.xml") + shard_files + " " + (s / "shard1.xml"), s);
    CHECK(twice.exit_code == 2);
    CHECK(twice.err.find("given twice") != std::string::npos);
    const Outcome exists = cli("merge --junit " + (s / "merged.xml") + shard_files, s);
    CHECK(exists.exit_code == 2);
    CHECK(exists.err.find("--force") != std::string::npos);
    const Outcome unsharded = cli("merge --junit " + (s / "m4.xml") + " " + (s / "whole.xml"), s);
    CHECK(unsharded.exit_code == 2);
    CHECK(unsharded.err.find("not a shard") != std::string::npos);
}

TEST_CASE("a failing test's verdict survives sharding and merging", "[rtl][shard][mutants]") {
    Scratch s("shards_fail");
    // The checkout's RTL with the counter of rtl/mutants/ that grants one credit too many.
    fs::create_directories(s / "rtl");
    for (const auto& e : fs::directory_iterator(creditloop::testing::source_dir() + "/rtl"))
        if (e.path().extension() == ".sv") fs::copy_file(e.path(), s / ("rtl/" + e.path().filename().string()));
    std::string patch_error;
    const std::string built = creditloop::build_mutant(creditloop::testing::source_dir() + "/rtl/mutants/credit_counter_over_grant.mutant",
                                           creditloop::testing::source_dir() + "/rtl", s / "patched", patch_error);
    REQUIRE(patch_error.empty());
    fs::copy_file(built, s / "rtl/credit_counter.sv", fs::copy_options::overwrite_existing);
    const std::string select = "--filter 'seed001/L1_B[1248]' --rtl " + (s / "rtl");
    const Outcome whole = cli("regress " + select + " --junit " + (s / "whole.xml") + " --waves-dir " + (s / "w"), s);
    INFO(whole.out + whole.err);
    REQUIRE(whole.exit_code == 1);
    size_t failing = 0;
    for (const auto& v : verdicts(s / "whole.xml")) failing += v.verdict.rfind("failure", 0) == 0;
    CHECK(failing > 0);
    std::string shard_files;
    for (int i = 1; i <= 2; ++i) {
        const std::string junit = s / ("shard" + std::to_string(i) + ".xml");
        CHECK(cli("regress " + select + " --shard " + std::to_string(i) + "/2 --junit " + junit + " --waves-dir " + (s / "w"), s)
                  .exit_code == 1);
        shard_files += " " + junit;
    }
    const Outcome merged = cli("merge --junit " + (s / "merged.xml") + shard_files, s);
    CHECK(merged.exit_code == 1);
    CHECK(verdicts(s / "merged.xml") == verdicts(s / "whole.xml"));
}

TEST_CASE("SIGTERM or Ctrl-C in a regression leaves a valid JUnit file, no half-written waves, and a rerun of what did not pass",
          "[rtl][interrupt]") {
    Scratch s("interrupt");
    for (const int signal : {SIGTERM, SIGINT}) {
        INFO("signal " << signal);
        fs::remove_all(s / "waves");
        const std::string junit = s / "r.xml";
        // One job, waves for every test: a test is mid-run, mid-waves, most of the time.
        std::fflush(nullptr);   // nothing buffered twice
        const pid_t child = ::fork();
        if (child == 0) {
            ::setpgid(0, 0);
            const std::string binary = build_dir() + "/creditloop";
            const std::string out = s / "stdout";
            FILE* f = std::freopen(out.c_str(), "w", stdout);
            (void)f;
            ::execl(binary.c_str(), binary.c_str(), "regress", "--filter", "random/*", "--jobs", "1", "--waves", "--junit",
                    junit.c_str(), "--waves-dir", (s / "waves").c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        // Wait for the third test to have finished, then interrupt.
        for (int i = 0; i < 600 && slurp(s / "stdout").find("] pass") == std::string::npos; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        // The progress line goes to stderr on a terminal only; stdout has the build line at least.
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        ::kill(child, signal);
        int status = 0;
        ::waitpid(child, &status, 0);
        REQUIRE(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 128 + signal);

        pugi::xml_document doc;
        REQUIRE(doc.load_file(junit.c_str()));
        const auto suite = doc.child("testsuites").child("testsuite");
        // The RTL it ran on (creditloop's own: no options), for a rerun.
        CHECK(std::string(suite.child("properties").find_child_by_attribute("property", "name", "rtl.arguments")
                              .attribute("value").as_string()) == "[]");
        const auto all = verdicts(junit);
        size_t passed = 0, interrupted = 0, skipped = 0;
        for (const auto& v : all) {
            passed += v.verdict == "pass";
            interrupted += v.verdict == "error: interrupted";
            skipped += v.verdict == "skipped";
        }
        CHECK(passed + interrupted + skipped == all.size());
        CHECK(interrupted + skipped > 0);
        CHECK(suite.attribute("errors").as_ullong() == interrupted);
        CHECK(suite.attribute("skipped").as_ullong() == skipped);
        CHECK(suite.attribute("tests").as_ullong() == all.size());
        // Waves: one complete file per finished test, no part of an interrupted one.
        size_t vcds = 0;
        for (const auto& name : files_in(s / "waves")) {
            CHECK(name.extension() != ".part");
            vcds += name.extension() == ".vcd";
        }
        CHECK(vcds == passed);

        // The rerun runs exactly what did not pass, and passes.
        const Outcome rerun = cli("regress --rerun-failed " + junit + " --junit " + (s / "rerun.xml") + " --waves-dir " + (s / "w2"), s);
        CHECK(rerun.exit_code == 0);
        CHECK(verdicts(s / "rerun.xml").size() == interrupted + skipped);
        // From a file of another seed: refused, one line.
        const Outcome other = cli("regress --seed 9 --rerun-failed " + junit + " --junit " + (s / "x.xml"), s);
        CHECK(other.exit_code == 2);
        CHECK(other.err.find("SEED=1") != std::string::npos);
    }
}

TEST_CASE("a failing run leaves waves around its first violation and a rerun line that replays it", "[rtl][waves][reliability]") {
    Scratch s("run_evidence");
    const std::string here = "cd " + s.dir.string() + " && ";
    const Outcome failed = cli("run --mutant credit_counter_ifelse_leak --L 2 --B 4 --cycles 2000", s, here);
    CHECK(failed.exit_code == 1);
    // The counter drops a credit at the edge ending cycle 6 (the README's transcript): found in
    // cycle 7, so the window starts at cycle 0 (200 cycles before, clamped).
    const std::string first = "first violation (the one that matters): cycle 7: conservation.total";
    CHECK(failed.out.find(first) != std::string::npos);
    CHECK(failed.out.find("waves: gtkwave waves/run_L2_B4_K1_W32_seed1.vcd waves/run_L2_B4_K1_W32_seed1.gtkw   (cycles 0 on)") !=
          std::string::npos);
    CHECK(fs::file_size(s.dir / "waves" / "run_L2_B4_K1_W32_seed1.vcd") > 0);
    CHECK(fs::exists(s.dir / "waves" / "run_L2_B4_K1_W32_seed1.gtkw"));
    // The rerun line, run as printed from the same folder: the same first violation.
    const auto at = failed.out.find("rerun: ");
    REQUIRE(at != std::string::npos);
    const std::string rerun = failed.out.substr(at + 7, failed.out.find('\n', at) - at - 7);
    CHECK(rerun.find(" --mutant credit_counter_ifelse_leak") != std::string::npos);
    const std::string out = s / "rerun.out";
    const int status = std::system(("sh -c '" + here + rerun + " >" + out + " 2>/dev/null'").c_str());
    CHECK(WEXITSTATUS(status) == 1);
    CHECK(slurp(out).find(first) != std::string::npos);
}

TEST_CASE("a rerun of what did not pass runs on the RTL of the run it reruns", "[fast][reliability]") {
    Scratch s("rerun_rtl");
    const std::string junit = s / "results.xml";
    std::ofstream(junit) << R"(<?xml version="1.0" encoding="UTF-8"?><testsuites><testsuite name="creditloop.sim"><properties>)"
                            R"(<property name="seed" value="1"/>)"
                            R"(<property name="rtl.arguments" value='["--link","my link.map.json","--mutant","leak.mutant"]'/>)"
                            R"(</properties></testsuite></testsuites>)";
    // None given: that run's, a path with a space kept whole.
    RegressCommand none;
    CHECK_FALSE(adopt_rtl_options(none, junit));
    CHECK(none.link_map == "my link.map.json");
    CHECK(none.mutant == "leak.mutant");
    CHECK(rtl_arguments(none) == std::vector<std::string>{"--link", "my link.map.json", "--mutant", "leak.mutant"});
    // The same given: nothing to say.
    RegressCommand same;
    same.link_map = "my link.map.json";
    same.mutant = "leak.mutant";
    CHECK_FALSE(adopt_rtl_options(same, junit));
    // Others given: refused, naming both.
    RegressCommand other;
    other.counter_file = "c.json";
    CHECK(adopt_rtl_options(other, junit) ==
          junit + " was run on --link my link.map.json --mutant leak.mutant, not --counter c.json: rerun with the same RTL "
                  "options, or with none to take that run's");
    CHECK(other.link_map.empty());
}

TEST_CASE("two regressions at once share the cache of verilated configurations", "[rtl][concurrent]") {
    Scratch s("concurrent");
    // A cache of their own, empty: both find nothing and race to build the same bank.
    const std::string root = s / "build";
    fs::create_directories(root);
    fs::create_symlink(build_dir() + "/libcreditloop_vlrt.so", root + "/libcreditloop_vlrt.so");
    const std::string env = "CREDITLOOP_BUILD=" + root + " ";
    const std::string select = "regress --filter 'seed001/L1_B[12]' --waves-dir " + (s / "waves");
    const auto start = [&](const std::string& tag) {
        return std::thread([&, tag] {
            const std::string command = env + build_dir() + "/creditloop " + select + " --junit " + (s / tag) + ".xml >" +
                                        (s / tag) + ".out 2>&1";
            const int status = std::system(command.c_str());
            std::ofstream(s / tag + ".status") << (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        });
    };
    std::thread a = start("a"), b = start("b");
    a.join();
    b.join();
    INFO(slurp(s / "a.out") + slurp(s / "b.out"));
    CHECK(slurp(s / "a.status") == "0");
    CHECK(slurp(s / "b.status") == "0");
    CHECK(verdicts(s / "a.xml") == verdicts(s / "b.xml"));
    CHECK(verdicts(s / "a.xml").size() == 2);
    // One bank built, not two.
    size_t banks = 0;
    for (const auto& e : fs::directory_iterator(root + "/duts")) banks += e.path().filename().string().rfind("bank_", 0) == 0;
    CHECK(banks == 1);
}

TEST_CASE("an unwritable waves folder or a full disk gives one clear line and keeps what was written", "[rtl][bad-input][disk]") {
    Scratch s("disk");
    std::ofstream(s / "file") << "a file, not a folder";
    // The waves folder cannot be made (root may write anywhere, so a file stands in its way).
    const Outcome blocked = cli("regress --filter 'seed001/L1_B1' --junit " + (s / "r.xml") + " --waves-dir " + (s / "file/waves"), s);
    CHECK(blocked.exit_code == 2);
    CHECK(blocked.err.find("cannot write to the waves folder") != std::string::npos);
    CHECK(std::count(blocked.err.begin(), blocked.err.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(s / "r.xml"));

    // A disk that fills up under the waves: a file-size limit of 64 KiB stands in for it (the
    // first waves file outgrows it). The last complete JUnit file stays; no part file is left.
    std::ofstream(s / "r.xml") << "<testsuites/>";   // the earlier run's results
    const Outcome full = cli("regress --filter \"seed001/L1_*\" --waves --jobs 1 --junit " + (s / "r.xml") + " --waves-dir " +
                                 (s / "waves"),
                             s, "ulimit -f 64; trap \"\" XFSZ; ");
    CHECK(full.exit_code == 3);
    CHECK(full.err.find("File too large") != std::string::npos);
    CHECK(std::count(full.err.begin(), full.err.end(), '\n') == 1);
    for (const auto& name : files_in(s / "waves")) CHECK(name.extension() != ".part");
    // The JUnit file is whole: the test whose waves failed is an error of type io, the rest not run.
    const auto all = verdicts(s / "r.xml");
    REQUIRE(all.size() == 10);
    CHECK(all.front().verdict == "error: io");
    for (size_t i = 1; i < all.size(); ++i) CHECK(all[i].verdict == "skipped");
}

TEST_CASE("Ctrl-C stops a run mid-loop: the soak says interrupted and exits 130", "[rtl][soak][interrupt]") {
    Scratch s("soak_interrupt");
    std::fflush(nullptr);
    const pid_t child = ::fork();
    if (child == 0) {
        const std::string binary = build_dir() + "/creditloop";
        FILE* f = std::freopen((s / "stdout").c_str(), "w", stdout);
        FILE* g = std::freopen((s / "stderr").c_str(), "w", stderr);
        (void)f;
        (void)g;
        ::execl(binary.c_str(), binary.c_str(), "soak", "--cycles", "1000000000", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    // Running once it has said what it runs (after building its plugin, the first time).
    for (int i = 0; i < 1200 && slurp(s / "stderr").find("soak: L") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const auto start = std::chrono::steady_clock::now();
    ::kill(child, SIGINT);
    int status = 0;
    ::waitpid(child, &status, 0);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));   // not the whole 10^9 cycles
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 130);
    CHECK(slurp(s / "stdout").find("soak: interrupted") != std::string::npos);
}

TEST_CASE("the soak samples memory, reports its rate, and its flatness check fires on a leak", "[rtl][soak]") {
    Scratch s("soak");
    const Outcome ok = cli("soak --cycles 3000000 --reset-every 100000 --json", s);
    REQUIRE(ok.exit_code == 0);
    const auto report = nlohmann::json::parse(ok.out);
    CHECK(report["cycles"] == 3000000);
    CHECK(report["passed"] == true);
    CHECK(report["flat"] == true);
    CHECK(report["cycles_per_second"].get<double>() > 0);
    CHECK(report["resident_end_kib"].get<long>() - report["resident_start_kib"].get<long>() <= 1024);
    // 4 MiB held at each of the eight samples: 28 MiB more at the end than at the start.
    const Outcome leak = cli("soak --cycles 3000000 --reset-every 100000 --json --inject-leak-kib 4096", s);
    CHECK(leak.exit_code == 1);
    const auto leaked = nlohmann::json::parse(leak.out);
    CHECK(leaked["flat"] == false);
    CHECK(leaked["resident_end_kib"].get<long>() - leaked["resident_start_kib"].get<long>() >= 20 * 1024);
}
