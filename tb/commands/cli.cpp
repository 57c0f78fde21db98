#include "cli.h"

#include <algorithm>
#include <iostream>
#include <sstream>

#include "cli_parse.h"
#include "mutants.h"
#include "process.h"
#include "replay.h"
#include "report_folder.h"

namespace creditloop {

namespace {

constexpr long long kMaxCycles = 100000000000LL;
constexpr long long kMaxSeed = 0x7FFFFFFFFFFFFFFFLL;

// The stimulus patterns' own parser (stimulus.h) as a CLI11 check.
CLI::Validator traffic_pattern() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            std::string message;
            return parse_traffic(text, message) ? "" : message;
        },
        "saturate|bernoulli:P|bursts:ON:OFF");
}

// The options regress and mutants share: which tests, which seed, where waves go, how many jobs.
void add_test_selection(CLI::App& app, std::string& filter, uint64_t& seed, std::string& waves_dir, int& jobs,
                        const char* what) {
    app.add_option("--filter", filter, std::string("only ") + what + " whose name matches (glob with * ?, else substring)");
    app.add_option("--seed", seed, "stimulus seed")->check(whole_number(0, kMaxSeed))->capture_default_str();
    app.add_option("--waves-dir", waves_dir, "where the waves of failing runs go")->capture_default_str();
    app.add_option("--jobs", jobs, "runs and builds in parallel")->check(whole_number(1, 64))->capture_default_str();
}

// Verilator's ways to give sources, for --rtl (maps carry their own).
void add_rtl_options(CLI::App& app, RtlOptions& options) {
    app.add_option("--incdir", options.incdirs, "with --rtl: an include directory (+incdir+), repeatable");
    app.add_option("--define", options.defines, "with --rtl: a define NAME or NAME=VALUE (+define+), repeatable");
    app.add_option("--file-list", options.file_lists, "with --rtl: a Verilator file list (-f), repeatable");
}

}  // namespace

