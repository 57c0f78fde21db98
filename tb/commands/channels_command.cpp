// The multi-channel link's runs (channels_command.h): `creditloop run --preset ...` on the RTL in
// lockstep with the model (or the model alone) with its per-channel summary or JSON, and
// `creditloop hol`, the head-of-line table against the closed forms.
#include "channels_command.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "channel_gtkw.h"
#include "channel_library.h"
#include "channel_scoreboards.h"
#include "cli.h"
#include "cli_parse.h"
#include "closed_forms.h"
#include "log.h"
#include "mutant_patch.h"
#include "process.h"
#include "progress.h"

namespace fs = std::filesystem;

namespace creditloop {

std::string channel_summary(const ChannelRunSpec& spec, const ChannelRunResult& r) {
    const ChannelLinkConfig& c = spec.config;
    std::ostringstream out;
    out << "creditloop run: " << (c.preset.empty() ? std::string("channels") : c.preset) << " (" << c.channels.size()
        << " channels, L = " << c.stages << ", " << (c.shared_pool ? "one shared pool" : "a pool per lane") << ", "
        << (c.shared_return ? "one shared return path" : "a return path per pool") << "), " << with_thousands(r.cycles)
        << " cycles, seed " << spec.seed << ", checked on the "
        << (r.source == "systemc" ? std::string("rtl under SystemC") : r.source) << "\n";
    out << fmt::format("  {:<8} {:>10} {:>10} {:>8}\n", "channel", "flits/cyc", "model", "share");
    for (const auto& ch : r.channels)
        out << fmt::format("  {:<8} {:>10.3f} {:>10.3f} {:>7.1f}%\n", ch.name, ch.throughput, ch.model_throughput,
                           100.0 * ch.share);
    out << fmt::format("  {:<10} {:>7} {:>10} {:>14}   (closed-form RTT {})\n", "pool", "credits", "flits/cyc",
                       "measured RTT", r.closed_form_round_trip);
    for (const auto& p : r.pools)
        out << fmt::format("  {:<10} {:>7} {:>10.3f} {:>14}\n", p.name, p.credits, p.throughput,
                           p.throughput > 0 ? fmt::format("{:.1f}", p.measured_round_trip) : std::string("-"));
    // The return logic and the resets, when the run sets any of them.
    std::vector<std::string> features;
    if (c.sync_stages) features.push_back("SYNC " + std::to_string(c.sync_stages));
    if (c.free_delay) features.push_back("FREE_DELAY " + std::to_string(c.free_delay));
    for (const auto& ch : c.channels) {
        if (ch.policy == ReturnPolicy::hybrid)
            features.push_back(fmt::format("{} hybrid (LOW {}, IDLE {})", ch.name, ch.low < 0 ? ch.batch : ch.low, ch.idle));
        if (ch.timeout) features.push_back(fmt::format("{} timeout {}", ch.name, ch.timeout));
    }
    const ChannelEnvironment& env = spec.environment;
    if (env.flush_probability > 0) features.push_back("flush " + exact_number(env.flush_probability) + " per pool");
    if (env.reverse_load > 0) features.push_back("reverse traffic " + exact_number(env.reverse_load) + " per path");
    if (env.reset_every) features.push_back("both ends reset every " + with_thousands(env.reset_every) + " cycles");
    if (env.reset_tx_at) features.push_back("sender reset alone at " + std::to_string(*env.reset_tx_at));
    if (env.reset_rx_at) features.push_back("receiver reset alone at " + std::to_string(*env.reset_rx_at));
    if (!features.empty()) out << "  return and resets: " << fmt::format("{}", fmt::join(features, "; ")) << "\n";
    if (c.recovery || spec.faults.any()) {
        out << "  faults: " << r.faults.size() << " injected of " << r.return_messages << " credit messages ("
            << describe(spec.faults) << "), recovery " << (c.recovery ? "on" : "off") << "\n";
    }
    out << "  link: " << three_decimals(r.link_throughput) << " flits/cycle; longest wait of an eligible channel: "
        << r.longest_wait << " grants (round-robin bound " << c.channels.size() - 1 << ")\n";
    for (const auto& b : r.scoreboards) out << "  " << b.summary << "\n";
    if (r.rtl_assertion_cycle)
        out << "  RTL assertion failed at cycle " << *r.rtl_assertion_cycle
            << (r.rtl_assertion.where.empty() ? "" : ": " + design_assertion(r.rtl_assertion)) << "\n";
    if (const Violation* v = r.first_violation()) out << "  first violation: " << violation_line(*v) << "\n";
    out << (r.passed ? "PASS" : "FAIL") << "\n";
    return out.str();
}

std::string channel_json(const ChannelRunSpec& spec, const ChannelRunResult& r) {
    nlohmann::ordered_json j;
    j["source"] = r.source;
    j["preset"] = spec.config.preset;
    j["key"] = spec.config.key();
    j["cycles"] = r.cycles;
    j["seed"] = spec.seed;
    j["window_start"] = r.window_start;
    j["link_throughput"] = r.link_throughput;
    for (const auto& ch : r.channels)
        j["channels"].push_back({{"name", ch.name}, {"throughput", ch.throughput}, {"model_throughput", ch.model_throughput},
                                 {"share", ch.share}});
    for (const auto& p : r.pools)
        j["pools"].push_back({{"name", p.name}, {"credits", p.credits}, {"throughput", p.throughput},
                              {"measured_round_trip", p.measured_round_trip}});
    j["closed_form_round_trip"] = r.closed_form_round_trip;
    j["longest_wait"] = r.longest_wait;
    j["recovery"] = spec.config.recovery;
    j["faults"] = describe(spec.faults);
    j["injected_faults"] = nlohmann::ordered_json::array();
    for (const auto& f : r.faults)
        j["injected_faults"].push_back({{"cycle", f.cycle}, {"pool", f.pool}, {"kind", f.drop ? "drop" : "corrupt"},
                                        {"credits", f.credits}});
    for (const auto& b : r.scoreboards)
        j["scoreboards"].push_back({{"name", b.name}, {"cycles_checked", b.cycles_checked}, {"violations", b.violations}});
    j["violations"] = nlohmann::ordered_json::array();
    for (const auto& v : r.violations)
        j["violations"].push_back({{"cycle", v.cycle}, {"check", v.check}, {"signal", v.signal}, {"expected", v.expected},
                                   {"got", v.got}, {"detail", v.detail}});
    j["passed"] = r.passed;
    return j.dump(2);
}

namespace {

// `run --preset ... --systemc`: build (or find) the SystemC harness for this configuration and
// hand the run over to it; its output and exit code are the run's.
int run_channel_systemc(const ChannelRunCommand& cmd) {
    if (auto problem = channel_systemc_refuses(cmd)) return refuse(*problem);
    std::string error;
    const std::string harness = channel_systemc_harness(cmd.spec.config, DutSources::from_environment(), error);
    return hand_over_to_systemc(harness, error, channel_systemc_command(harness, cmd.spec), cmd.json, cmd.log_level);
}

}  // namespace

int run_channel_command(const ChannelRunCommand& cmd, const std::string& program) {
    set_log_level(cmd.log_level);
    if (cmd.systemc) return run_channel_systemc(cmd);
    std::unique_ptr<ChannelLibrary> library;
    std::string load_error;
    std::unique_ptr<ChannelDut> dut;
    const DutSources base = DutSources::from_environment();
    if (!cmd.model_only) {
        if (auto problem = waves_problem(cmd)) return refuse(*problem);
        DutSources sources = base;
        sources.fst = cmd.fst;
        if (!cmd.rtl_dir.empty()) {
            if (auto problem = use_rtl_directory(sources, cmd.rtl_dir); !problem.empty()) return refuse(problem);
        }
        if (!cmd.counter_file.empty()) {
            // The contract's widths are checked at the largest pool's credits; the wrapper is generic in B.
            int most = 1;
            for (const ChannelSpec& channel : cmd.spec.config.channels) most = std::max({most, channel.credits, channel.data_credits});
            SwappedBlock swapped;
            if (!cmd.mutant.empty() && !is_mutant_file(cmd.mutant)) {
                std::cerr << "creditloop: with --counter, --mutant is a .mutant patch of one of your counter's files (--mutant "
                             "PATH.mutant): " << cmd.mutant << " names a mutant of rtl/mutants/channels/\n";
                return 2;
            }
            std::string problem = swap_block(sources, "credit_counter.sv", cmd.counter_file, most, swapped, cmd.mutant);
            for (const auto& warning : swapped.warnings) std::cerr << "creditloop: warning in your RTL: " << warning << "\n";
            if (problem.empty()) problem = channel_counter_refuses(cmd.spec, swapped).value_or("");
            if (!problem.empty()) return refuse(problem);
        }
        ChannelWanted wanted{cmd.spec.config, {}};
        if (!cmd.mutant.empty() && cmd.counter_file.empty()) {
            const auto mutants = find_channel_mutants(sources.source_root);
            auto it = std::find_if(mutants.begin(), mutants.end(), [&](const ChannelMutant& m) { return m.name == cmd.mutant; });
            if (it == mutants.end()) {
                std::cerr << "creditloop: --mutant " << cmd.mutant << " is not in rtl/mutants/channels/\n";
                return 2;
            }
            if (const Problem problem = channel_mutant_rtl(sources, *it, wanted.rtl)) {
                std::cerr << "creditloop: --mutant " << cmd.mutant << ": " << *problem << "\n";
                return 2;
            }
        }
        library = ChannelLibrary::load(wanted, sources, load_error);
        if (library) dut = library->create(cmd.plusargs);
    }
    std::string rerun = program + " run " + channel_run_arguments(cmd.spec);
    if (!cmd.rtl_dir.empty()) rerun += " --rtl " + cmd.rtl_dir;
    if (!cmd.counter_file.empty()) rerun += " --counter " + cmd.counter_file;
    if (!cmd.mutant.empty()) rerun += " --mutant " + cmd.mutant;
    if (cmd.model_only) rerun += " --model";
    return checked_run(
        cmd, library, load_error, cmd.spec.config.key() + "_seed" + std::to_string(cmd.spec.seed), rerun,
        [&](const LoopOptions& loop, bool replay) {
            return run_channels(replay ? library->create(cmd.plusargs).get() : dut.get(), cmd.spec, loop);
        },
        [&](const ChannelRunResult& r) { return cmd.json ? channel_json(cmd.spec, r) + "\n" : channel_summary(cmd.spec, r); },
        [&](const ChannelRunResult& r, const ChannelLibrary& lib, const std::string& waves, uint64_t) {
            return write_channel_gtkw(waves, cmd.spec.config, lib.trace_scope(), r.first_violation());
        });
}

// ---- the head-of-line table

void hol_settling(HolRow& row, uint64_t cycles) {
    const HolSharedTransient transient{row.channels, row.credits, round_trip_cycles(row.stages)};
    const double from = static_cast<double>(cycles / 2), settled = transient.settled_by(kHolTolerance);
    if (from >= settled) return;
    row.transient = transient.average(from, static_cast<double>(cycles));
    // The fluid model's clock is good to about one round trip (the first credits come back only
    // after one): the pool may be drained a round trip behind it, never more.
    const double rtt = round_trip_cycles(row.stages);
    const double most = transient.average(std::max(0.0, from - rtt), static_cast<double>(cycles) - rtt) + kHolTolerance;
    if (row.highest > most) return;
    row.run_longer = static_cast<uint64_t>(std::ceil(2.0 * settled / 1000.0)) * 1000;
}

int run_hol(const std::vector<std::string>& args) {
    ParseError error;
    const auto cmd = parse_hol(args, error);
    if (!cmd) return parse_failed(error);
    const std::vector<int>& channel_counts = cmd->channel_counts;
    const std::vector<int>& credit_counts = cmd->credit_counts;
    const std::vector<int>& stage_counts = cmd->stage_counts;
    const uint64_t cycles = cmd->cycles, seed = cmd->seed;
    const bool model_only = cmd->model_only;
    std::vector<HolRow> rows;
    std::vector<ChannelRunSpec> specs;
    for (size_t i = 0; i < channel_counts.size(); ++i) {
        for (bool shared : {false, true}) {
            HolRow row{channel_counts[i], credit_counts[i], stage_counts[i], shared};
            row.closed_form = shared ? hol_shared_pool_throughput()
                                     : hol_per_channel_throughput(row.channels - 1, row.credits, round_trip_cycles(row.stages));
            rows.push_back(row);
            specs.push_back({hol_config(row.channels, row.credits, row.stages, shared), cycles, seed});
        }
    }
    const DutSources sources = DutSources::from_environment();
    Progress progress("creditloop hol", stderr);   // the table alone on stdout
    if (!model_only) {
        std::vector<ChannelWanted> wanted;
        for (const auto& s : specs) wanted.push_back({s.config, {}});
        progress.phase("verilated configurations");
        const auto errors = build_channel_duts(wanted, sources, [&](const std::string& s) { progress.status(s); });
        if (!errors.empty()) {
            progress.finish();
            for (const auto& e : errors) std::cerr << "creditloop hol: " << e << "\n";
            return 3;
        }
    }
    progress.phase("runs", specs.size());
    bool all = true;
    for (size_t i = 0; i < specs.size(); ++i) {
        std::unique_ptr<ChannelLibrary> library;
        std::unique_ptr<ChannelDut> dut;
        if (!model_only) {
            std::string e;
            library = ChannelLibrary::load({specs[i].config, {}}, sources, e);
            if (!library) {
                progress.finish();
                std::cerr << "creditloop hol: " << e << "\n";
                return 3;
            }
            dut = library->create();
        }
        const ChannelRunResult r = run_channels(dut.get(), specs[i], {});
        HolRow& row = rows[i];
        row.lowest = 1.0;
        row.highest = 0.0;
        row.meets = true;
        for (int c = 1; c < row.channels; ++c) {
            row.lowest = std::min(row.lowest, r.channels[c].throughput);
            row.highest = std::max(row.highest, r.channels[c].throughput);
            row.meets = row.meets && std::abs(r.channels[c].throughput - row.closed_form) <= kHolTolerance;
        }
        if (row.shared && !row.meets) hol_settling(row, cycles);
        row.passed = r.passed;
        all = all && (row.meets || row.run_longer) && row.passed;
        progress.advance();
    }
    progress.finish();
    std::cout << "Head-of-line blocking (seed 003): channel C0's consumer stalled, every source offering a one-flit "
                 "packet each cycle, "
              << cycles << " cycles, throughput over the second half, " << (model_only ? "golden model" : "RTL in lockstep with the model")
              << ".\n\n"
              << "| channels | B per channel | L | RTT | pools | each other channel: closed form | measured (lowest .. highest) | meets | checks |\n"
              << "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& row : rows) {
        const int rtt = round_trip_cycles(row.stages);
        const std::string form =
            row.shared ? "0 (C0 holds every credit)"
                       : fmt::format("min(1/{}, {}/{}) = {:.3f}", row.channels - 1, row.credits, rtt, row.closed_form);
        std::cout << fmt::format("| {} | {} | {} | {} | {} | {} | {:.3f} .. {:.3f} | {} | {} |\n", row.channels, row.credits,
                                 row.stages, rtt, row.shared ? fmt::format("one shared ({})", row.channels * row.credits)
                                                             : std::string("per channel"),
                                 form, row.lowest, row.highest,
                                 row.meets ? "yes"
                                 : row.run_longer ? fmt::format("run longer: at least {} cycles", row.run_longer)
                                                  : "NO",
                                 row.passed ? "pass" : "FAIL");
    }
    for (const auto& row : rows)
        if (row.run_longer)
            std::cout << fmt::format(
                "\n{} channels, B = {}, L = {}, one shared pool: the window began before the pool drained. Credits leave "
                "the loop one in {} sends, a decay with the time constant N x RTT = {} cycles; its closed form gives "
                "{:.3f} per channel over this window. Rerun with --cycles {} for the steady state.\n",
                row.channels, row.credits, row.stages, row.channels, row.channels * round_trip_cycles(row.stages),
                row.transient, row.run_longer);
    return all ? 0 : 1;
}

}  // namespace creditloop
