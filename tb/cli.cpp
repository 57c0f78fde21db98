#include "cli.h"

#include "mutants.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace creditloop {

const char* const kUsage =
    "usage: creditloop run [options]      check one configuration of the link against the model\n"
    "       creditloop regress [options]  the regression (make sim)\n"
    "       creditloop mutants [options]  the regression against every mutant in rtl/mutants/ (make mutants)\n"
    "       creditloop size [options]     the buffer a link needs, in bytes and credits (size --help)\n"
    "       creditloop sweep [options]    throughput against B: CSV and SVG, RTL cross-checked (sweep --help)\n"
    "       creditloop policies [options] return policies against reverse load, a Markdown table (policies --help)\n"
    "\n"
    "run options:\n"
    "  --L N              stages each way (1..1024, default 4)\n"
    "  --B N              receiver slots = credits (1..4096, default 12)\n"
    "  --K N              return batch (1..B, default 1)\n"
    "  --W N              payload bits (1..32, default 32)\n"
    "  --sync N           synchroniser stages a clock-domain crossing adds to the return path (0..64)\n"
    "  --free-delay N     the receiver frees a slot N cycles after its flit leaves (0..64)\n"
    "  --cycles N         cycles to run (default 6000; window = second half)\n"
    "  --seed N           stimulus seed (default 1)\n"
    "  --traffic T        saturate | bernoulli:P | bursts:ON:OFF (default saturate)\n"
    "  --drain-every N    consumer drains when cycle % N == 0 (default 1)\n"
    "  --drain-stall Q    consumer stalls at random with probability Q instead\n"
    "  --flush P          tell the return logic to flush its pending credits, with probability P\n"
    "  --reverse-load P   the return path is shared: reverse traffic holds it with probability P\n"
    "                     each cycle (0 <= P < 1); credit messages wait for a free cycle\n"
    "  --policy P         each | batch | hybrid (default batch; each is batch with K = 1)\n"
    "  --low N            hybrid: flush when the sender may hold N credits or fewer (default K)\n"
    "  --idle N           hybrid: flush when the return path was free N cycles running (default 2)\n"
    "  --timeout N        a credit waits at most N cycles for its batch (default 0: no limit)\n"
    "  --reset-every N    reset both ends together every N cycles, mid-traffic\n"
    "  --reset-sender-at C    reset the sender end alone in cycle C (with --reset-receiver-at C: both)\n"
    "  --reset-receiver-at C  reset the receiver end alone in cycle C\n"
    "  --full-rate        declare the link full rate: the sizing check fails below 1 flit/cycle\n"
    "  --rtl-full-rate    build the RTL with FULL_RATE = 1: its elaboration-time sizing assertion\n"
    "                     refuses a B that does not cover 2L + 2 + K - 1\n"
    "  --model            check the golden model alone (no RTL)\n"
    "  --systemc          the RTL verilated with --sc under an sc_clock (the same checks)\n"
    "  --json             print one JSON object\n"
    "  --waves PATH       waveform of the whole run (.vcd, or .fst with --fst)\n"
    "  --force            overwrite an existing --waves file\n"
    "  --log-level L      off|error|warn|info|debug (debug prints every cycle)\n"
    "  --rtl DIR          your own RTL: every .sv in DIR, top credit_link in credit_link.sv\n"
    "  --counter FILE     your own credit counter (seed 002's chi_credit_counter ports)\n"
    "  --return FILE      your own credit-return logic (rtl/credit_return.sv's ports)\n"
    "  --mutant NAME      a buggy variant from rtl/mutants/ in place of its block\n"
    "\n"
    "regress options:\n"
    "  --filter PATTERN   only tests whose name matches (glob with * ?, else substring)\n"
    "  --seed N           seed for the random tests (default 1)\n"
    "  --waves            waves for every test, not only failing ones\n"
    "  --fst              FST waves instead of VCD\n"
    "  --junit PATH       JUnit XML (default build/results.xml)\n"
    "  --waves-dir DIR    where failing tests' waves go (default waves)\n"
    "  --jobs N           tests and builds in parallel (default 2)\n"
    "  --list             list the tests and exit\n"
    "  --rtl DIR          your own RTL instead of rtl/ (as for run)\n"
    "  --counter FILE     your own credit counter; --return FILE your own return logic\n"
    "\n"
    "mutants options:\n"
    "  --filter PATTERN   only these mutants (file stem, glob or substring)\n"
    "  --seed N           stimulus seed (default 1)\n"
    "  --waves-dir DIR    where the killing runs' waves go (default waves/mutants)\n"
    "  --jobs N           builds in parallel (default 2)\n";