std::optional<RunCommand> parse_run(const std::vector<std::string>& args, ParseError& error) {
    RunCommand cmd;
    RunSpec& spec = cmd.spec;
    CLI::App app{"Check one configuration of the credit link, the RTL in lockstep with the golden model.",
                 "creditloop run"};
    add_link_options(app, spec.config.stages, spec.config.buffer_slots, &spec.config.batch);
    app.add_option("--W", spec.config.payload_bits, "payload bits")
        ->check(whole_number(1, kMaxPayloadBits, " (payload bits)"))->capture_default_str();
    app.add_option("--sync", spec.config.sync_stages, "synchroniser stages a clock-domain crossing adds to the return path")
        ->check(whole_number(0, kMaxSyncStages, " (synchroniser stages on the return path)"));
    app.add_option("--free-delay", spec.config.free_delay, "the receiver frees a slot N cycles after its flit leaves")
        ->check(whole_number(0, kMaxFreeDelay, " (cycles from pop to the slot being freed)"));
    app.add_option("--cycles", spec.cycles, "cycles to run (the window is the second half)")
        ->check(whole_number(1, kMaxCycles))->capture_default_str();
    app.add_option("--seed", spec.stimulus.seed, "stimulus seed")->check(whole_number(0, kMaxSeed))->capture_default_str();
    std::string traffic;
    app.add_option("--traffic", traffic, "saturate | bernoulli:P | bursts:ON:OFF (default saturate)")->check(traffic_pattern());
    int drain_every = 1;
    auto* every = app.add_option("--drain-every", drain_every, "the consumer drains when cycle % N == 0 (default 1)")
                      ->check(whole_number(1, 1000000, " (1 drains every cycle)"));
    double drain_stall = 0.0;
    auto* stall = app.add_option("--drain-stall", drain_stall, "the consumer stalls at random with probability Q instead")
                      ->check(probability("Q", false));
    every->excludes(stall);
    app.add_option("--flush", spec.stimulus.flush_probability, "tell the return logic to flush, with probability P")
        ->check(probability("P", true));
    // 1 would block the return path for good: the link would deadlock, not run slowly.
    app.add_option("--reverse-load", spec.stimulus.reverse_load,
                   "the return path is shared: reverse traffic holds it with probability P each cycle")
        ->check(probability("P", false));
    std::string policy = "batch";
    app.add_option("--policy", policy, "each | batch | hybrid (each is batch with K = 1)")
        ->check(one_of({"each", "batch", "hybrid"}, "a return policy"))->capture_default_str();
    auto* low = app.add_option("--low", spec.config.low_credits, "hybrid: flush when the sender may hold N credits or fewer (default K)")
                    ->check(whole_number(0, kMaxBufferSlots, " and at most B (hybrid: sender-low threshold)"));
    auto* idle = app.add_option("--idle", spec.config.idle_cycles, "hybrid: flush when the return path was free N cycles running (default 2)")
                     ->check(whole_number(1, kMaxIdleCycles, " (hybrid: cycles without reverse traffic)"));
    app.add_option("--timeout", spec.config.flush_timeout, "a credit waits at most N cycles for its batch (0: no limit)")
        ->check(whole_number(0, kMaxFlushTimeout, " (0: no flush timeout)"));
    app.add_option("--reset-every", spec.stimulus.reset_every, "reset both ends together every N cycles, mid-traffic")
        ->check(whole_number(0, kMaxCycles, " cycles (0: never)"));
    uint64_t reset_tx_at = 0, reset_rx_at = 0;
    auto* reset_tx = app.add_option("--reset-sender-at", reset_tx_at, "reset the sender end alone in cycle C")
                         ->check(whole_number(0, kMaxCycles, " (a cycle of the run)"));
    auto* reset_rx = app.add_option("--reset-receiver-at", reset_rx_at, "reset the receiver end alone in cycle C (with --reset-sender-at C: both)")
                         ->check(whole_number(0, kMaxCycles, " (a cycle of the run)"));
    // Faults on the return path and the recovery protocol (docs/recovery.md).
    add_flag(app, "--recovery", spec.config.recovery,
             "cumulative credit updates (PCIe-style running totals, resent every --resend cycles) instead of counts");
    auto* total_bits = app.add_option("--total-bits", spec.config.total_bits, "recovery: width n of the running totals (2^n > 2B)")
                           ->check(whole_number(1, kMaxTotalBits));
    auto* resend = app.add_option("--resend", spec.config.resend_period, "recovery: cycles between updates when nothing new is released")
                       ->check(whole_number(1, kMaxResendPeriod));
    app.add_option("--drop", spec.faults.drop_probability, "drop each credit message with probability P")
        ->check(probability("P", true));
    uint64_t drop_at = 0, corrupt_at = 0;
    auto* drop_at_option = app.add_option("--drop-at", drop_at, "drop the first credit message arriving at or after cycle C")
                               ->check(whole_number(0, kMaxCycles, " (a cycle of the run)"));
    app.add_option("--drop-every", spec.faults.drop_every, "drop every Nth credit message")
        ->check(whole_number(0, kMaxCycles, " (0: off)"));
    app.add_option("--corrupt", spec.faults.corrupt_probability, "make each credit message larger with probability P")
        ->check(probability("P", true));
    auto* corrupt_at_option = app.add_option("--corrupt-at", corrupt_at, "make the first credit message arriving at or after cycle C larger")
                                  ->check(whole_number(0, kMaxCycles, " (a cycle of the run)"));
    app.add_option("--corrupt-add", spec.faults.corrupt_add, "by this much (default 1)")->check(whole_number(1, 65535));
    std::string replay;
    auto* replay_option = app.add_option("--replay", replay,
                                         "every cycle's inputs from FILE (a proof's counterexample, written by creditloop prove)");
    for (const char* other : {"--traffic", "--drain-every", "--drain-stall", "--flush", "--reverse-load", "--reset-every",
                              "--reset-sender-at", "--reset-receiver-at", "--cycles", "--seed", "--drop", "--drop-at",
                              "--drop-every", "--corrupt", "--corrupt-at"})
        replay_option->excludes(app.get_option(other));
    add_flag(app, "--full-rate", spec.declared_full_rate, "declare the link full rate: the sizing check fails below 1 flit/cycle");
    add_flag(app, "--rtl-full-rate", spec.config.rtl_full_rate,
                 "build the RTL with FULL_RATE = 1: its sizing assertion refuses a B short of the round trip");
    add_run_output_options(app, cmd);
    app.add_option("--rtl", cmd.rtl_dir, "your own RTL: every .sv in DIR, top credit_link in credit_link.sv");
    add_rtl_options(app, cmd.rtl_options);
    app.add_option("--counter", cmd.counter_file,
                   "your own credit counter: a .sv with seed 002's chi_credit_counter ports, or a .json map of your ports (docs/own-rtl.md)");
    add_flag(app, "--werror", cmd.werror, "warnings in your own RTL stop the run (they are shown either way)");
    app.add_option("--link", cmd.link_map, "a link of your own: a .json map of its sender and receiver (docs/own-rtl.md)");
    app.add_option("--return", cmd.return_file, "your own credit-return logic (rtl/credit_return.sv's ports)");
    app.add_option("--mutant", cmd.mutant,
                   "a mutant of rtl/mutants/ (by name), applied to its block; or PATH.mutant, a patch of a file of your "
                   "map (--counter, --link or --rtl MAP), applied to it");
    if (!parse_command(app, args, error)) return std::nullopt;

    if (!traffic.empty()) {
        std::string message;
        spec.stimulus.traffic = *parse_traffic(traffic, message);
    }
    if (replay_option->count()) {
        auto rows = read_replay(replay, error.message);
        if (!rows) return std::nullopt;
        spec.cycles = rows->size();
        spec.stimulus.replay = std::make_shared<const std::vector<LinkInputs>>(std::move(*rows));
        spec.stimulus.replay_file = replay;
    }
    if (every->count()) {
        spec.stimulus.drain.kind = DrainKind::every_nth;
        spec.stimulus.drain.period = drain_every;
    } else if (stall->count()) {
        spec.stimulus.drain.kind = DrainKind::random_stalls;
        spec.stimulus.drain.stall_probability = drain_stall;
    }
    if (drop_at_option->count()) spec.faults.drop_at = drop_at;
    if (corrupt_at_option->count()) spec.faults.corrupt_at = corrupt_at;
    if (!spec.config.recovery && (total_bits->count() || resend->count())) {
        error.message = "--total-bits and --resend tune the recovery protocol: add --recovery";
        return std::nullopt;
    }
    if (spec.config.recovery && !total_bits->count()) {
        // The narrowest totals that keep a stale total from looking new (2^n > 2B): they wrap soonest.
        spec.config.total_bits = 1;
        while ((1 << spec.config.total_bits) <= 2 * spec.config.buffer_slots && spec.config.total_bits < kMaxTotalBits)
            ++spec.config.total_bits;
    }
    if (reset_tx->count()) spec.stimulus.reset_tx_at = reset_tx_at;
    if (reset_rx->count()) spec.stimulus.reset_rx_at = reset_rx_at;
    spec.config.policy = policy == "hybrid" ? ReturnPolicy::hybrid : ReturnPolicy::batch;
    if (policy == "each" && spec.config.batch != 1) {
        error.message = "--policy each returns every credit at once, so --K " + std::to_string(spec.config.batch) +
                        " contradicts it: drop --K or use --policy batch";
        return std::nullopt;
    }
    if (spec.config.policy != ReturnPolicy::hybrid && (low->count() || idle->count())) {
        error.message = "--low and --idle tune the hybrid policy: add --policy hybrid";
        return std::nullopt;
    }
    if (spec.config.policy == ReturnPolicy::hybrid) {
        if (!low->count()) spec.config.low_credits = std::min(spec.config.batch, spec.config.buffer_slots);
        if (!idle->count()) spec.config.idle_cycles = kDefaultIdleCycles;
    }
    if (auto problem = validate(spec)) {
        error.message = *problem;
        return std::nullopt;
    }
    if (cmd.model_only && (!cmd.waves.empty() || !cmd.plusargs.empty())) {
        error.message = "--waves and --plusarg need the RTL: drop --model";
        return std::nullopt;
    }
    if (cmd.rtl_options.any() && cmd.rtl_dir.empty()) {
        error.message = "--incdir, --define and --file-list go with --rtl (a map names its own sources)";
        return std::nullopt;
    }
    if (cmd.model_only && (!cmd.link_map.empty() || !cmd.counter_file.empty() || !cmd.return_file.empty() || !cmd.rtl_dir.empty())) {
        error.message = "--model checks the golden model alone: drop --link, --counter, --return and --rtl (or --model)";
        return std::nullopt;
    }
    return cmd;
}

