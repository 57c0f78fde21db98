#include "soak.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "cli_parse.h"
#include "dut_library.h"
#include "interrupt.h"
#include "report.h"
#include "link_run.h"

namespace creditloop {

namespace {

// Resident memory now, in KiB (/proc/self/statm's second field, in pages).
long resident_kib() {
    std::ifstream statm("/proc/self/statm");
    long size = 0, resident = 0;
    statm >> size >> resident;
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

// Samples resident memory every `every` cycles and prints progress: the hook the run loop calls.
class MemoryProbe final : public RunHooks {
public:
    MemoryProbe(uint64_t cycles, uint64_t every, long leak_kib) : cycles_(cycles), every_(every), leak_kib_(leak_kib) {}
    void pre_run(const RunSpec&) override { start_time_ = std::chrono::steady_clock::now(); }
    void on_cycle(const Observation&, const Observation&) override {
        if (++cycle_ % every_ != 0) return;
        if (leak_kib_) {
            // The flatness check's own test: memory the run holds and never gives back.
            leaked_.emplace_back(static_cast<size_t>(leak_kib_) * 1024, '\1');
        }
        const long now = resident_kib();
        // The first sample is the start: the plugin loaded, the loop and its scoreboards warm.
        if (samples_ == 0) start_kib_ = now;
        peak_kib_ = std::max(peak_kib_, now);
        end_kib_ = now;
        ++samples_;
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time_).count();
        // Redrawn in place on a terminal; one plain line a sample in a log (a sample is every 2^24
        // cycles, some 4 s), never a stream of carriage returns.
        const std::string line = fmt::format("soak: {:5.1f} % of {} cycles, {:.2f} M cycles/s, resident {} KiB",
                                             100.0 * static_cast<double>(cycle_) / static_cast<double>(cycles_), cycles_,
                                             static_cast<double>(cycle_) / seconds / 1e6, now);
        if (terminal_) std::cerr << "\r" << line << "   " << std::flush;
        else std::cerr << line << "\n" << std::flush;
    }
    void post_run() override {
        end_kib_ = resident_kib();
        peak_kib_ = std::max(peak_kib_, end_kib_);
        if (samples_ == 0) start_kib_ = end_kib_;
        if (terminal_ && samples_) std::cerr << "\n";
    }
    long start_kib_ = 0, end_kib_ = 0, peak_kib_ = 0;
    uint64_t samples_ = 0;

private:
    uint64_t cycles_, every_, cycle_ = 0;
    long leak_kib_;
    bool terminal_ = isatty(STDERR_FILENO) != 0;
    std::vector<std::string> leaked_;
    std::chrono::steady_clock::time_point start_time_;
};

}  // namespace

int run_soak(const std::vector<std::string>& args) {
    RunSpec spec;
    spec.cycles = 1'000'000'000;
    spec.config.stages = 4;
    spec.config.buffer_slots = 12;
    spec.config.batch = 3;
    // Every kind of event the stimulus has, at once: bursty offers, a consumer that stalls,
    // flushes, reverse traffic on the shared return path, and resets of the whole link.
    spec.stimulus.traffic.kind = TrafficKind::bernoulli;
    spec.stimulus.traffic.rate = 0.8;
    spec.stimulus.drain.kind = DrainKind::random_stalls;
    spec.stimulus.drain.stall_probability = 0.2;
    spec.stimulus.flush_probability = 0.02;
    spec.stimulus.reverse_load = 0.2;
    spec.stimulus.reset_every = 1'000'003;
    long tolerance_kib = 1024;
    bool json = false;
    CLI::App app{"A soak (make soak): 10^9 cycles of random traffic with resets, RTL and model in lockstep, memory sampled.",
                 "creditloop soak"};
    app.add_option("--cycles", spec.cycles, "cycles to run")->check(whole_number(1'000'000, 1'000'000'000'000LL))->capture_default_str();
    app.add_option("--seed", spec.stimulus.seed, "stimulus seed")->check(whole_number(0, 4'294'967'295LL))->capture_default_str();
    add_link_options(app, spec.config.stages, spec.config.buffer_slots, &spec.config.batch);
    app.add_option("--reset-every", spec.stimulus.reset_every, "reset both ends every N cycles")
        ->check(whole_number(1000, 1'000'000'000'000LL))->capture_default_str();
    app.add_option("--tolerance-kib", tolerance_kib, "growth of resident memory from start to end still called flat")
        ->check(whole_number(0, 1 << 20))->capture_default_str();
    add_flag(app, "--json", json, "print one JSON object at the end");
    long leak_kib = 0;
    app.add_option("--inject-leak-kib", leak_kib, "test of the check: hold N KiB more at every memory sample")
        ->check(whole_number(0, 1 << 20))
        ->group("");   // hidden: the test of the flatness check uses it
    ParseError error;
    if (!parse_command(app, args, error)) return parse_failed(error);
    if (const auto problem = validate(spec)) return refuse(*problem);

    install_interrupt_handlers();   // a Ctrl-C during the build is answered once it ends
    DutSources sources = DutSources::from_environment();
    sources.solo = true;   // a plugin of its own at -O2 (dut_library.h)
    std::string build_error;
    const auto library = DutLibrary::load(spec.config, sources, build_error);
    if (!library && interrupt_requested()) return 128 + interrupt_signal();
    if (!library) {
        std::cerr << "creditloop soak: " << build_error << "\n";
        return 3;
    }
    // A sample every 2^24 cycles (sixty over 10^9), or at least eight over a short soak.
    MemoryProbe probe(spec.cycles, std::min<uint64_t>(1u << 24, std::max<uint64_t>(spec.cycles / 8, 1)), leak_kib);
    RunOptions options;
    options.hooks.push_back(&probe);
    std::cerr << "soak: " << describe(spec) << "\n";
    const auto start = std::chrono::steady_clock::now();
    RunResult result;
    {
        auto dut = library->create();
        result = run_link(dut.get(), spec, options);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double rate = static_cast<double>(result.cycles) / seconds;
    const long growth = probe.end_kib_ - probe.start_kib_;
    const bool flat = growth <= tolerance_kib;
    if (json) {
        nlohmann::ordered_json out;
        out["cycles"] = result.cycles;
        out["seconds"] = seconds;
        out["cycles_per_second"] = rate;
        out["resident_start_kib"] = probe.start_kib_;
        out["resident_end_kib"] = probe.end_kib_;
        out["resident_peak_kib"] = probe.peak_kib_;
        out["flat"] = flat;
        out["passed"] = result.passed;
        out["interrupted"] = result.interrupted;
        std::cout << out.dump() << "\n";
    } else {
        std::cout << fmt::format("soak: {} cycles in {:.1f} s: {:.2f} M cycles/s\n", result.cycles, seconds, rate / 1e6)
                  << fmt::format("soak: resident memory {} KiB at the start, {} KiB at the end, {} KiB at most: {}\n",
                                 probe.start_kib_, probe.end_kib_, probe.peak_kib_,
                                 flat ? "flat" : fmt::format("grew by {} KiB (more than {} KiB)", growth, tolerance_kib))
                  << "soak: " << (result.interrupted ? "interrupted" : result.passed ? "every check passed" : "FAILED") << "\n";
        if (const Violation* v = result.first_violation()) std::cout << "  first violation: " << violation_line(*v) << "\n";
    }
    if (result.interrupted) return 128 + interrupt_signal();
    return result.passed && flat ? 0 : 1;
}

}  // namespace creditloop