namespace {

// A probability option: 0 <= value <= 1 (or < 1 when one is not allowed).
bool probability(ArgReader& r, const std::string& opt, const char* symbol, bool one_allowed, double& out,
                 ParseError& error) {
    std::string text;
    if (!r.value(opt, text)) return false;
    char* end = nullptr;
    const double p = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(p >= 0.0 && (one_allowed ? p <= 1.0 : p < 1.0))) {
        error.message = opt + " " + text + " is out of range: allowed 0 <= " + symbol + (one_allowed ? " <= 1" : " < 1");
        return false;
    }
    out = p;
    return true;
}

}  // namespace

std::optional<RunCommand> parse_run(const std::vector<std::string>& args, ParseError& error) {
    RunCommand cmd;
    RunSpec& spec = cmd.spec;
    ArgReader r(args, error);
    long long v = 0;
    bool have_every = false, have_stall = false, policy_each = false, have_low = false, have_idle = false;
    while (!r.done()) {
        const std::string opt = r.option();
        // Parameter ranges that depend on each other (K <= B) are checked after parsing.
        if (opt == "--L") {
            if (!r.integer(opt, 1, kMaxStages, v, " (stages each way)")) return std::nullopt;
            spec.config.stages = static_cast<int>(v);
        } else if (opt == "--B") {
            if (!r.integer(opt, 1, kMaxBufferSlots, v, " (receiver slots)")) return std::nullopt;
            spec.config.buffer_slots = static_cast<int>(v);
        } else if (opt == "--K") {
            if (!r.integer(opt, 1, kMaxBufferSlots, v, " and at most B (return batch)")) return std::nullopt;
            spec.config.batch = static_cast<int>(v);
        } else if (opt == "--W") {
            if (!r.integer(opt, 1, kMaxPayloadBits, v, " (payload bits)")) return std::nullopt;
            spec.config.payload_bits = static_cast<int>(v);
        } else if (opt == "--sync") {
            if (!r.integer(opt, 0, kMaxSyncStages, v, " (synchroniser stages on the return path)")) return std::nullopt;
            spec.config.sync_stages = static_cast<int>(v);
        } else if (opt == "--free-delay") {
            if (!r.integer(opt, 0, kMaxFreeDelay, v, " (cycles from pop to the slot being freed)")) return std::nullopt;
            spec.config.free_delay = static_cast<int>(v);
        } else if (opt == "--cycles") {
            if (!r.integer(opt, 1, 100000000000LL, v, "")) return std::nullopt;
            spec.cycles = static_cast<uint64_t>(v);
        } else if (opt == "--seed") {
            if (!r.integer(opt, 0, 0x7FFFFFFFFFFFFFFFLL, v, "")) return std::nullopt;
            spec.stimulus.seed = static_cast<uint64_t>(v);
        } else if (opt == "--traffic") {
            std::string text;
            if (!r.value(opt, text)) return std::nullopt;
            std::string message;
            auto traffic = parse_traffic(text, message);
            if (!traffic) {
                error.message = message;
                return std::nullopt;
            }
            spec.stimulus.traffic = *traffic;
        } else if (opt == "--drain-every") {
            if (!r.integer(opt, 1, 1000000, v, " (1 drains every cycle)")) return std::nullopt;
            spec.stimulus.drain.kind = DrainKind::every_nth;
            spec.stimulus.drain.period = static_cast<int>(v);
            have_every = true;
        } else if (opt == "--drain-stall") {
            if (!probability(r, opt, "Q", false, spec.stimulus.drain.stall_probability, error)) return std::nullopt;
            spec.stimulus.drain.kind = DrainKind::random_stalls;
            have_stall = true;
        } else if (opt == "--flush") {
            if (!probability(r, opt, "P", true, spec.stimulus.flush_probability, error)) return std::nullopt;
        } else if (opt == "--reverse-load") {
            // 1 would block the return path for good: the link would deadlock, not run slowly.
            if (!probability(r, opt, "P", false, spec.stimulus.reverse_load, error)) return std::nullopt;
        } else if (opt == "--policy") {
            std::string text;
            if (!r.value(opt, text)) return std::nullopt;
            if (text == "batch" || text == "each") {
                spec.config.policy = ReturnPolicy::batch;
                policy_each = text == "each";
            } else if (text == "hybrid") {
                spec.config.policy = ReturnPolicy::hybrid;
            } else {
                error.message = "--policy " + text + " is not a return policy; allowed: each, batch, hybrid";
                return std::nullopt;
            }
        } else if (opt == "--low") {
            if (!r.integer(opt, 0, kMaxBufferSlots, v, " and at most B (hybrid: sender-low threshold)")) return std::nullopt;
            spec.config.low_credits = static_cast<int>(v);
            have_low = true;
        } else if (opt == "--idle") {
            if (!r.integer(opt, 1, kMaxIdleCycles, v, " (hybrid: cycles without reverse traffic)")) return std::nullopt;
            spec.config.idle_cycles = static_cast<int>(v);
            have_idle = true;
        } else if (opt == "--timeout") {
            if (!r.integer(opt, 0, kMaxFlushTimeout, v, " (0: no flush timeout)")) return std::nullopt;
            spec.config.flush_timeout = static_cast<int>(v);
        } else if (opt == "--reset-every") {
            if (!r.integer(opt, 0, 100000000000LL, v, " cycles (0: never)")) return std::nullopt;
            spec.stimulus.reset_every = static_cast<uint64_t>(v);
        } else if (opt == "--reset-sender-at") {
            if (!r.integer(opt, 0, 100000000000LL, v, " (a cycle of the run)")) return std::nullopt;
            spec.stimulus.reset_tx_at = static_cast<uint64_t>(v);
        } else if (opt == "--reset-receiver-at") {
            if (!r.integer(opt, 0, 100000000000LL, v, " (a cycle of the run)")) return std::nullopt;
            spec.stimulus.reset_rx_at = static_cast<uint64_t>(v);
        } else if (opt == "--full-rate") {
            if (!r.flag_has_no_value(opt)) return std::nullopt;
            spec.declared_full_rate = true;
        } else if (opt == "--rtl-full-rate") {
            if (!r.flag_has_no_value(opt)) return std::nullopt;
            spec.config.rtl_full_rate = true;
        } else if (opt == "--systemc") {
            if (!r.flag_has_no_value(opt)) return std::nullopt;
            cmd.systemc = true;
        } else if (opt == "--model") {
            if (!r.flag_has_no_value(opt)) return std::nullopt;
            cmd.model_only = true;
        } else if (opt == "--json") {
            if (!r.flag_has_no_value(opt)) return std::nullopt;
            cmd.json = true;
        } else if (opt == "--waves") {
            if (!r.value(opt, cmd.waves)) return std::nullopt;
        } else if (opt == "--fst") {
            if (!r.flag_has_no_value(opt)) return std::nullopt;
            cmd.fst = true;
        } else if (opt == "--force") {
            if (!r.flag_has_no_value(opt)) return std::nullopt;
            cmd.force = true;
        } else if (opt == "--log-level") {
            if (!r.value(opt, cmd.log_level)) return std::nullopt;
        } else if (opt == "--rtl") {
            if (!r.value(opt, cmd.rtl_dir)) return std::nullopt;
        } else if (opt == "--counter") {
            if (!r.value(opt, cmd.counter_file)) return std::nullopt;
        } else if (opt == "--return") {
            if (!r.value(opt, cmd.return_file)) return std::nullopt;
        } else if (opt == "--mutant") {
            if (!r.value(opt, cmd.mutant)) return std::nullopt;
        } else {
            error.message = "unknown option '" + opt + "' for 'creditloop run': see 'creditloop --help'";
            return std::nullopt;
        }
    }
    if (have_every && have_stall) {
        error.message = "--drain-every and --drain-stall exclude each other: give one drain pattern";
        return std::nullopt;
    }
    if (policy_each && spec.config.batch != 1) {
        error.message = "--policy each returns every credit at once, so --K " + std::to_string(spec.config.batch) +
                        " contradicts it: drop --K or use --policy batch";
        return std::nullopt;
    }
    if (spec.config.policy != ReturnPolicy::hybrid && (have_low || have_idle)) {
        error.message = "--low and --idle tune the hybrid policy: add --policy hybrid";
        return std::nullopt;
    }
    if (spec.config.policy == ReturnPolicy::hybrid) {
        if (!have_low) spec.config.low_credits = std::min(spec.config.batch, spec.config.buffer_slots);
        if (!have_idle) spec.config.idle_cycles = kDefaultIdleCycles;
    }
    if (auto problem = validate(spec)) {
        error.message = *problem;
        return std::nullopt;
    }
    if (cmd.model_only && !cmd.waves.empty()) {
        error.message = "--waves needs the RTL: drop --model";
        return std::nullopt;
    }
    return cmd;
}

