// creditloop: check credit-based flow-control RTL against the golden model.
//   creditloop run [options]       one configuration, a readable summary or --json
//   creditloop run --preset NAME   the multi-channel link: chi, pcie or ib (run --preset chi --help)
//   creditloop hol [options]       the head-of-line table: shared pool against per-channel pools
//   creditloop faults [options]    lost credit messages: throughput and recovery against drop rate and T
//   creditloop regress [options]   the regression behind `make sim`
//   creditloop merge --junit OUT SHARD.xml...  one regression's shards (--shard I/N) into one file
//   creditloop report [options]    the HTML report of a JUnit file (docs/report.md)
//   creditloop mutants [options]   the regression against every mutant in rtl/mutants/
//   creditloop mutation [options]  generated mutants (make mutation, scripts/mutation.py)
//   creditloop size [options]      buffer sizing in bytes and credits (size --help)
//   creditloop sweep [options]     throughput over B, model everywhere, RTL on a grid (sweep --help)
//   creditloop policies [options]  return policies against reverse load, as a Markdown table
//   creditloop speed [options]     one timed run for the bench (make bench)
//   creditloop gtkw [options]      the GTKWave save file for waves of your own (scripts/formal.py)
//   creditloop tops --out DIR      the generated testbench tops, for reading or lint (make lint)
//   creditloop map FILE.sv...      a port map of your own RTL, guessed for you to confirm
//   creditloop network [options]   a credit network of routers: lockstep, deadlock, closed forms (make network)
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

int bad_input(const std::string& message) {
    std::cerr << "creditloop: " << message << "\n";
    return 2;
}