std::optional<RegressCommand> parse_regress(const std::vector<std::string>& args, ParseError& error) {
    RegressCommand cmd;
    CLI::App app{"The regression (make sim): every seed configuration on the RTL, seeded random traffic, SystemC.",
                 "creditloop regress"};
    add_test_selection(app, cmd.filter, cmd.seed, cmd.waves_dir, cmd.jobs, "tests");
    add_flag(app, "--waves", cmd.waves, "waves for every test, not only failing ones");
    add_flag(app, "--fst", cmd.fst, "FST waves instead of VCD");
    app.add_option("--junit", cmd.junit, "JUnit XML")->capture_default_str();
    add_flag(app, "--list", cmd.list, "list the tests and exit");
    add_flag(app, "--systemc", cmd.systemc,
             "the systemc/ tests too: runs of the others repeated under the SystemC harness (a filter that names systemc selects them too)");
    app.add_option("--log-level", cmd.log_level, "off|error|warn|info|debug")->check(log_level());
    app.add_option("--rtl", cmd.rtl_dir, "your own RTL instead of rtl/ (as for run)");
    add_rtl_options(app, cmd.rtl_options);
    app.add_option("--counter", cmd.counter_file, "your own credit counter (.sv, or a .json port map)");
    add_flag(app, "--werror", cmd.werror, "warnings in your own RTL stop the run");
    app.add_option("--link", cmd.link_map, "a link of your own: a .json map of its sender and receiver");
    app.add_option("--return", cmd.return_file, "your own return logic");
    app.add_option("--mutant", cmd.mutant, "PATH.mutant: a patch of a file of your map (--counter, --link or --rtl MAP), "
                                           "applied to it for every test");
    std::string shard;
    app.add_option("--shard", shard, "I/N: only every Nth selected test from the Ith (a cluster's slice; merge them with creditloop merge)");
    app.add_option("--rerun-failed", cmd.rerun_failed, "a JUnit file of an earlier run: only its tests that did not pass (make sim RERUN=failed)");
    app.add_option("--report", cmd.report_dir, "DIR: the HTML report (DIR/index.html) beside the JUnit file's results");
    if (!parse_command(app, args, error)) return std::nullopt;
    if (!cmd.report_dir.empty()) error.message = report_folder_problem(cmd.report_dir, false);
    if (!error.message.empty()) return std::nullopt;
    if (cmd.rtl_options.any() && cmd.rtl_dir.empty()) {
        error.message = "--incdir, --define and --file-list go with --rtl (a map names its own sources)";
        return std::nullopt;
    }
    if (!shard.empty()) {
        const auto slash = shard.find('/');
        const auto whole = [](const std::string& text, int& out) {
            if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos) return false;
            out = std::stoi(text);
            return true;
        };
        if (slash == std::string::npos || !whole(shard.substr(0, slash), cmd.shard) ||
            !whole(shard.substr(slash + 1), cmd.shards) || cmd.shards < 1 || cmd.shard < 1 || cmd.shard > cmd.shards) {
            error.message = "--shard '" + shard + "': write I/N with 1 <= I <= N (e.g. --shard 2/4)";
            return std::nullopt;
        }
    }
    return cmd;
}

