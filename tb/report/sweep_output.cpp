#include "sweep_plan.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "closed_forms.h"
#include "scoreboard.h"
#include "svg_plot.h"
#include "sweep_detail.h"


namespace creditloop {

using namespace sweep_detail;

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

}  // namespace creditloop
