// The regression behind `make sim`: every configuration the seeds print, on the RTL, plus seeded
// random traffic and drain over a matrix of (L, B, K).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli.h"
#include "dut_library.h"
#include "channel_run.h"
#include "link_run.h"

namespace creditloop {

struct RegressionCase {
    std::string name;                          // "seed001/L4_B10", "random/L3_B7_K3_bursts"
    RunSpec spec;
    std::optional<std::string> seed_throughput; // what the seed prints for it ("0.223")
    bool systemc = false;                      // also under the SystemC harness: same JSON, field for field
    std::optional<ChannelRunSpec> channels;    // a multi-channel case (channels/...): spec is unused
    // A run that must be caught (faults without recovery): it passes when it fails with every
    // one of these checks, the RTL still in lockstep with the model and no RTL assertion.
    std::vector<std::string> expect_caught;
};

// What the random matrix never builds or does (docs/coverage.md): a synchroniser and a late
// free, the batch policy's timeout, the hybrid with LOW = B, one-sided resets (must be caught).
std::vector<RegressionCase> corner_cases(uint64_t seed);
// Faults on the return path (docs/recovery.md): runs with recovery that must pass, and runs
// without it that must be caught.
std::vector<RegressionCase> fault_cases(uint64_t seed);
// The multi-channel cases: the seeds' systems (chi, pcie, ib) and a random matrix of channel
// counts, pool sizes, batches, credit units and packet sizes, seeded from `seed`.
std::vector<RegressionCase> channel_cases(uint64_t seed);

// Every case, the random ones seeded from `seed`.
std::vector<RegressionCase> regression_cases(uint64_t seed);
// Glob (* and ?) when the pattern has one, else substring; empty matches all.
bool name_matches(const std::string& name, const std::string& pattern);

// Runs `c` under the SystemC harness (built on demand) and compares its JSON with `cpp`, the C++
// harness's result of the same run: nothing when they agree field for field, else what differs.
Problem systemc_disagreement(const RegressionCase& c, const RunResult& cpp, const DutSources& sources);
// The same for a multi-channel run (the channel SystemC harness, channel_json).
Problem channel_systemc_disagreement(const ChannelRunSpec& spec, const ChannelRunResult& cpp, const DutSources& sources);

// The tests an earlier JUnit file of `creditloop regress` says did not pass (failed, interrupted,
// not run), by name, into `tests`; the problem when none can be read (a missing file, another seed).
Problem tests_to_rerun(const std::string& junit, uint64_t seed, std::set<std::string>& tests);

// RERUN=failed on the same RTL: an earlier JUnit file's RTL options (its rtl.arguments property)
// taken into `command` when it gives none; the problem, if it cannot be (it gives different ones).
Problem adopt_rtl_options(RegressCommand& command, const std::string& junit);

// Runs `make sim`'s regression; returns the exit code (0 all passed, 1 a test failed, 2 bad
// input, 3 a configuration would not build).
int run_regression(const RegressCommand& command, const std::string& program);
// The same over a given list of cases (tests use it to run a case that must fail).
int run_regression(const RegressCommand& command, const std::string& program,
                   std::vector<RegressionCase> cases);

}  // namespace creditloop
