#include "sweep.h"

#include <fmt/format.h>

#include "sweep_detail.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "cli.h"
#include "cli_parse.h"
#include "closed_forms.h"
#include "dut_library.h"
#include "progress.h"
#include "log.h"
#include "mutants.h"
#include "parallel.h"
#include "report.h"
#include "seed_tables.h"
#include "svg_plot.h"

namespace fs = std::filesystem;

namespace creditloop {

const char* const kSweepUsage =
    "Options given with a preset override it. A LIST is values and ranges separated by commas: 4, 1,4,8, 4..18, 1..8,12,16.\n"
    "Exit codes: 0 ok, 1 the RTL disagrees with the model (or a check fails), 2 bad input,\n"
    "3 a build or file problem.\n";

namespace sweep_detail {


int curve_round_trip(const SweepCurve& curve) {
    return round_trip_cycles(curve.stages, curve.sync_stages) + curve.free_delay;
}

// "4", "1,4,8", "4..18", "1..8,12" -> sorted, without repeats. One error line naming the option.
bool parse_list(const std::string& option, const std::string& text, int lo, int hi, std::vector<int>& out,
                std::string& error) {
    const std::string allowed = "allowed " + std::to_string(lo) + ".." + std::to_string(hi) +
                                " (a value, a list such as 1,2,4 or a range such as 4..18)";
    auto number = [&](const std::string& digits, long long& value) {
        if (digits.empty() || digits.size() > 9 ||
            !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return false;
        value = std::stoll(digits);
        return true;
    };
    std::set<int> values;
    std::stringstream items(text);
    std::string item;
    bool any = false;
    while (std::getline(items, item, ',')) {
        any = true;
        long long first = 0, last = 0;
        const auto dots = item.find("..");
        const bool range = dots != std::string::npos;
        if (!(range ? number(item.substr(0, dots), first) && number(item.substr(dots + 2), last)
                    : number(item, first))) {
            error = option + " " + text + " is not a list of whole numbers: " + allowed;
            return false;
        }
        if (!range) last = first;
        if (first > last) {
            error = option + " " + text + ": the range " + item + " runs backwards: " + allowed;
            return false;
        }
        if (first < lo || last > hi) {
            error = option + " " + text + " is out of range: " + allowed;
            return false;
        }
        if (values.size() + static_cast<size_t>(last - first + 1) > kMaxPoints) {
            error = option + " " + text + " has too many values: at most " + std::to_string(kMaxPoints);
            return false;
        }
        for (long long v = first; v <= last; ++v) values.insert(static_cast<int>(v));
    }
    if (!any || text.empty() || text.back() == ',') {
        error = option + " " + text + " is not a list of whole numbers: " + allowed;
        return false;
    }
    out.assign(values.begin(), values.end());
    return true;
}

std::vector<int> range_list(int first, int last) {
    std::vector<int> out;
    for (int v = first; v <= last; ++v) out.push_back(v);
    return out;
}

bool apply_preset(const std::string& name, SweepSpec& spec) {
    spec.preset = name;
    if (name == "seed001") {
        spec.stages = {1, 4, 8};
        spec.batches = {1};
        spec.drain_periods = {1};
    } else if (name == "seed001-drain") {
        spec.stages = {4};
        spec.batches = {1};
        spec.drain_periods = {1, 2};
    } else if (name == "seed000") {
        spec.stages = {seeds::kSeed000Stages};
        spec.batches = {1, 2, 4, 6, 8, 12};
        spec.drain_periods = {1};
    } else {
        return false;
    }
    spec.buffers = range_list(1, kDefaultMaxBuffer);
    return true;
}

std::optional<uint64_t> parse_count(const std::string& text) {
    if (text.empty() || text.size() > 12 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return std::stoull(text);
}

// "1..32", or "1,2,4,6" (shortened when long): the swept values, for messages.
std::string describe_values(const std::vector<int>& values) {
    if (values.empty()) return "none";
    if (values.size() > 1 && values.back() - values.front() + 1 == static_cast<int>(values.size()))
        return std::to_string(values.front()) + ".." + std::to_string(values.back());
    std::string out;
    for (size_t i = 0; i < values.size() && i < 12; ++i) out += (i ? "," : "") + std::to_string(values[i]);
    if (values.size() > 12) out += ",...," + std::to_string(values.back());
    return out;
}

std::string point_name(const SweepCurve& curve, int buffer) {
    return "L=" + std::to_string(curve.stages) + " B=" + std::to_string(buffer) + " K=" +
           std::to_string(curve.batch) + " drain every " + std::to_string(curve.drain_every);
}

std::string fixed6(double value) { return fmt::format("{:.6f}", value); }



}  // namespace sweep_detail

using namespace sweep_detail;

std::string SweepPoint::problem() const {
    if (!model_passed) return "the golden model's own run failed a check: " + model_first_violation;
    if (!rtl_checked) return "";
    if (rtl_sends != model_sends)
        return "the RTL gives " + three_decimals(rtl_throughput) + " (" + std::to_string(rtl_sends) +
               " sends in the window) but the model gives " + three_decimals(model_throughput) + " (" +
               std::to_string(model_sends) + " sends)";
    if (!rtl_passed)
        return "the RTL run failed a check" + (rtl_first_violation.empty() ? std::string() : ": " + rtl_first_violation);
    return "";
}

std::optional<SweepSpec> parse_sweep(const std::vector<std::string>& args, std::string& error, bool& help) {
    help = false;
    CLI::App app{"Steady throughput against the buffer size B: the model at every point, the RTL on a grid.",
                 "creditloop sweep"};
    // Options are read as text first: a preset is applied, then the options given override it.
    std::map<std::string, std::string> given;
    const auto text = [&](const char* name, const char* description) {
        return app.add_option(name, given[name], description);
    };
    text("--preset", "seed001: L = 1,4,8 (seed 001's plot); seed001-drain: L = 4, drain every 1 and 2; "
                     "seed000: L = 4, K = 1,2,4,6,8,12 (seed 000's batching)");
    text("--L", "LIST: stages each way, one curve each (1..1024, default 4)");
    text("--B", "LIST: buffer sizes, the x axis (1..4096, default 1..32)");
    text("--K", "LIST: return batch, one curve each (default 1; points with B < K are skipped)");
    text("--drain-every", "LIST: the consumer drains when cycle % N == 0, one curve each (1..1000000, default 1)");
    text("--cycles", "cycles per point (default 6000; throughput = sends in the second half / its length)");
    text("--sync", "synchroniser stages on the return path, every point (0..64, default 0)");
    text("--free-delay", "cycles from pop to the slot being freed, every point (0..64, default 0)");
    text("--rtl-grid", "LIST: B values also run on the RTL, for every curve (default: per curve, the smallest and "
                       "largest B and the knee - 1, knee, knee + 1, the knee being RTT + K - 1 over the drain period)");
    text("--mutant", "a buggy variant from rtl/mutants/ in place of its block on the RTL grid");
    text("--out", "where sweep.csv and sweep.svg go (default build/sweep)");
    text("--jobs", "model runs, RTL builds and RTL runs in parallel (1..64, default 2)");
    text("--log-level", "off|error|warn|info|debug (default warn)")->check(log_level());
    bool no_rtl = false, force = false, no_progress = false;
    add_flag(app, "--no-rtl", no_rtl, "the model alone");
    add_flag(app, "--force", force, "overwrite sweep.csv and sweep.svg in --out");
    add_flag(app, "--no-progress", no_progress,
             "no progress line (on stderr: one line redrawn on a terminal, a line every few seconds in a log)");
    app.footer(kSweepUsage);
    ParseError parse_error;
    if (!parse_command(app, args, parse_error)) {
        help = parse_error.help;
        error = parse_error.message;
        return std::nullopt;
    }
    std::vector<std::pair<std::string, std::string>> options;
    for (const auto* option : app.get_options())
        if (option->count() && given.count(option->get_name()) && option->get_name() != "--preset")
            options.emplace_back(option->get_name(), given[option->get_name()]);
    const std::string preset = given["--preset"];

    SweepSpec spec;
    spec.buffers = range_list(1, kDefaultMaxBuffer);
    if (!preset.empty() && !apply_preset(preset, spec)) {
        error = "--preset " + preset + " is not a preset: allowed seed001, seed001-drain, seed000";
        return std::nullopt;
    }
    spec.force = force;
    spec.progress = !no_progress;
    for (const auto& [name, value] : options) {
        bool ok = true;
        if (name == "--L") ok = parse_list(name, value, 1, kMaxStages, spec.stages, error);
        else if (name == "--B") ok = parse_list(name, value, 1, kMaxBufferSlots, spec.buffers, error);
        else if (name == "--K") ok = parse_list(name, value, 1, kMaxBufferSlots, spec.batches, error);
        else if (name == "--drain-every")
            ok = parse_list(name, value, 1, kMaxDrainPeriod, spec.drain_periods, error);
        else if (name == "--sync" || name == "--free-delay") {
            std::vector<int> one;
            const int most = name == "--sync" ? kMaxSyncStages : kMaxFreeDelay;
            ok = parse_list(name, value, 0, most, one, error);
            if (ok && one.size() != 1) {
                error = name + " " + value + " is not one number: allowed 0.." + std::to_string(most) +
                        " (it applies to every point)";
                ok = false;
            }
            if (ok) (name == "--sync" ? spec.sync_stages : spec.free_delay) = one.front();
        } else if (name == "--rtl-grid") {
            std::vector<int> grid;
            ok = parse_list(name, value, 1, kMaxBufferSlots, grid, error);
            spec.rtl_grid = grid;
        } else if (name == "--cycles") {
            const auto cycles = parse_count(value);
            if (!cycles) {
                error = "--cycles " + value + " is not a whole number: allowed at least 20 x (RTT + K - 1) x the "
                        "drain period, up to 100000000000 (default 6000)";
                return std::nullopt;
            }
            spec.cycles = *cycles;
        } else if (name == "--jobs") {
            std::vector<int> jobs;
            ok = parse_list(name, value, 1, kMaxJobs, jobs, error);
            if (ok && jobs.size() != 1) {
                error = "--jobs " + value + " is not one number: allowed 1.." + std::to_string(kMaxJobs);
                ok = false;
            }
            if (ok) spec.jobs = jobs.front();
        } else if (name == "--mutant") {
            spec.mutant = value;
        } else if (name == "--out") {
            if (value.empty()) {
                error = "--out needs a directory (default build/sweep)";
                return std::nullopt;
            }
            spec.out_dir = value;
        } else if (name == "--log-level") {
            spec.log_level = value;   // a level CLI11 checked
        }
        if (!ok) return std::nullopt;
    }
    if (no_rtl && (spec.rtl_grid || !spec.mutant.empty())) {
        error = std::string(spec.rtl_grid ? "--rtl-grid" : "--mutant") +
                " and --no-rtl contradict each other: give one of them";
        return std::nullopt;
    }
    spec.rtl = !no_rtl;
    return spec;
}

std::vector<int> default_rtl_grid(const SweepCurve& curve, const std::vector<int>& buffers) {
    std::vector<int> swept;
    for (int b : buffers)
        if (b >= curve.batch) swept.push_back(b);
    if (swept.empty()) return {};
    const int loop = full_rate_buffer(curve_round_trip(curve), curve.batch);
    const int knee = (loop + curve.drain_every - 1) / curve.drain_every;
    std::set<int> wanted = {swept.front(), knee - 1, knee, knee + 1, swept.back()};
    std::vector<int> grid;
    for (int b : swept)
        if (wanted.count(b)) grid.push_back(b);
    return grid;
}

std::string plan_sweep(const SweepSpec& spec, SweepResult& plan) {
    plan = SweepResult{};
    std::vector<int> buffers = spec.buffers.empty() ? range_list(1, kDefaultMaxBuffer) : spec.buffers;
    std::sort(buffers.begin(), buffers.end());
    buffers.erase(std::unique(buffers.begin(), buffers.end()), buffers.end());
    for (int k : spec.batches)
        if (k > buffers.back())
            return "--K " + std::to_string(k) + " is larger than every swept B (the largest is " +
                   std::to_string(buffers.back()) + "): allowed K <= B";
    if (spec.rtl_grid)
        for (int b : *spec.rtl_grid)
            if (!std::binary_search(buffers.begin(), buffers.end(), b))
                return "--rtl-grid " + std::to_string(b) + " is not a swept B value: allowed values of --B (" +
                       describe_values(buffers) + ")";
    const size_t curves = spec.stages.size() * spec.batches.size() * spec.drain_periods.size();
    if (curves * buffers.size() > kMaxPoints)
        return "--L, --K, --drain-every and --B give " + std::to_string(curves * buffers.size()) +
               " points: allowed up to " + std::to_string(kMaxPoints) + " per sweep";

    const bool label_batch = spec.batches.size() > 1 || spec.batches.front() != 1;
    const bool label_drain = spec.drain_periods.size() > 1 || spec.drain_periods.front() != 1;
    for (int stages : spec.stages)
        for (int batch : spec.batches)
            for (int period : spec.drain_periods) {
                SweepCurve curve;
                curve.stages = stages;
                curve.batch = batch;
                curve.drain_every = period;
                curve.sync_stages = spec.sync_stages;
                curve.free_delay = spec.free_delay;
                curve.label = "L=" + std::to_string(stages);
                if (label_batch) curve.label += " K=" + std::to_string(batch);
                if (label_drain) curve.label += " drain every " + std::to_string(period);
                const size_t index = plan.curves.size();
                plan.curves.push_back(curve);

                const std::vector<int> grid =
                    !spec.rtl ? std::vector<int>{} : spec.rtl_grid ? *spec.rtl_grid : default_rtl_grid(curve, buffers);
                for (int b : buffers) {
                    if (b < batch) continue;   // K > B is no link: the receiver could never fill a batch
                    SweepPoint point;
                    point.curve = index;
                    point.buffer = b;
                    point.spec.config.stages = stages;
                    point.spec.config.buffer_slots = b;
                    point.spec.config.batch = batch;
                    point.spec.config.payload_bits = 32;
                    point.spec.config.sync_stages = spec.sync_stages;
                    point.spec.config.free_delay = spec.free_delay;
                    point.spec.cycles = spec.cycles;
                    point.spec.stimulus.drain.kind = DrainKind::every_nth;
                    point.spec.stimulus.drain.period = period;
                    point.spec.stimulus.seed = 1;
                    if (auto problem = validate(point.spec)) return *problem;
                    point.rtl_planned = std::find(grid.begin(), grid.end(), b) != grid.end();
                    plan.points.push_back(point);
                }
            }
    return "";
}

}  // namespace creditloop