namespace {

enum class Handled { no, yes, failed };

// The options regress and mutants share: which tests, which seed, where waves go, how many jobs.
Handled test_selection(ArgReader& r, const std::string& opt, std::string& filter, uint64_t& seed,
                       std::string& waves_dir, int& jobs) {
    long long v = 0;
    bool ok = true;
    if (opt == "--filter") {
        ok = r.value(opt, filter);
    } else if (opt == "--seed") {
        ok = r.integer(opt, 0, 0x7FFFFFFFFFFFFFFFLL, v, "");
        if (ok) seed = static_cast<uint64_t>(v);
    } else if (opt == "--waves-dir") {
        ok = r.value(opt, waves_dir);
    } else if (opt == "--jobs") {
        ok = r.integer(opt, 1, 64, v, "");
        if (ok) jobs = static_cast<int>(v);
    } else {
        return Handled::no;
    }
    return ok ? Handled::yes : Handled::failed;
}

}  // namespace

std::optional<RegressCommand> parse_regress(const std::vector<std::string>& args, ParseError& error) {
    RegressCommand cmd;
    ArgReader r(args, error);
    while (!r.done()) {
        const std::string opt = r.option();
        if (const Handled h = test_selection(r, opt, cmd.filter, cmd.seed, cmd.waves_dir, cmd.jobs);
            h != Handled::no) {
            if (h == Handled::failed) return std::nullopt;
        } else if (opt == "--waves") {
            if (!r.flag_has_no_value(opt)) return std::nullopt;
            cmd.waves = true;
        } else if (opt == "--fst") {
            if (!r.flag_has_no_value(opt)) return std::nullopt;
            cmd.fst = true;
        } else if (opt == "--junit") {
            if (!r.value(opt, cmd.junit)) return std::nullopt;
        } else if (opt == "--list") {
            if (!r.flag_has_no_value(opt)) return std::nullopt;
            cmd.list = true;
        } else if (opt == "--log-level") {
            if (!r.value(opt, cmd.log_level)) return std::nullopt;
        } else if (opt == "--rtl") {
            if (!r.value(opt, cmd.rtl_dir)) return std::nullopt;
        } else if (opt == "--counter") {
            if (!r.value(opt, cmd.counter_file)) return std::nullopt;
        } else if (opt == "--return") {
            if (!r.value(opt, cmd.return_file)) return std::nullopt;
        } else {
            error.message = "unknown option '" + opt + "' for 'creditloop regress': see 'creditloop --help'";
            return std::nullopt;
        }
    }
    return cmd;
}

