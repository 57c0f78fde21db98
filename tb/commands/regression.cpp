// `creditloop regress` (regression.h): the tests picked (filter, RERUN=failed, shard), fitted to
// your own RTL when one is given, their configurations built together, then run in parallel with
// each verdict printed in the regression's order; the report is regression_report.cpp's.
#include "regression.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include <unistd.h>

#include "block_swap.h"
#include "channel_library.h"
#include "channels_command.h"
#include "dut_library.h"
#include "interrupt.h"
#include "mutant_patch.h"
#include "own_link.h"
#include "own_mutant.h"
#include "parallel.h"
#include "port_map.h"
#include "progress.h"
#include "regression_detail.h"
#include "report.h"

namespace fs = std::filesystem;

namespace creditloop {

using namespace regression_detail;

namespace {

// The positions of --shard I/N's tests among `count` (all of them without --shard): every Nth
// from the (I-1)th, so a shard's tests spread over the list's kinds and its builds.
std::vector<size_t> shard_indices(size_t count, const RegressCommand& command) {
    std::vector<size_t> out;
    for (size_t k = 0; k < count; ++k)
        if (!command.shards || k % command.shards == static_cast<size_t>(command.shard - 1)) out.push_back(k);
    return out;
}

// "" when a file can be made in `dir` (made if missing), else why not.
std::string check_writable(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return ec.message();
    const fs::path probe = fs::path(dir) / (".creditloop_probe." + std::to_string(::getpid()));
    {
        std::ofstream out(probe);
        if (!(out << "probe")) return std::strerror(errno != 0 ? errno : EACCES);
    }
    fs::remove(probe, ec);
    return {};
}

}  // namespace

int run_regression(const RegressCommand& command, const std::string& program) {
    return run_regression(command, program, regression_cases(command.seed));
}

int run_regression(const RegressCommand& given, const std::string& program, std::vector<RegressionCase> all_cases) {
    RegressCommand command = given;
    if (!command.rerun_failed.empty()) {
        if (const Problem problem = adopt_rtl_options(command, command.rerun_failed)) return refuse(*problem);
    }
    // The systemc/ tests repeat runs of the others under the SystemC harness: a check of the
    // harness, not of the RTL, that builds a harness of its own for each. They run when asked
    // for: --systemc (make sim SYSTEMC=1), a filter that names them, or a rerun of them.
    const bool systemc = command.systemc || command.filter.find("systemc") != std::string::npos || !command.rerun_failed.empty();
    size_t systemc_left = 0;
    std::vector<RegressionCase> cases;
    for (auto& c : all_cases) {
        if (!name_matches(c.name, command.filter)) continue;
        if (c.systemc && !systemc) ++systemc_left;
        else cases.push_back(std::move(c));
    }
    if (cases.empty()) {
        std::cerr << "creditloop regress: no test matches '" << command.filter
                  << "': 'creditloop regress --list' lists them\n";
        return 2;
    }
    if (!command.rerun_failed.empty()) {
        // make sim RERUN=failed: only what did not pass in an earlier run's JUnit file.
        std::set<std::string> wanted;
        if (const Problem problem = tests_to_rerun(command.rerun_failed, command.seed, wanted)) return refuse(*problem);
        std::vector<RegressionCase> kept;
        for (auto& c : cases)
            if (wanted.count(c.name)) kept.push_back(std::move(c));
        if (kept.empty()) {
            std::cout << "creditloop regress: every test in " << command.rerun_failed << " passed; nothing to rerun\n";
            return 0;
        }
        cases = std::move(kept);
        std::cout << "creditloop regress: rerunning the " << cases.size() << " tests that did not pass in "
                  << command.rerun_failed << "\n";
    }
    if (command.list) {
        const auto slice = shard_indices(cases.size(), command);
        for (size_t k : slice) {
            const auto& c = cases[k];
            std::cout << c.name << "  " << (c.channels ? channel_run_arguments(*c.channels) : describe(c.spec)) << "\n";
        }
        return 0;
    }

    // --mutant PATH.mutant: a patch of a file of your map, for every test.
    std::string mutant_map;
    if (!command.mutant.empty()) {
        if (!is_mutant_file(command.mutant)) {
            std::cerr << "creditloop: regress --mutant takes a .mutant patch of a file of your map (PATH.mutant); the "
                         "mutants of rtl/mutants/ run with 'creditloop mutants' (make mutants), one with 'creditloop run "
                         "--mutant "
                      << command.mutant << "'\n";
            return 2;
        }
        if (const Problem problem =
                map_for_mutant(command.mutant, command.counter_file, command.link_map, command.rtl_dir, mutant_map)) return refuse(*problem);
    }
    const auto mutant_of = [&](const std::string& option) { return option == mutant_map ? command.mutant : std::string(); };

    DutSources sources = DutSources::from_environment();
    sources.fst = command.fst;
#ifdef CREDITLOOP_COVERAGE
    // A code-coverage build (make coverage, docs/coverage.md): every run's DUT writes its counts
    // under $CREDITLOOP_COVERAGE_DIR (by default <build>/coverage_data). The SystemC harness is
    // not instrumented, and its cases repeat C++ runs: they are left out.
    const std::string coverage_dir = (fs::path(sources.build_root) / "coverage_data").string();
    setenv("CREDITLOOP_COVERAGE_DIR", coverage_dir.c_str(), 0);
    std::error_code coverage_ec;
    fs::create_directories(std::getenv("CREDITLOOP_COVERAGE_DIR"), coverage_ec);
    cases.erase(std::remove_if(cases.begin(), cases.end(), [](const RegressionCase& c) { return c.systemc; }), cases.end());
#endif
    if (!command.rtl_dir.empty()) {
        std::vector<std::string> warnings;
        const std::string problem = fs::path(command.rtl_dir).extension() == ".json"
                                        ? use_rtl_map(sources, command.rtl_dir, command.werror, warnings, mutant_of("--rtl"))
                                        : use_rtl_directory(sources, command.rtl_dir, command.rtl_options);
        for (const auto& warning : warnings) std::cerr << "creditloop: warning in your RTL: " << warning << "\n";
        if (!problem.empty()) return refuse(problem);
    }
    if (!command.link_map.empty() && (!command.rtl_dir.empty() || !command.counter_file.empty() || !command.return_file.empty())) {
        std::cerr << "creditloop: --link is a whole link of your own: drop --rtl, --counter and --return\n";
        return 2;
    }
    if (!command.link_map.empty()) {
        // A link of your own: the runs its receiver can take, fitted to its return latency.
        MappedLink link;
        const std::string problem = swap_mapped_link(sources, command.link_map, command.werror, link, mutant_of("--link"));
        if (!problem.empty()) return refuse(problem);
        for (const auto& warning : link.warnings) std::cerr << "creditloop: warning in your RTL: " << warning << "\n";
        std::vector<RegressionCase> kept;
        size_t skipped = 0;
        for (auto& c : cases) {
            const bool resets = c.spec.stimulus.reset_every || c.spec.stimulus.reset_tx_at || c.spec.stimulus.reset_rx_at;
            if (c.channels || c.systemc || mapped_link_refuses(c.spec) || (link.synchronous_reset && resets)) {
                ++skipped;
                continue;
            }
            fit_to_mapped_link(c.spec, link);
            c.seed_throughput.reset();   // the seeds' numbers are for their round trip, not this one
            kept.push_back(std::move(c));
        }
        cases = std::move(kept);
        std::cout << "creditloop regress: your link is " << link.sender << " and " << link.receiver << " from "
                  << command.link_map << " (return latency " << link.return_latency << "); " << skipped
                  << " tests that need batches, flushes, policies, faults or the checkout's own RTL are skipped\n";
        if (cases.empty()) {
            std::cerr << "creditloop regress: no selected test fits your link\n";
            return 2;
        }
    }
    bool single_credit_return = false, synchronous_reset = false;
    SwappedBlock counter;   // your counter, when given: which channels/ tests it can take
    for (const auto& [block, file] : {std::pair<std::string, std::string>{"credit_counter.sv", command.counter_file},
                                      {"credit_return.sv", command.return_file}}) {
        if (file.empty()) continue;
        SwappedBlock swapped;
        // The contract's widths are checked at B = 12; the wrapper is generic in B.
        sources.werror = command.werror;
        const std::string problem =
            swap_block(sources, block, file, 12, swapped, block == "credit_counter.sv" ? mutant_of("--counter") : "");
        if (!problem.empty()) return refuse(problem);
        for (const auto& warning : swapped.warnings) std::cerr << "creditloop: warning in your RTL: " << warning << "\n";
        std::cout << "creditloop regress: " << block << " is " << swapped.module << " from " << file << "\n";
        if (block == "credit_counter.sv") counter = swapped;
        single_credit_return = single_credit_return || swapped.single_credit_return;
        synchronous_reset = synchronous_reset || swapped.synchronous_reset;
    }
    if (synchronous_reset) {
        // A reset that acts at a clock edge cannot take the harness's mid-run reset pulses.
        std::vector<std::string> skipped;
        std::vector<RegressionCase> kept;
        for (auto& c : cases) {
            const auto& s = c.spec.stimulus;
            if (!c.channels && (s.reset_every || s.reset_tx_at || s.reset_rx_at)) skipped.push_back(c.name);
            else kept.push_back(std::move(c));
        }
        cases = std::move(kept);
        if (!skipped.empty()) {
            std::cout << "creditloop regress: the counter resets synchronously, so " << skipped.size()
                      << " tests that reset mid-run are skipped:";
            for (const auto& name : skipped) std::cout << " " << name;
            std::cout << "\n";
        }
    }
    if (single_credit_return) {
        // A one-bit credit_return takes one credit per cycle: only K = 1 without flushes or a
        // shared return path fits.
        std::vector<std::string> skipped;
        std::vector<RegressionCase> kept;
        for (auto& c : cases) {
            if (!c.channels && returns_several_at_once(c.spec)) skipped.push_back(c.name);
            else kept.push_back(std::move(c));
        }
        cases = std::move(kept);
        if (!skipped.empty()) {
            std::cout << "creditloop regress: the counter's credit_return is one bit (one credit per cycle), so " << skipped.size()
                      << " tests that return more at once (K > 1, flush, a shared return path, recovery or faults) are skipped:";
            for (const auto& name : skipped) std::cout << " " << name;
            std::cout << "\n";
        }
        if (cases.empty()) {
            std::cerr << "creditloop regress: every selected test returns several credits at once; nothing to run\n";
            return 2;
        }
    }
    if (!mutant_map.empty())
        std::cout << "creditloop regress: " << mutant_replaces(command.mutant) << " is patched by " << command.mutant
                  << " (a mutant: the tests it breaks fail)\n";
    if (!command.rtl_dir.empty() || !command.counter_file.empty() || !command.return_file.empty()) {
        // The SystemC harness verilates the checkout's RTL; your own blocks run under the C++ one.
        // A counter of your own takes every pool's place on the multi-channel link too, in the
        // channels/ tests it can take.
        const bool counter_only = command.rtl_dir.empty() && command.return_file.empty();
        size_t systemc = 0, channels = 0;
        cases.erase(std::remove_if(cases.begin(), cases.end(),
                                   [&](const RegressionCase& c) {
                                       const bool skip = c.systemc || (c.channels && (!counter_only ||
                                                                                      channel_counter_refuses(*c.channels, counter)));
                                       systemc += skip && c.systemc;
                                       channels += skip && !c.systemc;
                                       return skip;
                                   }),
                    cases.end());
        if (systemc || channels)
            std::cout << "creditloop regress: "
                      << (systemc ? std::to_string(systemc) + " systemc/ tests run the checkout's RTL only, and " : std::string())
                      << channels << " channels/ tests "
                      << (counter_only ? "need what your counter cannot take" : "run the checkout's link only") << "; skipped for yours\n";
    } else if (systemc_left && command.link_map.empty()) {
        std::cout << "creditloop regress: " << systemc_left
                  << " systemc/ tests (runs of these repeated under the SystemC harness) are left out: --systemc (make sim "
                     "SYSTEMC=1) adds them\n";
    }
    // A shard (--shard I/N, a cluster's job array): every Nth test of the selection, from the Ith.
    const size_t selected = cases.size();
    const std::vector<size_t> indices = shard_indices(selected, command);
    if (command.shards) {
        std::vector<RegressionCase> slice;
        for (size_t k : indices) slice.push_back(std::move(cases[k]));
        cases = std::move(slice);
        std::cout << "creditloop regress: shard " << command.shard << "/" << command.shards << ": " << cases.size()
                  << " of the " << selected << " selected tests\n";
        if (cases.empty()) std::cout << "creditloop regress: this shard is empty (more shards than tests)\n";
    }
    // Where the results go must take them before any test runs, not after an hour of it.
    for (const auto& [what, dir] : {std::pair<std::string, std::string>{"waves folder", command.waves_dir},
                                    {"JUnit file's folder", fs::path(command.junit).parent_path().string()}}) {
        const std::string problem = check_writable(dir.empty() ? "." : dir);
        if (!problem.empty()) {
            std::cerr << "creditloop regress: cannot write to the " << what << " " << (dir.empty() ? "." : dir) << ": "
                      << problem << ": pick another (" << (what == "waves folder" ? "--waves-dir" : "--junit")
                      << ") or make it writable\n";
            return 2;
        }
    }
    install_interrupt_handlers();

    std::vector<LinkConfig> configs;
    std::vector<ChannelWanted> channel_builds;
    for (const auto& c : cases)
        if (c.channels) channel_builds.push_back({c.channels->config, {}});
    for (const auto& c : cases) {
        if (c.channels) continue;
        bool known = false;
        for (const auto& k : configs) known = known || k == c.spec.config;
        if (!known) configs.push_back(c.spec.config);
    }
    std::cout << "creditloop regress: " << cases.size() << " tests, " << configs.size()
              << " verilated configurations (built together, cached under " << sources.build_root << "/duts)\n"
              << std::flush;
    std::vector<DutBuild> builds;
    for (const auto& config : configs) builds.push_back({config, sources});
    for (const auto& c : cases) {
        if (!c.systemc || c.channels) continue;
        DutBuild sc{c.spec.config, sources};
        sc.sources.systemc = true;
        builds.push_back(sc);
    }
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);   // SystemC's banner
    Progress progress("creditloop regress");
    progress.phase("verilated configurations");
    auto build_errors = build_link_and_channel_duts(builds, command.jobs, channel_builds, sources,
                                                    [&](const std::string& s) { progress.status(s); });
    for (const auto& c : cases) {
        if (!c.systemc || !c.channels || interrupt_requested()) continue;
        std::string error;
        channel_systemc_harness(c.channels->config, sources, error, [&](const std::string& s) { progress.status(s); });
        if (!error.empty()) build_errors.push_back(error);
    }
    // A stop signal ended the builds (process.h: their compilers too): no build failed, and no
    // test runs; every one is reported as not run, and the exit status is 128 + the signal.
    if (interrupt_requested()) {
        progress.finish();
        std::vector<CaseOutcome> outcomes(cases.size());
        for (auto& o : outcomes) {
            o.ending = CaseOutcome::Ending::not_run;
            o.error = "interrupted while building";
        }
        return report_regression(cases, indices, selected, outcomes, command, program);
    }
    if (!build_errors.empty()) {
        progress.finish();
        for (const auto& e : build_errors) std::cerr << "creditloop regress: " << e << "\n";
        return 3;
    }

