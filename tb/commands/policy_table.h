// creditloop policies: seed 000's trade between forward throughput and return-path messages, for
// each return policy at several loads of reverse traffic on a shared return path. The golden
// model gives every number; the RTL runs the same points in lockstep (any disagreement fails).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "link_run.h"
#include "parse_error.h"

namespace creditloop {

struct PolicyTableSpec {
    int stages = 4;              // L (seed 000: RTT = 10)
    int buffer_slots = 12;       // B
    int batch = 8;               // K of the batching policies
    int flush_timeout = 4;       // the timeout rows' TIMEOUT
    int low_credits = -1;        // hybrid's LOW (-1: K)
    int idle_cycles = kDefaultIdleCycles;
    std::vector<double> loads = {0.0, 0.5, 0.9};
    uint64_t cycles = 100000;
    uint64_t seed = 1;
    bool rtl = true;             // cross-check every point on the RTL
    int jobs = 2;
};

struct PolicyRow {
    std::string name;            // "each", "batch K = 8", "hybrid ...", ...
    LinkConfig config;
    std::vector<RunResult> results;   // one per load
};

// The rows of the table: each, batch K, batch K with the timeout, hybrid, hybrid with the timeout.
std::vector<PolicyRow> policy_rows(const PolicyTableSpec& spec);
// The run of one row at one load.
RunSpec policy_run_spec(const PolicyTableSpec& spec, const LinkConfig& config, double load);
// The table as Markdown, with the command that produced it.
std::string policy_table_markdown(const PolicyTableSpec& spec, const std::vector<PolicyRow>& rows,
                                  const std::string& command);

// args exclude "creditloop policies". nullopt with `error` on bad input or --help.
std::optional<PolicyTableSpec> parse_policy_table(const std::vector<std::string>& args, ParseError& error);

int run_policy_table(const std::vector<std::string>& args, const std::string& program);
int run_policy_table(const std::vector<std::string>& args, const std::string& program, std::ostream& out,
                     std::ostream& err);

}  // namespace creditloop