std::optional<MutantsCommand> parse_mutants(const std::vector<std::string>& args, ParseError& error) {
    MutantsCommand cmd;
    ArgReader r(args, error);
    while (!r.done()) {
        const std::string opt = r.option();
        const Handled h = test_selection(r, opt, cmd.filter, cmd.seed, cmd.waves_dir, cmd.jobs);
        if (h == Handled::failed) return std::nullopt;
        if (h == Handled::no) {
            error.message = "unknown option '" + opt + "' for 'creditloop mutants': see 'creditloop --help'";
            return std::nullopt;
        }
    }
    return cmd;
}

std::optional<std::string> systemc_refuses(const RunCommand& cmd) {
    if (cmd.model_only || !cmd.waves.empty() || !cmd.rtl_dir.empty() || !cmd.counter_file.empty() ||
        !cmd.return_file.empty() || !cmd.mutant.empty())
        return std::string("--systemc runs the checkout's RTL under SystemC: drop --model, --waves, --rtl, "
                           "--counter, --return and --mutant (the C++ harness takes them)");
    return std::nullopt;
}

std::vector<std::string> systemc_command(const std::string& harness, const RunSpec& spec) {
    std::vector<std::string> argv = {harness, "run"};
    std::istringstream words(run_arguments(spec));
    for (std::string word; words >> word;) argv.push_back(word);
    return argv;
}

std::string run_arguments(const RunSpec& spec) {
    std::ostringstream out;
    const LinkConfig& c = spec.config;
    out << "--L " << c.stages << " --B " << c.buffer_slots << " --K " << c.batch;
    if (c.payload_bits != 32) out << " --W " << c.payload_bits;
    if (c.sync_stages) out << " --sync " << c.sync_stages;
    if (c.free_delay) out << " --free-delay " << c.free_delay;
    out << " --cycles " << spec.cycles << " --seed " << spec.stimulus.seed;
    if (spec.stimulus.traffic.kind != TrafficKind::saturating)
        out << " --traffic " << describe(spec.stimulus.traffic);
    if (spec.stimulus.drain.kind == DrainKind::every_nth)
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
    return out.str();
}

}  // namespace creditloop
