// `creditloop sweep`: steady throughput against the buffer size B, one curve per (L, K, drain
// period), the way seed 001's plot measures it ("for every buffer size from 1 to 32, using the
// same model as the listing above"). The golden model gives every point; the RTL is run in
// lockstep with the model on a grid of points and must agree with it exactly.
//
// Outputs, under --out (default build/sweep): sweep.csv (one row per point) and sweep.svg (the
// plot, with min(1, B / RTT) dashed per L, the drain cap per drain curve, and the RTL-checked
// points marked). A text table of the curves goes to stdout, three decimals as the seeds print.
// A progress line goes to stderr (tb/common/progress.h: redrawn on a terminal, a plain line every few
// seconds in a log); --no-progress turns it off. The code: sweep_plan.cpp (options, presets, the
// plan), sweep_output.cpp (CSV, table, SVG), sweep.cpp (the runs).
//
// Exit codes: 0 ok, 1 the RTL disagrees with the model somewhere (or a check fails), 2 bad
// input (one line on stderr, nothing written), 3 a build or file problem.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "link_run.h"

namespace creditloop {

struct SweepSpec {
    std::string preset;                   // "", "seed001", "seed001-drain" or "seed000"
    std::vector<int> stages = {4};        // L: one curve each
    std::vector<int> buffers;             // B: the x axis (default 1..32)
    std::vector<int> batches = {1};       // K: one curve each
    std::vector<int> drain_periods = {1}; // drain every N cycles: one curve each
    uint64_t cycles = 6000;               // the seeds' run; window = the second half
    int sync_stages = 0;                  // SYNC, the same for every point (a late return)
    int free_delay = 0;                   // FREE_DELAY, likewise
    bool rtl = true;                      // cross-check on the RTL grid
    std::optional<std::vector<int>> rtl_grid;   // B values; none: a handful per curve
    std::string mutant;                   // a buggy variant from rtl/mutants/ as the RTL (it must fail)
    std::string out_dir = "build/sweep";
    bool force = false;                   // overwrite sweep.csv / sweep.svg
    int jobs = 2;                         // model runs, RTL builds and RTL runs in parallel
    bool progress = true;                 // a progress bar on stderr (only when it is a terminal)
    std::string log_level = "warn";
};

// One curve: a fixed (L, K, drain period), throughput against B.
struct SweepCurve {
    int stages = 4;
    int batch = 1;
    int drain_every = 1;
    int sync_stages = 0;
    int free_delay = 0;
    std::string label;                    // "L=4", "L=4 K=8", "L=4 drain/2": what varies
};

struct SweepPoint {
    size_t curve = 0;                     // index into the curves
    int buffer = 0;                       // B
    RunSpec spec;
    uint64_t window_cycles = 0;
    uint64_t model_sends = 0;
    double model_throughput = 0.0;
    bool model_passed = false;            // the model's own run passed every scoreboard
    std::string model_first_violation;    // violation_line of the model run's first, if any
    bool rtl_planned = false;             // on the RTL grid
    bool rtl_checked = false;             // run on the RTL (the fields below are set)
    uint64_t rtl_sends = 0;
    double rtl_throughput = 0.0;
    bool rtl_passed = false;
    std::string rtl_first_violation;      // violation_line of the RTL run's first, if any

    // Why this point fails the sweep ("" when it does not).
    std::string problem() const;
};

struct SweepResult {
    std::vector<SweepCurve> curves;
    std::vector<SweepPoint> points;       // curve by curve, B ascending; B < K is no link, so absent
};

// The curves and the grid of points, and the B values checked on the RTL, for a parsed spec.
// Returns one bad-input line, or "" when the sweep can run.
std::string plan_sweep(const SweepSpec& spec, SweepResult& plan);

// The default RTL grid of one curve: B = min, knee - 1, knee, knee + 1 and max of the swept
// values (those that are swept), where the knee is RTT + K - 1 (ceil(RTT / period) when the
// consumer drains more slowly than one flit per cycle).
std::vector<int> default_rtl_grid(const SweepCurve& curve, const std::vector<int>& buffers);

// The outputs, as text.
std::string sweep_csv(const SweepResult& result);
std::string sweep_svg(const SweepSpec& spec, const SweepResult& result);
std::string sweep_table(const SweepSpec& spec, const SweepResult& result);

}  // namespace creditloop