// `run --systemc`: build (or find) the SystemC harness for this configuration and hand the run
// over to it; its output and exit code are the run's.
int run_systemc(const RunCommand& cmd) {
    if (auto problem = systemc_refuses(cmd)) return bad_input(*problem);
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
        if (auto problem = waves_problem(cmd); !problem.empty()) return bad_input(problem);
        DutSources sources = DutSources::from_environment();
        sources.fst = cmd.fst;
        // A long run gets a plugin of its own at -O2 (about 4 s to build): in a bank, the idle
        // instances' input logic is evaluated every cycle too, about 14 times slower at 34 instances.
        sources.solo = cmd.spec.cycles >= kSoloCycles;
        // --mutant PATH.mutant is a patch of a file of your map; a name, a mutant of rtl/mutants/.
        std::string own_mutant, mutant_map;
        if (!cmd.mutant.empty() && is_mutant_file(cmd.mutant)) {
            if (auto problem = map_for_mutant(cmd.mutant, cmd.counter_file, cmd.link_map, cmd.rtl_dir, mutant_map);
                !problem.empty())
                return bad_input(problem);
            own_mutant = cmd.mutant;
        }
        const auto mutant_of = [&](const std::string& option) { return option == mutant_map ? own_mutant : std::string(); };
        if (!cmd.link_map.empty() && (!cmd.rtl_dir.empty() || !cmd.counter_file.empty() || !cmd.return_file.empty()))
            return bad_input("--link is a whole link of your own: drop --rtl, --counter and --return");
        if (!cmd.link_map.empty() && !cmd.mutant.empty() && own_mutant.empty())
            return bad_input("--link takes --mutant as a .mutant patch of one of its files (--mutant PATH.mutant): " +
                             cmd.mutant + " names a mutant of rtl/mutants/, which patches creditloop's own link");
        if (!cmd.rtl_dir.empty()) {
            std::vector<std::string> warnings;
            const std::string problem = fs::path(cmd.rtl_dir).extension() == ".json"
                                            ? use_rtl_map(sources, cmd.rtl_dir, cmd.werror, warnings, mutant_of("--rtl"))
                                            : use_rtl_directory(sources, cmd.rtl_dir, cmd.rtl_options);
            for (const auto& warning : warnings) std::cerr << "creditloop: warning in your RTL: " << warning << "\n";
            if (!problem.empty()) return bad_input(problem);
        }
        if (!cmd.mutant.empty() && own_mutant.empty()) {
            std::vector<std::string> errors;
            const auto mutants = find_mutants(sources.source_root, errors);
            auto it = std::find_if(mutants.begin(), mutants.end(), [&](const Mutant& m) { return m.name == cmd.mutant; });
            if (it == mutants.end())
                return bad_input("--mutant " + cmd.mutant + " is not in rtl/mutants/: 'creditloop mutants --filter x' lists them by name");
            sources = mutant_sources(sources, *it);
        }
        for (const auto& [block, file] : {std::pair<std::string, std::string>{"credit_counter.sv", cmd.counter_file},
                                          {"credit_return.sv", cmd.return_file}}) {
            if (file.empty()) continue;
            SwappedBlock swapped;
            sources.werror = cmd.werror;
            const std::string problem = swap_block(sources, block, file, cmd.spec.config.buffer_slots, swapped,
                                                   block == "credit_counter.sv" ? mutant_of("--counter") : "");
            if (!problem.empty()) return bad_input(problem);
            for (const auto& warning : swapped.warnings) std::cerr << "creditloop: warning in your RTL: " << warning << "\n";
            const bool resets_mid_run =
                cmd.spec.stimulus.reset_every || cmd.spec.stimulus.reset_tx_at || cmd.spec.stimulus.reset_rx_at;
            if (swapped.synchronous_reset && resets_mid_run)
                return bad_input(file + " resets synchronously, so it cannot take the mid-run reset pulses: drop --reset-every, "
                                        "--reset-sender-at and --reset-receiver-at");
            if (swapped.single_credit_return && returns_several_at_once(cmd.spec))
                return bad_input(file + " takes one credit per cycle (a one-bit credit_return): use --K 1, no --flush, no "
                                        "--reverse-load, no --recovery and no faults");
        }
        if (!cmd.link_map.empty()) {
            if (auto problem = mapped_link_refuses(cmd.spec)) return bad_input(*problem);
            MappedLink link;
            const std::string problem = swap_mapped_link(sources, cmd.link_map, cmd.werror, link, mutant_of("--link"));
            if (!problem.empty()) return bad_input(problem);
            const auto& s = cmd.spec.stimulus;
            if (link.synchronous_reset && (s.reset_every || s.reset_tx_at || s.reset_rx_at))
                return bad_input(cmd.link_map + ": your link resets synchronously, so it cannot take the mid-run reset pulses: "
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

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << kUsage;
        return args.empty() ? 2 : 0;
    }
    const std::string sub = args[0];
    args.erase(args.begin());
    ParseError error;
    if (sub == "run" && is_channel_run(args)) {
        auto cmd = parse_channel_run(args, error);
        if (!cmd) return parse_failed(error);
        return run_channel_command(*cmd, program_path(argv[0]));
    }
    if (sub == "hol") return run_hol(args);
    if (sub == "faults") return run_faults(args);
    if (sub == "run") {
        auto cmd = parse_run(args, error);
        if (!cmd) return parse_failed(error);
        return run_command(*cmd, program_path(argv[0]));
    }
    if (sub == "regress") {
        auto cmd = parse_regress(args, error);
        if (!cmd) return parse_failed(error);
        set_log_level(cmd->log_level);
        return run_regression(*cmd, program_path(argv[0]));
    }
    if (sub == "merge") {
        auto cmd = parse_merge(args, error);
        if (!cmd) return parse_failed(error);
        return run_merge(*cmd);
    }
    if (sub == "report") return run_report(args);
    if (sub == "soak") return run_soak(args);
    if (sub == "size") return run_size(args);
    if (sub == "sweep") return run_sweep(args, program_path(argv[0]));
    if (sub == "policies") return run_policy_table(args, program_path(argv[0]));
    if (sub == "speed") return run_speed(args);
    if (sub == "gtkw") return run_gtkw(args);
    if (sub == "tops") return run_tops(args);
    if (sub == "map") return run_map(args, program_path(argv[0]));
    if (sub == "network") return run_network_command(args, program_path(argv[0]));
    if (sub == "mutation") return run_mutation(args, program_path(argv[0]));
    if (sub == "mutants") {
        auto cmd = parse_mutants(args, error);
        if (!cmd) return parse_failed(error);
        return run_mutants(*cmd, program_path(argv[0]));
    }
    return bad_input("unknown command '" + sub + "': use 'run', 'regress', 'merge', 'report', 'mutants', 'mutation', 'hol', 'faults', 'sweep', 'size', 'policies', 'speed', 'soak', 'gtkw', 'tops', 'map' or 'network' (see 'creditloop --help')");
}
