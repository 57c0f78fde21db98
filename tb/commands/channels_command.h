// The multi-channel link on the command line (docs/channels.md):
//   creditloop run --preset chi|pcie|ib [--channel ...]   one checked run, per-channel report
//   creditloop hol [options]                              the head-of-line table
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "block_swap.h"
#include "channel_library.h"
#include "channel_run.h"
#include "parse_error.h"
#include "run_output.h"

namespace creditloop {

struct DutSources;

struct ChannelRunCommand : RunOutput {
    ChannelRunSpec spec;
    std::string mutant;             // a mutant of rtl/mutants/channels/, applied to its block
    std::string rtl_dir;            // your own credit_link (and blocks) instead of rtl/*.sv
    std::string counter_file;       // your own counter (a map or seed 002's .sv) in every pool's place
};

// Why the counter `swapped` (a one-credit take, a one-bit return, a synchronous reset) cannot run
// `spec` on the multi-channel link, in one line naming the pool or option; nullopt when it can.
std::optional<std::string> channel_counter_refuses(const ChannelRunSpec& spec, const SwappedBlock& swapped);

// True when `args` (run's arguments) describe a multi-channel run (--preset or --channel).
bool is_channel_run(const std::vector<std::string>& args);
std::optional<ChannelRunCommand> parse_channel_run(const std::vector<std::string>& args, ParseError& error);
// Read a JSON description of the link (--channels FILE) over `config`; the problem, if any.
Problem read_channel_description(const std::string& path, ChannelLinkConfig& config);
// The same from the file's text (`path` names it in the errors): reads nothing, runs nothing.
Problem parse_channel_description(const std::string& json_text, const std::string& path, ChannelLinkConfig& config);
// The `creditloop run ...` arguments that reproduce `spec` exactly.
std::string channel_run_arguments(const ChannelRunSpec& spec);
// Why `cmd` cannot run under SystemC (it takes the checkout's RTL, no waves, no mutant), if so.
std::optional<std::string> channel_systemc_refuses(const ChannelRunCommand& cmd);
// The argv that runs `spec` on the SystemC harness `harness` (add --json for the JSON).
std::vector<std::string> channel_systemc_command(const std::string& harness, const ChannelRunSpec& spec);
int run_channel_command(const ChannelRunCommand& cmd, const std::string& program = "creditloop");

// A human summary of a channel run: per channel and per pool, every scoreboard, the verdict.
std::string channel_summary(const ChannelRunSpec& spec, const ChannelRunResult& result);
// The same as JSON (nlohmann), one object.
std::string channel_json(const ChannelRunSpec& spec, const ChannelRunResult& result);

// `creditloop hol`'s options: one setup per position of the three lists.
struct HolCommand {
    std::vector<int> channel_counts = {4, 4, 3, 2};
    std::vector<int> credit_counts = {4, 2, 8, 3};
    std::vector<int> stage_counts = {4, 4, 2, 4};
    uint64_t cycles = 6000, seed = 1;
    bool model_only = false;
};
// args exclude "creditloop hol". nullopt with `error` on bad input or --help (parse_failed()).
std::optional<HolCommand> parse_hol(const std::vector<std::string>& args, ParseError& error);

// `creditloop hol`: returns the exit code.
int run_hol(const std::vector<std::string>& args);

// One row of the head-of-line table: the same traffic, pools per channel or shared.
struct HolRow {
    int channels = 0, credits = 0, stages = 0;
    bool shared = false;
    double closed_form = 0.0;       // each unstalled channel's throughput
    double lowest = 0.0, highest = 0.0;   // measured, over the unstalled channels
    bool meets = false;             // every unstalled channel within 0.002 of the closed form
    bool passed = false;            // every check of the run (lockstep on the RTL)
    // A shared pool whose window began before its decay settled (HolSharedTransient), measured on
    // the transient's own closed form: the cycles a run needs for the steady state, 0 otherwise.
    double transient = 0.0;
    uint64_t run_longer = 0;
};

constexpr double kHolTolerance = 0.002;   // a measured throughput against its closed form, per channel

// A shared pool's row (lowest and highest measured) that missed the steady state's 0: when its
// window, the second half of `cycles`, began before the decay settled below kHolTolerance and no
// channel sends more than the transient's own closed form allows (a round trip's slack), the row
// asks for a longer run (run_longer) instead of failing. Otherwise it stays a miss.
void hol_settling(HolRow& row, uint64_t cycles);

// The mutants of the multi-channel link: rtl/mutants/channels/*.mutant, with their expected check.
struct ChannelMutant {
    std::string name;       // "channel_shared_count"
    std::string file;       // rtl/mutants/channels/<name>.mutant
    std::string replaces;   // the block it patches ("credit_link.sv")
    std::string mutant_class;
    std::string expect;     // the check that should fire first ("conservation", "data", ...)
};
std::vector<ChannelMutant> find_channel_mutants(const std::string& source_root);
// The multi-channel RTL set with the mutant applied to its block (under <build>/mutants/src/), in
// `rtl`; the problem when the patch does not apply.
Problem channel_mutant_rtl(const DutSources& sources, const ChannelMutant& m, std::vector<std::string>& rtl);

// The stimulus every multi-channel mutant faces, in order, until one catches it.
std::vector<std::pair<std::string, ChannelRunSpec>> channel_mutation_cases(uint64_t seed);
// The kill table of the multi-channel mutants whose names `matches` `filter`; returns the
// number that survived (0 when none matched).
// The channel banks run_channel_mutants needs (every matching mutant times every stimulus set), for a
// caller that builds them beside its own.
std::vector<ChannelWanted> channel_mutant_builds(const std::string& filter, uint64_t seed,
                                                bool (*matches)(const std::string&, const std::string&));
int run_channel_mutants(const std::string& filter, uint64_t seed, const std::string& waves_dir, const std::string& program,
                        bool (*matches)(const std::string&, const std::string&));

}  // namespace creditloop
