// creditloop: check credit-based flow-control RTL against the golden model. The subcommands are
// the table in main() ('creditloop --help' prints it).
// Exit codes: 0 passed, 1 a check failed, 2 bad input, 3 a build or file problem.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli.h"
#include "command_table.h"
#include "channels_command.h"
#include "faults_command.h"
#include "block_swap.h"
#include "dut_library.h"
#include "gtkw.h"
#include "gtkw_command.h"
#include "log.h"
#include "map_command.h"
#include "network_command.h"
#include "process.h"
#include "mutant_patch.h"
#include "mutants.h"
#include "mutation.h"
#include "own_link.h"
#include "own_mutant.h"
#include "port_map.h"
#include "policy_table.h"
#include "size_command.h"
#include "tops_command.h"
#include "speed.h"
#include "sweep.h"
#include "merge.h"
#include "regression.h"
#include "soak.h"
#include "report.h"
#include "report_command.h"
#include "prove_command.h"

namespace fs = std::filesystem;
using namespace creditloop;

namespace {

// How to call this program again from the current directory (for rerun lines).
std::string program_path(const char* argv0) {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return argv0;
    const fs::path relative = fs::relative(self, fs::current_path(), ec);
    if (ec || relative.empty() || relative.string().rfind("..", 0) == 0) return self.string();
    return relative.string();
}

// `run --systemc`: build (or find) the SystemC harness for this configuration and hand the run
// over to it; its output and exit code are the run's.
int run_systemc(const RunCommand& cmd) {
    if (auto problem = systemc_refuses(cmd)) return refuse(*problem);
    std::string error;
    const std::string harness = systemc_harness(cmd.spec.config, DutSources::from_environment(), error);
    return hand_over_to_systemc(harness, error, systemc_command(harness, cmd.spec), cmd.json, cmd.log_level);
}

int run_command(RunCommand cmd, const std::string& program) {   // a copy: a mapped link fits its spec to the link
    set_log_level(cmd.log_level);   // a level CLI11 checked
    if (cmd.systemc) return run_systemc(cmd);
    std::unique_ptr<DutLibrary> library;
    std::string load_error;
    std::unique_ptr<LinkDut> dut;
    if (!cmd.model_only) {
        if (auto problem = waves_problem(cmd)) return refuse(*problem);
        DutSources sources = DutSources::from_environment();
        sources.fst = cmd.fst;
        // A long run gets a plugin of its own at -O2 (about 4 s to build): in a bank, the idle
        // instances' input logic is evaluated every cycle too, about 14 times slower at 34 instances.
        sources.solo = cmd.spec.cycles >= kSoloCycles;
        // --mutant PATH.mutant is a patch of a file of your map; a name, a mutant of rtl/mutants/.
        std::string own_mutant, mutant_map;
        if (!cmd.mutant.empty() && is_mutant_file(cmd.mutant)) {
            if (auto problem = map_for_mutant(cmd.mutant, cmd.counter_file, cmd.link_map, cmd.rtl_dir, mutant_map))
                return refuse(*problem);
            own_mutant = cmd.mutant;
        }
        const auto mutant_of = [&](const std::string& option) { return option == mutant_map ? own_mutant : std::string(); };
        if (!cmd.link_map.empty() && (!cmd.rtl_dir.empty() || !cmd.counter_file.empty() || !cmd.return_file.empty()))
            return refuse("--link is a whole link of your own: drop --rtl, --counter and --return");
        if (!cmd.link_map.empty() && !cmd.mutant.empty() && own_mutant.empty())
            return refuse("--link takes --mutant as a .mutant patch of one of its files (--mutant PATH.mutant): " +
                          cmd.mutant + " names a mutant of rtl/mutants/, which patches creditloop's own link");
        if (!cmd.rtl_dir.empty()) {
            std::vector<std::string> warnings;
            const std::string problem = fs::path(cmd.rtl_dir).extension() == ".json"
                                            ? use_rtl_map(sources, cmd.rtl_dir, cmd.werror, warnings, mutant_of("--rtl"))
                                            : use_rtl_directory(sources, cmd.rtl_dir, cmd.rtl_options);
            for (const auto& warning : warnings) std::cerr << "creditloop: warning in your RTL: " << warning << "\n";
            if (!problem.empty()) return refuse(problem);
        }
        if (!cmd.mutant.empty() && own_mutant.empty()) {
            std::vector<std::string> errors;
            const auto mutants = find_mutants(sources.source_root, errors);
            auto it = std::find_if(mutants.begin(), mutants.end(), [&](const Mutant& m) { return m.name == cmd.mutant; });
            if (it == mutants.end())
                return refuse("--mutant " + cmd.mutant + " is not in rtl/mutants/: 'creditloop mutants --filter x' lists them by name");
            sources = mutant_sources(sources, *it);
        }
        for (const auto& [block, file] : {std::pair<std::string, std::string>{"credit_counter.sv", cmd.counter_file},
                                          {"credit_return.sv", cmd.return_file}}) {
            if (file.empty()) continue;
            SwappedBlock swapped;
            sources.werror = cmd.werror;
            const std::string problem = swap_block(sources, block, file, cmd.spec.config.buffer_slots, swapped,
                                                   block == "credit_counter.sv" ? mutant_of("--counter") : "");
            if (!problem.empty()) return refuse(problem);
            for (const auto& warning : swapped.warnings) std::cerr << "creditloop: warning in your RTL: " << warning << "\n";
            const bool resets_mid_run =
                cmd.spec.stimulus.reset_every || cmd.spec.stimulus.reset_tx_at || cmd.spec.stimulus.reset_rx_at;
            if (swapped.synchronous_reset && resets_mid_run)
                return refuse(file + " resets synchronously, so it cannot take the mid-run reset pulses: drop --reset-every, "
                                     "--reset-sender-at and --reset-receiver-at");
            if (swapped.single_credit_return && returns_several_at_once(cmd.spec))
                return refuse(file + " takes one credit per cycle (a one-bit credit_return): use --K 1, no --flush, no "
                                     "--reverse-load, no --recovery and no faults");
        }
        if (!cmd.link_map.empty()) {
            if (auto problem = mapped_link_refuses(cmd.spec)) return refuse(*problem);
            MappedLink link;
            const std::string problem = swap_mapped_link(sources, cmd.link_map, cmd.werror, link, mutant_of("--link"));
            if (!problem.empty()) return refuse(problem);
            const auto& s = cmd.spec.stimulus;
            if (link.synchronous_reset && (s.reset_every || s.reset_tx_at || s.reset_rx_at))
                return refuse(cmd.link_map + ": your link resets synchronously, so it cannot take the mid-run reset pulses: "
                                             "drop --reset-every, --reset-sender-at and --reset-receiver-at");
            for (const auto& warning : link.warnings) std::cerr << "creditloop: warning in your RTL: " << warning << "\n";
            fit_to_mapped_link(cmd.spec, link);
        }
        library = DutLibrary::load(cmd.spec.config, sources, load_error);
        if (library) dut = library->create(cmd.plusargs);
    }
    std::string rerun = program + " run " + run_arguments(cmd.spec);
    for (const auto& arg : rtl_arguments(cmd)) rerun += " " + arg;
    if (cmd.model_only) rerun += " --model";
    return checked_run(
        cmd, library, load_error, cmd.spec.config.key() + "_seed" + std::to_string(cmd.spec.stimulus.seed), rerun,
        [&](const LoopOptions& loop, bool replay) {
            RunOptions options;
            static_cast<LoopOptions&>(options) = loop;
            return run_link(replay ? library->create(cmd.plusargs).get() : dut.get(), cmd.spec, options);
        },
        [&](const RunResult& r) { return cmd.json ? run_json(cmd.spec, r) + "\n" : run_summary(cmd.spec, r); },
        [&](const RunResult& r, const DutLibrary& lib, const std::string& waves, uint64_t from) {
            return write_gtkw(waves, cmd.spec.config, lib.trace_scope(), r.first_violation(), from);
        });
}

// The commands that parse into a command struct and run it.
int run_link_command(const std::vector<std::string>& args, const std::string& program) {
    ParseError error;
    if (is_channel_run(args)) {   // --preset, --channel or --channels: the multi-channel link
        auto cmd = parse_channel_run(args, error);
        return cmd ? run_channel_command(*cmd, program) : parse_failed(error);
    }
    auto cmd = parse_run(args, error);
    return cmd ? run_command(*cmd, program) : parse_failed(error);
}

int regress_command(const std::vector<std::string>& args, const std::string& program) {
    ParseError error;
    auto cmd = parse_regress(args, error);
    if (!cmd) return parse_failed(error);
    set_log_level(cmd->log_level);
    return run_regression(*cmd, program);
}

int merge_command(const std::vector<std::string>& args, const std::string&) {
    ParseError error;
    auto cmd = parse_merge(args, error);
    return cmd ? run_merge(*cmd) : parse_failed(error);
}

int mutants_command(const std::vector<std::string>& args, const std::string& program) {
    ParseError error;
    auto cmd = parse_mutants(args, error);
    return cmd ? run_mutants(*cmd, program) : parse_failed(error);
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<Subcommand> commands = {
        {"run", {{"[options]", "check one configuration of the link against the model"},
                 {"--preset NAME", "the multi-channel link (chi, pcie, ib), per-channel report"}}, run_link_command},
        {"hol", {{"[options]", "head-of-line table: one shared pool against a pool per channel"}}, ignoring_program<run_hol>},
        {"faults", {{"[options]", "lost credit messages: throughput and recovery, a Markdown table"}}, ignoring_program<run_faults>},
        {"regress", {{"[options]", "the regression (make sim); --shard I/N a slice, --rerun-failed FILE"}}, regress_command},
        {"merge", {{"--junit OUT SHARD.xml...", "the shards of one regression, merged"}}, merge_command},
        {"report", {{"[options]", "the regression's HTML report from its JUnit file (index.html)"}}, ignoring_program<run_report>},
        {"soak", {{"[options]", "10^9 cycles of random traffic with resets, memory sampled (make soak)"}}, ignoring_program<run_soak>},
        {"mutants", {{"[options]", "the regression against every mutant in rtl/mutants/ (make mutants)"}}, mutants_command},
        {"mutation", {{"[options]", "generated mutants of credit_link (make mutation)"}}, run_mutation},
        {"size", {{"[options]", "the buffer a link needs, in bytes and credits"}}, ignoring_program<run_size>},
        {"sweep", {{"[options]", "throughput against B: CSV and SVG, RTL cross-checked"}}, run_sweep},
        {"policies", {{"[options]", "return policies against reverse load, a Markdown table"}}, run_policy_table},
        {"speed", {{"[options]", "cycles per second of one mode (make bench)"}}, ignoring_program<run_speed>},
        {"prove", {{"--counter MAP | --link MAP", "prove your counter or link conserves credits (k-induction; docs/prove.md)"}},
         run_prove},
        {"gtkw", {{"[options]", "the GTKWave save file for waves of your own (a formal counterexample)"}}, ignoring_program<run_gtkw>},
        {"tops", {{"--out DIR", "the generated testbench tops, for reading or linting them"}}, ignoring_program<run_tops>},
        {"map", {{"FILE.sv...", "a port map of your own counter or link, guessed for you to confirm"}}, run_map},
        {"network", {{"[options]", "a credit network of routers in lockstep: deadlock, closed forms (make network)"}},
         run_network_command},
    };
    return dispatch(commands, std::vector<std::string>(argv + 1, argv + argc), program_path(argv[0]));
}
