#include "svg_plot.h"

#include <fmt/format.h>

#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace creditloop {

namespace {

// Layout, in SVG user units (pixels at 100%).
constexpr double kWidth = 1040.0;
constexpr double kMinHeight = 580.0;
constexpr double kLeft = 80.0;          // room for the y tick labels and the y label
constexpr double kTop = 70.0;           // title and subtitle
constexpr double kPlotWidth = 620.0;
constexpr double kPlotHeight = 430.0;
constexpr double kLegendX = kLeft + kPlotWidth + 30.0;
constexpr double kLegendRow = 20.0;

// Tableau 10: distinct hues that stay apart for most colour vision.
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string num(double value) { return fmt::format("{:.2f}", value); }

std::string short_number(double value) { return fmt::format("{:g}", value); }

std::string fixed(double value, int decimals) { return fmt::format("{:.{}f}", value, decimals); }

class Frame {
public:
    explicit Frame(const Plot& plot) : plot_(plot) {}
    double px(double x) const {
        const double span = plot_.x_max - plot_.x_min;
        return kLeft + (span > 0 ? (x - plot_.x_min) / span : 0.5) * kPlotWidth;
    }
    double py(double y) const {
        const double span = plot_.y_max - plot_.y_min;
        return kTop + kPlotHeight - (span > 0 ? (y - plot_.y_min) / span : 0.5) * kPlotHeight;
    }

private:
    const Plot& plot_;
};

}  // namespace

std::string plot_color(size_t i) { return kPalette[i % (sizeof kPalette / sizeof kPalette[0])]; }

AxisTicks nice_ticks(double lo, double hi, int target) {
    if (hi < lo) std::swap(lo, hi);
    if (hi == lo) {
        lo -= 1.0;
        hi += 1.0;
    }
    const double raw = (hi - lo) / std::max(1, target);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10.0 * magnitude;
    for (double m : {1.0, 2.0, 4.0, 5.0, 10.0}) {
        if (m * magnitude >= raw * (1.0 - 1e-9)) {
            step = m * magnitude;
            break;
        }
    }
    AxisTicks ticks;
    ticks.step = step;
    ticks.lo = std::floor(lo / step + 1e-9) * step;
    ticks.hi = std::ceil(hi / step - 1e-9) * step;
    return ticks;
}

