#include "sweep.h"

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

namespace {

constexpr int kDefaultMaxBuffer = 32;       // seed 001's plot: every buffer size from 1 to 32
constexpr size_t kMaxPoints = 20000;        // a typo guard, like kMaxBufferSlots
constexpr int kMaxDrainPeriod = 1000000;    // as `creditloop run`
constexpr int kMaxJobs = 64;
constexpr size_t kTableColumns = 16;        // B values per block of the text table

// The round trip of a curve's link: 2L + 2 + SYNC + FREE_DELAY.
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

std::string fixed6(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6f", value);
    return text;
}


// Write `text` to `path` through a temporary beside it, so no reader ever sees half a file;
// without `force` the final step is link(2), which refuses to replace a file that appeared
// meanwhile. "" or one line naming the problem.
std::string write_file(const fs::path& path, const std::string& text, bool force) {
    const fs::path temporary = path.parent_path() / ("." + path.filename().string() + "." +
                                                     std::to_string(::getpid()) + ".tmp");
    {
        std::ofstream file(temporary, std::ios::trunc | std::ios::binary);
        file << text;
        file.flush();
        if (!file) {
            std::error_code ec;
            fs::remove(temporary, ec);
            return "cannot write " + temporary.string() + ": check that --out is writable";
        }
    }
    std::error_code ec;
    if (!force) {
        if (::link(temporary.c_str(), path.c_str()) == 0) {
            fs::remove(temporary, ec);
            return "";
        }
        const int error = errno;
        if (error == EEXIST) {
            fs::remove(temporary, ec);
            return path.string() + " appeared while the sweep ran: add --force to overwrite it";
        }
        // A file system without hard links: the existence check before the sweep stands.
    }
    fs::rename(temporary, path, ec);
    if (ec) {
        fs::remove(temporary, ec);
        return "cannot write " + path.string() + ": " + ec.message();
    }
    return "";
}

}  // namespace

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

std::string sweep_csv(const SweepResult& result) {
    std::ostringstream csv;
    csv << "L,B,K,drain_every,cycles,rtt,full_rate_buffer,window_cycles,sends_model,throughput_model,sends_rtl,"
           "throughput_rtl,rtl_passed,bound_min_1_B_over_rtt,drain_cap,bound,batched_estimate,sync,free_delay\n";
    for (const auto& p : result.points) {
        const SweepCurve& c = result.curves[p.curve];
        const int rtt = curve_round_trip(c);
        const double drain = 1.0 / c.drain_every;
        csv << c.stages << "," << p.buffer << "," << c.batch << "," << c.drain_every << "," << p.spec.cycles << ","
            << rtt << "," << full_rate_buffer(rtt, c.batch) << "," << p.window_cycles << "," << p.model_sends << ","
            << fixed6(p.model_throughput) << ",";
        if (p.rtl_checked)
            csv << p.rtl_sends << "," << fixed6(p.rtl_throughput) << "," << (p.rtl_passed ? "true" : "false");
        else
            csv << ",,";
        csv << "," << fixed6(throughput_bound(p.buffer, rtt)) << "," << fixed6(drain) << ","
            << fixed6(throughput_bound(p.buffer, rtt, drain)) << ","
            << fixed6(batched_throughput_estimate(p.buffer, rtt, c.batch)) << "," << c.sync_stages << ","
            << c.free_delay << "\n";
    }
    return csv.str();
}

