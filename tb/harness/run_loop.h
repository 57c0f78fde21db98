// The loop every checked run shares, whatever the link's width: the verdict's fields, the cycles
// with their waves window, Ctrl-C and the stop after the first violation, and the verdict settled
// from the scoreboards' records. run_link (one channel) and run_channels (any number) each give
// it their cycle, one call per cycle; nothing else of the loop is theirs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "faults.h"
#include "interrupt.h"
#include "scoreboard.h"
#include "verilated_fatal.h"

namespace creditloop {

struct ScoreboardReport {
    std::string name;
    std::string summary;
    uint64_t cycles_checked = 0;
    uint64_t violations = 0;
};

// What every checked run reports, before the figures of its kind of link.
struct RunVerdict {
    std::string source;                     // "rtl" or "model": whose observations were checked
    uint64_t cycles = 0;                    // cycles run (fewer than asked when stopped early)
    uint64_t window_start = 0;              // the seeds' steady-state window: [cycles/2, cycles)
    std::vector<ScoreboardReport> scoreboards;
    std::vector<Violation> violations;      // every scoreboard's records, by cycle
    uint64_t violation_count = 0;
    std::optional<uint64_t> first_violation_cycle;
    std::optional<uint64_t> rtl_assertion_cycle;   // first failed RTL assertion
    RtlStop rtl_assertion;                  // which one, where and its message (where empty: unknown)
    std::optional<Violation> rtl_fatal;     // the verilated model stopped (VerilatedFatal): the run ended there
    std::vector<InjectedFault> faults;      // every fault injected, in order
    uint64_t return_messages = 0;           // messages that reached the sender (faulted or not)
    std::string trace_error;                // the waves could not be written (a full disk): what went wrong
    bool interrupted = false;               // stopped early by Ctrl-C or SIGTERM (interrupt.h): not a verdict
    bool passed = false;
    const Violation* first_violation() const { return violations.empty() ? nullptr : &violations.front(); }
};

struct LoopOptions {
    // Waveform: traced from cycle trace_from on (the failure window), into trace_path.
    std::string trace_path;
    uint64_t trace_from = 0;
    // Stop this many cycles after the first violation (none: run to the end).
    std::optional<uint64_t> stop_after_violation;
};

// The violation rtl.fatal for a fatal error of the verilated model in `cycle`, in the user's
// terms: what stopped it, where Verilator says, and for a loop that does not settle its likely
// causes.
Violation fatal_violation(uint64_t cycle, const VerilatedFatal& fatal);

// Reset `dut` (nullptr: the model alone), then run `one_cycle(cycle)` for up to `cycles` cycles:
// the waves open at options.trace_from and close at the end, Ctrl-C stops within 4,096 cycles,
// and the run ends options.stop_after_violation cycles after any of `boards` first fails. Sets
// the verdict's cycles, interrupted and trace_error (the first waves error, also passed to
// `on_trace_error`). A fatal error of the verilated model ends the run in its cycle (rtl_fatal).
template <class Dut, class Cycle, class TraceError>
void run_cycles(Dut* dut, uint64_t cycles, const LoopOptions& options, const std::vector<ViolationLog*>& boards,
                RunVerdict& verdict, Cycle&& one_cycle, TraceError&& on_trace_error) {
    std::optional<uint64_t> stop_at;
    uint64_t cycle = 0;
    if (rtl_stop_record) *rtl_stop_record() = {};
    try {
        if (dut) dut->reset();
        for (; cycle < cycles; ++cycle) {
            if (dut && !options.trace_path.empty() && cycle == options.trace_from) {
                verdict.trace_error = dut->open_trace(options.trace_path);
                if (!verdict.trace_error.empty()) on_trace_error(verdict.trace_error);
            }
            // Ctrl-C: stop within a few thousand cycles (the check costs nothing in between).
            if ((cycle & 4095) == 0 && interrupt_requested()) {
                verdict.interrupted = true;
                break;
            }
            one_cycle(cycle);
            if (options.stop_after_violation && !stop_at &&
                std::any_of(boards.begin(), boards.end(), [](const ViolationLog* b) { return !b->ok(); }))
                stop_at = cycle + *options.stop_after_violation;
            if (stop_at && cycle >= *stop_at) {
                ++cycle;
                break;
            }
        }
    } catch (const VerilatedFatal& fatal) {
        verdict.rtl_fatal = fatal_violation(cycle, fatal);
        if (cycle < cycles) ++cycle;   // the cycle it happened in was run, as far as it went
    }
    verdict.cycles = cycle;
    for (ViolationLog* board : boards) board->finish();
    if (dut) {
        const std::string error = dut->close_trace();
        if (verdict.trace_error.empty()) verdict.trace_error = error;
        verdict.rtl_assertion_cycle = dut->first_assertion_cycle();
        if (verdict.rtl_assertion_cycle && rtl_stop_record) verdict.rtl_assertion = *rtl_stop_record();
    }
}

// A failed assertion of the RTL in the user's terms: its scope inside the design (instances and
// label, the harness's levels left out), and "the design's assertion <scope> at <file:line>".
std::string design_scope(const RtlStop& stop);
std::string design_assertion(const RtlStop& stop);

// The verdict from the scoreboards' records and the RTL's own assertions (named after `top`):
// every record by cycle, the first violation, passed.
void settle_verdict(RunVerdict& verdict, const std::vector<ViolationLog*>& boards, const char* top);

}  // namespace creditloop