std::optional<MergeCommand> parse_merge(const std::vector<std::string>& args, ParseError& error) {
    MergeCommand cmd;
    CLI::App app{"Merge the JUnit files (and coverage) of one regression's shards (creditloop regress --shard I/N).",
                 "creditloop merge"};
    app.add_option("--junit", cmd.junit, "the merged JUnit file (its coverage JSON is written beside it)")->required();
    add_flag(app, "--force", cmd.force, "replace an existing merged file");
    app.add_option("shards", cmd.shards, "the shards' JUnit files, every shard once")->required();
    if (!parse_command(app, args, error)) return std::nullopt;
    return cmd;
}

std::optional<MutantsCommand> parse_mutants(const std::vector<std::string>& args, ParseError& error) {
    MutantsCommand cmd;
    CLI::App app{"The regression's mutation stimulus against every buggy variant in rtl/mutants/: a kill table.",
                 "creditloop mutants"};
    add_test_selection(app, cmd.filter, cmd.seed, cmd.waves_dir, cmd.jobs, "mutants");
    app.add_option("--emit", cmd.emit_dir,
                   "write each mutant applied to its live block to DIR/<name>.sv and stop (what a build verilates)");
    return parse_command(app, args, error) ? std::optional<MutantsCommand>(cmd) : std::nullopt;
}