namespace {

// The points of one curve, B ascending.
std::vector<const SweepPoint*> curve_points(const SweepResult& result, size_t curve) {
    std::vector<const SweepPoint*> out;
    for (const auto& p : result.points)
        if (p.curve == curve) out.push_back(&p);
    return out;
}

// Where a curve flattens: its highest value and the smallest B from which it stays there.
std::string plateau_note(const std::vector<const SweepPoint*>& points) {
    if (points.empty()) return "";
    uint64_t top = 0;
    for (const auto* p : points) top = std::max(top, p->model_sends);
    size_t from = points.size();
    while (from > 0 && points[from - 1]->model_sends == top) --from;
    const std::string value = three_decimals(points[from]->model_throughput);
    if (from + 1 < points.size()) return value + " from B = " + std::to_string(points[from]->buffer);
    for (const auto* p : points)
        if (p->model_sends == top) return "highest " + value + " at B = " + std::to_string(p->buffer);
    return "";
}

std::string pad_right(const std::string& text, size_t width) {
    return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string pad_left(const std::string& text, size_t width) {
    return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

}  // namespace

std::string sweep_table(const SweepSpec& spec, const SweepResult& result) {
    std::vector<int> buffers;
    for (const auto& p : result.points) buffers.push_back(p.buffer);
    std::sort(buffers.begin(), buffers.end());
    buffers.erase(std::unique(buffers.begin(), buffers.end()), buffers.end());
    size_t label_width = 4;
    for (const auto& c : result.curves) label_width = std::max(label_width, c.label.size() + 1);
    bool any_checked = false, any_failed = false;
    for (const auto& p : result.points) {
        any_checked = any_checked || p.rtl_checked;
        any_failed = any_failed || !p.problem().empty();
    }

    std::ostringstream table;
    table << "throughput (flits per cycle) by buffer depth B; RTT = 2L + 2"
          << (spec.sync_stages ? " + SYNC (" + std::to_string(spec.sync_stages) + ")" : std::string())
          << (spec.free_delay ? " + FREE_DELAY (" + std::to_string(spec.free_delay) + ")" : std::string()) << "; "
          << spec.cycles
          << " cycles, sends counted in the second half";
    if (any_checked) table << "; * = run on the RTL too, equal to the model";
    if (any_failed) table << "; ! = fails (see below)";
    table << "\n";
    for (size_t first = 0; first < buffers.size(); first += kTableColumns) {
        const size_t last = std::min(buffers.size(), first + kTableColumns);
        if (first) table << "\n";
        table << pad_left("B:", label_width);
        for (size_t i = first; i < last; ++i) table << pad_left(std::to_string(buffers[i]), 6) << " ";
        table << "\n";
        for (size_t c = 0; c < result.curves.size(); ++c) {
            const SweepCurve& curve = result.curves[c];
            const auto points = curve_points(result, c);
            table << pad_right(curve.label, label_width);
            for (size_t i = first; i < last; ++i) {
                const auto it = std::find_if(points.begin(), points.end(),
                                             [&](const SweepPoint* p) { return p->buffer == buffers[i]; });
                if (it == points.end()) {
                    table << pad_left("-", 6) << " ";
                    continue;
                }
                const SweepPoint& p = **it;
                table << " " << three_decimals(p.model_throughput)
                      << (!p.problem().empty() ? "!" : p.rtl_checked ? "*" : " ");
            }
            if (last == buffers.size()) {
                const int rtt = curve_round_trip(curve);
                table << " (RTT " << rtt;
                if (curve.batch > 1) table << ", full rate needs B >= RTT + K - 1 = " << full_rate_buffer(rtt, curve.batch);
                if (curve.drain_every > 1) table << ", drain cap " << three_decimals(1.0 / curve.drain_every);
                const std::string plateau = plateau_note(points);
                if (!plateau.empty()) table << "; " << plateau;
                table << ")";
            }
            table << "\n";
        }
    }
    // No trailing blanks: the marker column is empty on unchecked points.
    std::string text = table.str(), trimmed;
    std::stringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        line.erase(line.find_last_not_of(' ') + 1);
        trimmed += line + "\n";
    }
    return trimmed;
}

std::string sweep_svg(const SweepSpec& spec, const SweepResult& result) {
    Plot plot;
    plot.title = "creditloop sweep: steady throughput against the receiver buffer B";
    const uint64_t window_start = spec.cycles / 2;
    plot.subtitle = "golden model, saturating sender, " + std::to_string(spec.cycles) +
                    " cycles; throughput = sends in cycles " + std::to_string(window_start) + ".." +
                    std::to_string(spec.cycles - 1) + " / " + std::to_string(spec.cycles - window_start) +
                    "; dashed: min(1, B / RTT), RTT = 2L + 2" + (spec.sync_stages ? " + SYNC" : "") +
                    (spec.free_delay ? " + FREE_DELAY" : "") +
                    (spec.sync_stages || spec.free_delay
                         ? " (SYNC = " + std::to_string(spec.sync_stages) + ", FREE_DELAY = " +
                               std::to_string(spec.free_delay) + ")"
                         : std::string());
    plot.x_label = "receiver buffer B (slots = credits)";
    plot.y_label = "steady throughput (flits per cycle)";
    plot.checked_legend = "also run on the RTL: equal to the model";
    plot.failed_legend = "RTL disagrees or a check fails";
    int b_lo = kMaxBufferSlots, b_hi = 1;
    for (const auto& p : result.points) {
        b_lo = std::min(b_lo, p.buffer);
        b_hi = std::max(b_hi, p.buffer);
    }
    if (result.points.empty()) b_lo = 1;
    const AxisTicks ticks = nice_ticks(b_lo, b_hi);
    plot.x_min = ticks.lo;
    plot.x_max = ticks.hi;

    // The knee of each L is marked in the colour of its first curve; the bounds are dark and drawn
    // over the curves, since a curve that meets its bound lies exactly on it.
    std::map<int, std::string> stage_color;
    std::set<int> drain_periods;
    for (size_t c = 0; c < result.curves.size(); ++c) {
        const SweepCurve& curve = result.curves[c];
        const std::string color = plot_color(c);
        if (!stage_color.count(curve.stages)) stage_color[curve.stages] = color;
        if (curve.drain_every > 1) drain_periods.insert(curve.drain_every);

        PlotSeries series;
        series.label = curve.label;
        series.color = color;
        for (const SweepPoint* p : curve_points(result, c)) {
            PlotPoint point;
            point.x = p->buffer;
            point.y = p->model_throughput;
            point.tooltip = point_name(curve, p->buffer) + ": model " + three_decimals(p->model_throughput);
            if (p->rtl_checked) point.tooltip += ", RTL " + three_decimals(p->rtl_throughput);
            const std::string problem = p->problem();
            if (!problem.empty()) {
                point.mark = PointMark::failed;
                point.tooltip += ": " + problem;
            } else if (p->rtl_checked) {
                point.mark = PointMark::checked;
            }
            series.points.push_back(point);
        }
        plot.series.push_back(series);
    }
    bool first_bound = true;
    for (const auto& [stages, color] : stage_color) {
        const int rtt = round_trip_cycles(stages, spec.sync_stages) + spec.free_delay;
        PlotGuide bound;
        bound.label = "min(1, B / RTT), L=" + std::to_string(stages) + " (RTT " + std::to_string(rtt) + ")";
        if (stage_color.size() > 1) {
            bound.in_legend = first_bound;
            if (first_bound) bound.label = "min(1, B / RTT) for each L";
        }
        first_bound = false;
        bound.css_class = "bound";
        bound.vertices.emplace_back(plot.x_min, std::min(1.0, std::max(0.0, plot.x_min) / rtt));
        if (rtt > plot.x_min && rtt < plot.x_max) bound.vertices.emplace_back(rtt, 1.0);
        bound.vertices.emplace_back(plot.x_max, std::min(1.0, plot.x_max / rtt));
        plot.guides.push_back(bound);
        PlotVerticalMark knee;
        knee.x = rtt;
        knee.label = "B = RTT = " + std::to_string(rtt);
        knee.color = color;
        plot.verticals.push_back(knee);
    }
    for (int period : drain_periods) {
        PlotGuide cap;
        cap.label = "drain cap 1/" + std::to_string(period) + " = " + three_decimals(1.0 / period);
        cap.css_class = "drain-cap";
        cap.dash = "2 3";
        cap.vertices = {{plot.x_min, 1.0 / period}, {plot.x_max, 1.0 / period}};
        plot.guides.push_back(cap);
    }
    return render_svg(plot);
}

int run_sweep(const std::vector<std::string>& args, const std::string& program) {
    return run_sweep(args, program, std::cout, std::cerr);
}

int run_sweep(const std::vector<std::string>& args, const std::string& program, std::ostream& out,
              std::ostream& err) {
    std::string error;
    bool help = false;
    const auto parsed = parse_sweep(args, error, help);
    if (help) {
        out << error;   // the help text
        return 0;
    }
    if (!parsed) {
        err << "creditloop: " << error << "\n";
        return 2;
    }
    const SweepSpec& spec = *parsed;
    SweepResult result;
    error = plan_sweep(spec, result);
    if (!error.empty()) {
        err << "creditloop: " << error << "\n";
        return 2;
    }
    DutSources sources = DutSources::from_environment();
    if (!spec.mutant.empty()) {
        std::vector<std::string> manifest_errors;
        const auto mutants = find_mutants(sources.source_root, manifest_errors);
        const auto it = std::find_if(mutants.begin(), mutants.end(), [&](const Mutant& m) { return m.name == spec.mutant; });
        if (it == mutants.end()) {
            err << "creditloop: --mutant " << spec.mutant
                << " is not in rtl/mutants/: 'creditloop mutants --filter x' lists them by name\n";
            return 2;
        }
        sources = mutant_sources(sources, *it);
    }
    const fs::path out_dir = spec.out_dir;
    const std::vector<std::string> files = {"sweep.csv", "sweep.svg"};
    std::error_code ec;
    if (fs::exists(out_dir, ec) && !fs::is_directory(out_dir, ec)) {
        err << "creditloop: --out " << spec.out_dir << " is a file, not a directory: pick a directory\n";
        return 2;
    }
    for (const auto& name : files)
        if (fs::exists(out_dir / name, ec) && !spec.force) {
            err << "creditloop: --out " << spec.out_dir << " already holds " << name
                << ": add --force to overwrite it, or pick another --out\n";
            return 2;
        }
    if (!set_log_level(spec.log_level)) {
        err << "creditloop: --log-level " << spec.log_level << " is not a level: allowed off, error, warn, info, debug\n";
        return 2;
    }

    size_t rtl_points = 0;
    std::vector<LinkConfig> configs;
    for (const auto& p : result.points) {
        if (!p.rtl_planned) continue;
        ++rtl_points;
        if (std::find(configs.begin(), configs.end(), p.spec.config) == configs.end()) configs.push_back(p.spec.config);
    }
    size_t buffers = 0;
    {
        std::set<int> distinct;
        for (const auto& p : result.points) distinct.insert(p.buffer);
        buffers = distinct.size();
    }
    out << "creditloop sweep: " << counted(result.curves.size(), "curve") << " x " << counted(buffers, "buffer size")
        << " = " << counted(result.points.size(), "point") << ", " << spec.cycles
        << " cycles each, the model for every point";
    if (rtl_points)
        out << ", the RTL" << (spec.mutant.empty() ? "" : " with mutant " + spec.mutant) << " in lockstep on "
            << rtl_points << " (" << counted(configs.size(), "verilated configuration") << ")";
    else
        out << " (no RTL)";
    out << "\n" << std::flush;

    // The progress line (tb/progress.h) goes to the process's stderr, so a caller that captures
    // `err` (a test) gets the report alone.
    std::unique_ptr<Progress> progress;
    if (spec.progress && &err == &std::cerr) {
        progress = std::make_unique<Progress>("creditloop sweep", stderr);
        progress->phase("runs", result.points.size() + rtl_points);
    }
    const auto advance = [&progress] {
        if (progress) progress->advance();
    };
    const auto status = [&progress](const std::string& what) {
        if (progress) progress->status(what);
    };
    const auto finish = [&progress] {
        if (progress) progress->finish();
    };

    parallel_for(result.points.size(), spec.jobs, [&](size_t i) {
        SweepPoint& p = result.points[i];
        const RunResult r = run_link(nullptr, p.spec);
        p.window_cycles = r.window_cycles;
        p.model_sends = r.window_sends;
        p.model_throughput = r.throughput;
        p.model_passed = r.passed;
        if (!r.violations.empty()) p.model_first_violation = violation_line(r.violations.front());
        advance();
    });

    if (rtl_points) {
        status("verilating or loading " + std::to_string(configs.size()) + " RTL configurations");
        const auto build_errors = build_duts(configs, sources, spec.jobs, status);
        if (!build_errors.empty()) {
            finish();
            for (const auto& e : build_errors) err << "creditloop: " << e << "\n";
            err << "creditloop: the RTL grid would not build (nothing written): --no-rtl sweeps the model alone\n";
            return 3;
        }
        status("");
        std::map<std::string, std::unique_ptr<DutLibrary>> libraries;
        std::vector<size_t> to_run;
        for (size_t i = 0; i < result.points.size(); ++i) {
            SweepPoint& p = result.points[i];
            if (!p.rtl_planned) continue;
            auto& library = libraries[p.spec.config.key()];
            if (!library) {
                std::string load_error;
                library = DutLibrary::load(p.spec.config, sources, load_error);
                if (!library) {
                    finish();
                    err << "creditloop: " << load_error << "\n";
                    return 3;
                }
            }
            to_run.push_back(i);
        }
        parallel_for(to_run.size(), spec.jobs, [&](size_t n) {
            SweepPoint& p = result.points[to_run[n]];
            auto dut = libraries.at(p.spec.config.key())->create();
            const RunResult r = run_link(dut.get(), p.spec);
            p.rtl_checked = true;
            p.rtl_sends = r.window_sends;
            p.rtl_throughput = r.throughput;
            p.rtl_passed = r.passed;
            if (!r.violations.empty()) p.rtl_first_violation = violation_line(r.violations.front());
            advance();
        });
    }
    finish();

    out << "\n" << sweep_table(spec, result) << "\n";
    size_t failures = 0;
    for (const auto& p : result.points) {
        const std::string problem = p.problem();
        if (problem.empty()) continue;
        ++failures;
        out << "FAIL " << point_name(result.curves[p.curve], p.buffer) << ": " << problem << "\n"
            << "  rerun: " << program << " run " << run_arguments(p.spec)
            << (!p.model_passed ? " --model" : spec.mutant.empty() ? "" : " --mutant " + spec.mutant) << "\n";
    }
    if (rtl_points) {
        if (failures)
            out << "RTL: " << failures << " of " << counted(rtl_points, "checked point") << " fail\n";
        else
            out << "RTL: " << counted(rtl_points, "point") << " on " << counted(configs.size(), "verilated configuration")
                << ", every one equal to the model and passing every check (marked *)\n";
    } else if (failures) {
        out << counted(failures, "point") << " fail their checks\n";
    }

    fs::create_directories(out_dir, ec);
    if (ec || !fs::is_directory(out_dir)) {
        err << "creditloop: cannot create --out " << spec.out_dir << (ec ? ": " + ec.message() : "") << "\n";
        return 3;
    }
    const std::vector<std::string> texts = {sweep_csv(result), sweep_svg(spec, result)};
    for (size_t i = 0; i < files.size(); ++i) {
        const std::string problem = write_file(out_dir / files[i], texts[i], spec.force);
        if (!problem.empty()) {
            err << "creditloop: " << problem << "\n";
            return 3;
        }
        out << "wrote " << (out_dir / files[i]).string() << "\n";
    }
    return failures ? 1 : 0;
}

}  // namespace creditloop