    std::error_code ec;
    fs::create_directories(command.waves_dir, ec);
    const std::string extension = command.fst ? ".fst" : ".vcd";
    LibraryCache libraries(sources);
    std::vector<CaseOutcome> outcomes(cases.size());
    progress.phase("tests", cases.size());
    // Each test's verdict line is printed in the regression's order, not as tests finish, so the
    // log is the same at any --jobs (a line waits for the tests listed before it): only the
    // progress lines, which tell wall time, differ between two runs.
    std::mutex verdict_mutex;
    std::vector<char> ended(cases.size(), 0);
    size_t next_verdict = 0;
    const auto print_verdicts = [&] {   // under verdict_mutex
        for (; next_verdict < cases.size() && ended[next_verdict]; ++next_verdict) {
            const auto& o = outcomes[next_verdict];
            if (o.ending == CaseOutcome::Ending::not_run) continue;
            progress.print("[" + std::to_string(next_verdict + 1) + "/" + std::to_string(cases.size()) + "] " +
                           (!o.finished() ? "INTERRUPTED " : o.disk_error ? "NO WAVES " : o.passed() ? "pass " : "FAIL ") +
                           cases[next_verdict].name);
        }
    };
    const auto end_case = [&](size_t i) {
        std::lock_guard<std::mutex> lock(verdict_mutex);
        ended[i] = 1;
        print_verdicts();
    };
    // A full disk stops the regression: every later test would fail the same way.
    std::atomic<bool> disk_full{false};
    parallel_for(cases.size(), command.jobs, [&](size_t i) {
        if (interrupt_requested() || disk_full) {
            outcomes[i].ending = CaseOutcome::Ending::not_run;
            end_case(i);
            return;
        }
        CaseOutcome outcome = run_case(cases[i], libraries, command, extension);
        if (outcome.disk_error) disk_full = true;
        progress.advance();
        {
            std::lock_guard<std::mutex> lock(verdict_mutex);
            outcomes[i] = std::move(outcome);
        }
        end_case(i);
    });
    progress.finish();
    return report_regression(cases, indices, selected, outcomes, command, program);
}

}  // namespace creditloop
