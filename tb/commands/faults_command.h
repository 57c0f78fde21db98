// `creditloop faults`: throughput and recovery against the drop rate of credit messages and the
// update period T, with and without recovery, each row against its closed form (docs/recovery.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "link_run.h"
#include "parse_error.h"

namespace creditloop {

// What a run did with its lost messages: with recovery, each outage (a lost message and any lost
// right after it) ends when an update is next delivered; it must end within T per message lost.
struct RecoveryTally {
    uint64_t outages = 0;
    uint64_t longest = 0;          // cycles from the first loss of an outage to the delivery that ends it
    uint64_t longest_chain = 0;    // the most messages lost in one outage
    bool within_bound = true;      // every outage ended within T x (messages lost in it)
    uint64_t credits_dropped = 0;  // credits the dropped messages carried
};

// Runs `spec` on `dut` (nullptr: the model) and tallies its outages as it goes.
RunResult run_with_tally(LinkDut* dut, const RunSpec& spec, RecoveryTally& tally);

// `creditloop faults`'s options, read and checked (the defaults are the table the docs show).
struct FaultsCommand {
    std::vector<double> rates = {0.0, 0.001, 0.01, 0.1};
    std::vector<int> periods = {16, 64, 256};
    int stages = 4, slots = 4;
    uint64_t cycles = 20000, seed = 1;
    std::string traffic = "bursts:10:30";
    TrafficSpec pattern;             // traffic, parsed
    bool model_only = false;
};
// args exclude "creditloop faults". nullopt with `error` on bad input or --help (parse_failed()).
std::optional<FaultsCommand> parse_faults(const std::vector<std::string>& args, ParseError& error);

int run_faults(const std::vector<std::string>& args);

}  // namespace creditloop