std::string render_svg(const Plot& plot) {
    const Frame f(plot);
    bool any_checked = false, any_failed = false;
    for (const auto& s : plot.series)
        for (const auto& p : s.points) {
            any_checked = any_checked || p.mark == PointMark::checked;
            any_failed = any_failed || p.mark == PointMark::failed;
        }
    size_t legend_rows = plot.series.size() + (any_checked ? 1 : 0) + (any_failed ? 1 : 0);
    for (const auto& g : plot.guides) legend_rows += g.in_legend ? 1 : 0;
    const double height = std::max(kMinHeight, kTop + 10.0 + kLegendRow * static_cast<double>(legend_rows + 1));

    std::ostringstream svg;
    svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << num(kWidth) << "\" height=\""
        << num(height) << "\" viewBox=\"0 0 " << num(kWidth) << " " << num(height)
        << "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
    svg << "<title>" << xml_escape(plot.title) << "</title>\n";
    svg << "<rect x=\"0\" y=\"0\" width=\"" << num(kWidth) << "\" height=\"" << num(height)
        << "\" fill=\"#ffffff\"/>\n";
    // The clip leaves a little room, so a guide along an edge of the plot keeps its whole stroke.
    svg << "<defs><clipPath id=\"plot-area\"><rect x=\"" << num(kLeft - 3) << "\" y=\"" << num(kTop - 3)
        << "\" width=\"" << num(kPlotWidth + 6) << "\" height=\"" << num(kPlotHeight + 6)
        << "\"/></clipPath></defs>\n";
    svg << "<text class=\"title\" x=\"" << num(kLeft) << "\" y=\"26\" font-size=\"16\" font-weight=\"bold\">"
        << xml_escape(plot.title) << "</text>\n";
    if (!plot.subtitle.empty())
        svg << "<text class=\"subtitle\" x=\"" << num(kLeft) << "\" y=\"46\" fill=\"#555555\">"
            << xml_escape(plot.subtitle) << "</text>\n";

    // Grid and ticks. Tick positions are counted in whole steps, so rounding never adds one.
    const AxisTicks xt{plot.x_min, plot.x_max, nice_ticks(plot.x_min, plot.x_max).step};
    const double bottom = kTop + kPlotHeight;
    svg << "<g class=\"grid\" stroke=\"#e6e6e6\" stroke-width=\"1\">\n";
    const int y_steps = static_cast<int>(std::llround((plot.y_max - plot.y_min) / plot.y_tick));
    for (int i = 0; i <= y_steps; ++i) {
        const double y = f.py(plot.y_min + i * plot.y_tick);
        svg << "  <line x1=\"" << num(kLeft) << "\" y1=\"" << num(y) << "\" x2=\"" << num(kLeft + kPlotWidth)
            << "\" y2=\"" << num(y) << "\"/>\n";
    }
    const double first_x = std::ceil(plot.x_min / xt.step - 1e-9) * xt.step;
    const int x_steps = static_cast<int>(std::floor((plot.x_max - first_x) / xt.step + 1e-9));
    for (int i = 0; i <= x_steps; ++i) {
        const double x = f.px(first_x + i * xt.step);
        svg << "  <line x1=\"" << num(x) << "\" y1=\"" << num(kTop) << "\" x2=\"" << num(x) << "\" y2=\""
            << num(bottom) << "\"/>\n";
    }
    svg << "</g>\n";

    svg << "<g class=\"axes\" stroke=\"#333333\" stroke-width=\"1\">\n";
    svg << "  <line x1=\"" << num(kLeft) << "\" y1=\"" << num(bottom) << "\" x2=\"" << num(kLeft + kPlotWidth)
        << "\" y2=\"" << num(bottom) << "\"/>\n";
    svg << "  <line x1=\"" << num(kLeft) << "\" y1=\"" << num(kTop) << "\" x2=\"" << num(kLeft) << "\" y2=\""
        << num(bottom) << "\"/>\n";
    for (int i = 0; i <= y_steps; ++i) {
        const double y = f.py(plot.y_min + i * plot.y_tick);
        svg << "  <line x1=\"" << num(kLeft - 5) << "\" y1=\"" << num(y) << "\" x2=\"" << num(kLeft) << "\" y2=\""
            << num(y) << "\"/>\n";
    }
    for (int i = 0; i <= x_steps; ++i) {
        const double x = f.px(first_x + i * xt.step);
        svg << "  <line x1=\"" << num(x) << "\" y1=\"" << num(bottom) << "\" x2=\"" << num(x) << "\" y2=\""
            << num(bottom + 5) << "\"/>\n";
    }
    svg << "</g>\n";
    svg << "<g class=\"tick-labels\" fill=\"#333333\">\n";
    for (int i = 0; i <= y_steps; ++i) {
        const double value = plot.y_min + i * plot.y_tick;
        svg << "  <text x=\"" << num(kLeft - 8) << "\" y=\"" << num(f.py(value) + 4)
            << "\" text-anchor=\"end\">" << fixed(value, plot.y_tick_decimals) << "</text>\n";
    }
    for (int i = 0; i <= x_steps; ++i) {
        const double value = first_x + i * xt.step;
        svg << "  <text x=\"" << num(f.px(value)) << "\" y=\"" << num(bottom + 19)
            << "\" text-anchor=\"middle\">" << short_number(value) << "</text>\n";
    }
    svg << "</g>\n";
    svg << "<text class=\"x-label\" x=\"" << num(kLeft + kPlotWidth / 2) << "\" y=\"" << num(bottom + 42)
        << "\" text-anchor=\"middle\" font-size=\"13\">" << xml_escape(plot.x_label) << "</text>\n";
    svg << "<text class=\"y-label\" transform=\"translate(" << num(kLeft - 48) << " " << num(kTop + kPlotHeight / 2)
        << ") rotate(-90)\" text-anchor=\"middle\" font-size=\"13\">" << xml_escape(plot.y_label) << "</text>\n";

    // Vertical marks and guides beneath the series, clipped to the plot area.
    svg << "<g class=\"vertical-marks\" clip-path=\"url(#plot-area)\">\n";
    for (const auto& v : plot.verticals) {
        if (v.x < plot.x_min || v.x > plot.x_max) continue;
        svg << "  <line class=\"knee\" x1=\"" << num(f.px(v.x)) << "\" y1=\"" << num(kTop) << "\" x2=\""
            << num(f.px(v.x)) << "\" y2=\"" << num(bottom) << "\" stroke=\"" << v.color
            << "\" stroke-width=\"1\" stroke-dasharray=\"2 3\"/>\n";
    }
    svg << "</g>\n";
    svg << "<g class=\"vertical-labels\" font-size=\"11\">\n";
    for (size_t i = 0; i < plot.verticals.size(); ++i) {
        const auto& v = plot.verticals[i];
        if (v.x < plot.x_min || v.x > plot.x_max || v.label.empty()) continue;
        // Staggered downwards so the labels of nearby marks do not overlap.
        svg << "  <text x=\"" << num(f.px(v.x) + 3) << "\" y=\"" << num(bottom - 8 - 14.0 * static_cast<double>(i % 4))
            << "\" fill=\"" << v.color << "\">" << xml_escape(v.label) << "</text>\n";
    }
    svg << "</g>\n";
    // The series' lines, then the guides over them, then the markers over both.
    auto series_color = [&](size_t s) {
        return plot.series[s].color.empty() ? plot_color(s) : plot.series[s].color;
    };
    svg << "<g class=\"series-lines\" fill=\"none\" stroke-width=\"2\" stroke-linejoin=\"round\">\n";
    for (size_t s = 0; s < plot.series.size(); ++s) {
        const auto& series = plot.series[s];
        svg << "  <polyline class=\"curve\" data-label=\"" << xml_escape(series.label) << "\" stroke=\""
            << series_color(s) << "\" points=\"";
        for (size_t i = 0; i < series.points.size(); ++i)
            svg << (i ? " " : "") << num(f.px(series.points[i].x)) << "," << num(f.py(series.points[i].y));
        svg << "\"/>\n";
    }
    svg << "</g>\n";
    svg << "<g class=\"guides\" clip-path=\"url(#plot-area)\" fill=\"none\">\n";
    for (const auto& g : plot.guides) {
        if (g.vertices.empty()) continue;
        svg << "  <path class=\"" << xml_escape(g.css_class) << "\" d=\"";
        for (size_t i = 0; i < g.vertices.size(); ++i)
            svg << (i ? " L " : "M ") << num(f.px(g.vertices[i].first)) << " " << num(f.py(g.vertices[i].second));
        svg << "\" stroke=\"" << g.color << "\" stroke-width=\"1.3\" stroke-dasharray=\"" << g.dash
            << "\"><title>" << xml_escape(g.label) << "</title></path>\n";
    }
    svg << "</g>\n";
    for (size_t s = 0; s < plot.series.size(); ++s) {
        const auto& series = plot.series[s];
        const std::string color = series_color(s);
        svg << "<g class=\"series-points\" data-label=\"" << xml_escape(series.label) << "\">\n";
        for (const auto& p : series.points) {
            const double x = f.px(p.x), y = f.py(p.y);
            svg << "  <circle class=\"point\" cx=\"" << num(x) << "\" cy=\"" << num(y) << "\" r=\"3\" fill=\"" << color
                << "\" data-x=\"" << short_number(p.x) << "\" data-y=\"" << fixed(p.y, 3) << "\"><title>"
                << xml_escape(p.tooltip) << "</title></circle>\n";
            if (p.mark == PointMark::checked)
                svg << "  <rect class=\"checked\" x=\"" << num(x - 6) << "\" y=\"" << num(y - 6)
                    << "\" width=\"12\" height=\"12\" fill=\"none\" stroke=\"#111111\" stroke-width=\"1.3\"><title>"
                    << xml_escape(p.tooltip) << "</title></rect>\n";
            if (p.mark == PointMark::failed)
                svg << "  <path class=\"failed\" d=\"M " << num(x - 7) << " " << num(y - 7) << " L " << num(x + 7) << " "
                    << num(y + 7) << " M " << num(x - 7) << " " << num(y + 7) << " L " << num(x + 7) << " "
                    << num(y - 7) << "\" stroke=\"#d62728\" stroke-width=\"2.5\"><title>" << xml_escape(p.tooltip)
                    << "</title></path>\n";
        }
        svg << "</g>\n";
    }

    // The legend, to the right of the plot.
    svg << "<g class=\"legend\">\n";
    double row = kTop + 6.0;
    auto text_at = [&](const std::string& label) {
        svg << "  <text x=\"" << num(kLegendX + 34) << "\" y=\"" << num(row + 4) << "\">" << xml_escape(label)
            << "</text>\n";
    };
    for (size_t s = 0; s < plot.series.size(); ++s) {
        const std::string color = plot.series[s].color.empty() ? plot_color(s) : plot.series[s].color;
        svg << "  <line x1=\"" << num(kLegendX) << "\" y1=\"" << num(row) << "\" x2=\"" << num(kLegendX + 26)
            << "\" y2=\"" << num(row) << "\" stroke=\"" << color << "\" stroke-width=\"2\"/>\n";
        svg << "  <circle cx=\"" << num(kLegendX + 13) << "\" cy=\"" << num(row) << "\" r=\"3\" fill=\"" << color
            << "\"/>\n";
        text_at(plot.series[s].label);
        row += kLegendRow;
    }
    for (const auto& g : plot.guides) {
        if (!g.in_legend) continue;
        svg << "  <line x1=\"" << num(kLegendX) << "\" y1=\"" << num(row) << "\" x2=\"" << num(kLegendX + 26)
            << "\" y2=\"" << num(row) << "\" stroke=\"" << g.color << "\" stroke-width=\"1.3\" stroke-dasharray=\""
            << g.dash << "\"/>\n";
        text_at(g.label);
        row += kLegendRow;
    }
    if (any_checked) {
        svg << "  <rect x=\"" << num(kLegendX + 7) << "\" y=\"" << num(row - 6)
            << "\" width=\"12\" height=\"12\" fill=\"none\" stroke=\"#111111\" stroke-width=\"1.3\"/>\n";
        text_at(plot.checked_legend);
        row += kLegendRow;
    }
    if (any_failed) {
        const double cx = kLegendX + 13;
        svg << "  <path d=\"M " << num(cx - 7) << " " << num(row - 7) << " L " << num(cx + 7) << " " << num(row + 7)
            << " M " << num(cx - 7) << " " << num(row + 7) << " L " << num(cx + 7) << " " << num(row - 7)
            << "\" stroke=\"#d62728\" stroke-width=\"2.5\"/>\n";
        text_at(plot.failed_legend);
        row += kLegendRow;
    }
    svg << "</g>\n";
    svg << "</svg>\n";
    return svg.str();
}

}  // namespace creditloop
