// A small line plot as a standalone SVG document (no script, no external style), which a browser
// opens as it is: axes with ticks and labels, one polyline with markers per series, dashed guide
// lines, dotted vertical marks, and a legend. It knows nothing of credits.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace creditloop {

enum class PointMark {
    plain,      // a filled dot
    checked,    // a filled dot in a hollow square: checked by a second source, which agreed
    failed,     // a filled dot under a red cross: the second source disagreed
};

struct PlotPoint {
    double x = 0.0;
    double y = 0.0;
    PointMark mark = PointMark::plain;
    std::string tooltip;          // shown on hover (<title>)
};

struct PlotSeries {
    std::string label;
    std::string color;            // empty: the next colour of the palette
    std::vector<PlotPoint> points;
};

// A dashed reference line (a bound), drawn over the series' lines and under their markers as one
// <path class="...">, so it stays visible where a series lies exactly on it.
struct PlotGuide {
    std::string label;            // its tooltip, and its legend text
    bool in_legend = true;        // false: several guides share one legend entry
    std::string color = "#333333";
    std::string css_class = "guide";
    std::string dash = "7 4";
    std::vector<std::pair<double, double>> vertices;
};

// A dotted vertical line across the plot at x, with a short label at its top.
struct PlotVerticalMark {
    double x = 0.0;
    std::string label;
    std::string color = "#888888";
};

struct Plot {
    std::string title;
    std::string subtitle;
    std::string x_label;
    std::string y_label;
    double x_min = 0.0, x_max = 1.0;
    double y_min = 0.0, y_max = 1.0;
    double y_tick = 0.1;
    int y_tick_decimals = 1;
    std::vector<PlotSeries> series;
    std::vector<PlotGuide> guides;
    std::vector<PlotVerticalMark> verticals;
    std::string checked_legend = "checked";     // legend text for PointMark::checked (if any)
    std::string failed_legend = "disagrees";    // and for PointMark::failed (if any)
};

// The palette colour number i (it cycles).
std::string plot_color(size_t i);

// Ticks for [lo, hi]: a step of 1, 2, 4 or 5 times a power of ten, about `target` intervals,
// and the range widened to whole steps.
struct AxisTicks {
    double lo = 0.0, hi = 1.0, step = 1.0;
};
AxisTicks nice_ticks(double lo, double hi, int target = 8);

// The whole document, starting with "<svg".
std::string render_svg(const Plot& plot);

}  // namespace creditloop