std::optional<std::string> systemc_refuses(const RunCommand& cmd) {
    if (cmd.model_only || !cmd.waves.empty() || !cmd.rtl_dir.empty() || !cmd.counter_file.empty() ||
        !cmd.return_file.empty() || !cmd.mutant.empty() || !cmd.link_map.empty() || !cmd.plusargs.empty())
        return std::string("--systemc runs the checkout's RTL under SystemC: drop --model, --waves, --rtl, "
                           "--counter, --return, --link, --mutant and --plusarg (the C++ harness takes them)");
    return std::nullopt;
}

std::vector<std::string> systemc_command(const std::string& harness, const RunSpec& spec) {
    std::vector<std::string> argv = {harness, "run"};
    std::istringstream words(run_arguments(spec));
    for (std::string word; words >> word;) argv.push_back(word);
    return argv;
}

int hand_over_to_systemc(const std::string& harness, const std::string& error, std::vector<std::string> argv,
                         bool json, const std::string& log_level) {
    if (harness.empty()) return refuse(error, 3);
    if (json) argv.push_back("--json");
    argv.push_back("--log-level");
    argv.push_back(log_level);
    const std::string problem = exec_program(argv);   // returns only when the harness did not start
    std::cerr << "creditloop: " << problem << "\n";
    return 3;
}

std::string run_arguments(const RunSpec& spec) {
    std::ostringstream out;
    const LinkConfig& c = spec.config;
    out << "--L " << c.stages << " --B " << c.buffer_slots << " --K " << c.batch;
    if (c.payload_bits != 32) out << " --W " << c.payload_bits;
    if (c.sync_stages) out << " --sync " << c.sync_stages;
    if (c.free_delay) out << " --free-delay " << c.free_delay;
    if (spec.stimulus.replay) {
        out << " --replay " << spec.stimulus.replay_file;
    } else {
        out << " --cycles " << spec.cycles << " --seed " << spec.stimulus.seed;
    }
    if (spec.stimulus.replay) {
    } else if (spec.stimulus.traffic.kind != TrafficKind::saturating)
        out << " --traffic " << describe(spec.stimulus.traffic);
    if (spec.stimulus.replay) {
    } else if (spec.stimulus.drain.kind == DrainKind::every_nth)
        out << " --drain-every " << spec.stimulus.drain.period;
    else
        out << " --drain-stall " << exact_number(spec.stimulus.drain.stall_probability);
    if (spec.stimulus.flush_probability > 0.0) out << " --flush " << exact_number(spec.stimulus.flush_probability);
    if (spec.stimulus.reverse_load > 0.0) out << " --reverse-load " << exact_number(spec.stimulus.reverse_load);
    if (c.policy == ReturnPolicy::hybrid)
        out << " --policy hybrid --low " << c.low_credits << " --idle " << c.idle_cycles;
    if (c.flush_timeout) out << " --timeout " << c.flush_timeout;
    if (spec.stimulus.reset_every) out << " --reset-every " << spec.stimulus.reset_every;
    if (spec.stimulus.reset_tx_at) out << " --reset-sender-at " << *spec.stimulus.reset_tx_at;
    if (spec.stimulus.reset_rx_at) out << " --reset-receiver-at " << *spec.stimulus.reset_rx_at;
    if (spec.declared_full_rate) out << " --full-rate";
    if (c.rtl_full_rate) out << " --rtl-full-rate";
    if (c.recovery) out << " --recovery --total-bits " << c.total_bits << " --resend " << c.resend_period;
    const FaultSpec& f = spec.faults;
    if (f.drop_probability > 0.0) out << " --drop " << exact_number(f.drop_probability);
    if (f.drop_at) out << " --drop-at " << *f.drop_at;
    if (f.drop_every) out << " --drop-every " << f.drop_every;
    if (f.corrupt_probability > 0.0) out << " --corrupt " << exact_number(f.corrupt_probability);
    if (f.corrupt_at) out << " --corrupt-at " << *f.corrupt_at;
    if ((f.corrupt_probability > 0.0 || f.corrupt_at) && f.corrupt_add != 1) out << " --corrupt-add " << f.corrupt_add;
    return out.str();
}

}  // namespace creditloop
