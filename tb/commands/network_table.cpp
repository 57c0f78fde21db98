#include "network_table.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "network_bank.h"
#include "network_command.h"
#include "network_library.h"
#include "noc_forms.h"
#include "noc_graph.h"
#include "noc_run.h"
#include "parse_error.h"
#include "svg_plot.h"

namespace fs = std::filesystem;

namespace creditloop {

namespace {

struct Setup {
    const char* topology;
    NocConfig config;
};

// The grid: a one-way ring without and with a dateline, a two-way ring with one, and a 4 x 4 mesh
// with one and two VCs under dimension order and with two under adaptive routing; B = 4, L = 1,
// one-flit packets, uniform traffic.
std::vector<Setup> grid() {
    return {{"ring:8", {0, 8, 1, 0, 1, 4, 1}},   {"ring:8", {0, 8, 1, 1, 2, 4, 1}}, {"ring2:8", {1, 8, 1, 1, 2, 4, 1}},
            {"mesh:4x4", {2, 4, 4, 0, 1, 4, 1}}, {"mesh:4x4", {2, 4, 4, 0, 2, 4, 1}},
            {"mesh:4x4", {2, 4, 4, 1, 2, 4, 1}}};
}

}  // namespace

int run_network_table(const std::string& dir, bool force, const DutSources& sources, uint64_t seed) {
    const fs::path out(dir);
    if (fs::exists(out / "network.md") && !force) {
        std::cerr << "creditloop: " << (out / "network.md").string() << " exists: add --force to overwrite it\n";
        return 2;
    }
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) {
        std::cerr << "creditloop: cannot create " << dir << ": " << ec.message() << "\n";
        return 3;
    }
    const auto setups = grid();
    std::vector<NetworkWanted> wanted;
    for (const auto& s : setups) wanted.push_back({s.config, {}});
    // The progress line is gone before an error is printed (build_networks ends it).
    if (const Problem e = build_networks(wanted, sources, "building " + std::to_string(wanted.size()) + " networks")) return refuse(*e, 3);
    std::string table =
        "| topology | VCs | routing | dependency graph | deadlock at full load | zero-load latency (closed form = measured) | "
        "channel-load bound | credit bound | saturation measured | lockstep |\n|---|---:|---|---|---|---:|---:|---:|---:|---|\n";
    int failures = 0;
    const double fractions[] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25};
    for (const auto& s : setups) {
        const NocConfig& c = s.config;
        std::string error;
        auto lib = NetworkLibrary::load({c, {}}, sources, error);
        if (!lib) return refuse(error, 3);
        auto dut = lib->create();
        const NocRouteFn route = [&](int h, int d, int p, int v) {
            const auto r = dut->route(h, d, p, v);
            return NocRoute{r.port, r.mask, r.alt_port, r.alt_mask};
        };
        const auto g = dependency_graph(c, route);
        // Adaptive routing: its escape VC's extended graph is the one that must be acyclic (Duato).
        const bool adaptive = c.topo == 2 && c.routing == 1;
        const auto escape = adaptive ? dependency_graph(c, route, 0) : g;
        NocTraffic t;
        t.seed = seed;
        const NocBounds b = network_bounds(c, t);
        const NocZeroLoad z = zero_load_check(dut.get(), c, 1);
        bool lockstep_ok = !z.violation;
        // Full load: every node offered a flit every cycle for 20,000 cycles.
        NocRunSpec full;
        full.config = c;
        full.traffic = t;
        full.traffic.rate = 1.0;
        full.warmup = 1000;
        full.measure = 20000;
        full.drain = 0;
        full.expect_deadlock = true;   // recorded, not failed: the table says which routings deadlock
        const NocRunResult fr = run_network(dut.get(), full);
        lockstep_ok = lockstep_ok && !fr.violation;
        // Latency against offered load, up to a little past the bound.
        PlotSeries series{"measured average latency", "", {}};
        const double top = b.saturation();
        double latency_max = 0;
        for (double f : fractions) {
            NocRunSpec spec;
            spec.config = c;
            spec.traffic = t;
            spec.traffic.rate = std::min(1.0, f * top);
            spec.warmup = 1000;
            spec.measure = 5000;
            spec.drain = 20000;
            const NocRunResult r = run_network(dut.get(), spec);
            lockstep_ok = lockstep_ok && (!r.violation || r.violation->check == "deadlock");
            if (r.deadlock || r.latency_count == 0) break;
            series.points.push_back({r.offered, r.latency_avg, PointMark::plain,
                                     fmt::format("offered {:.3f}, accepted {:.3f}, latency {:.1f} (99th {:.0f})", r.offered, r.accepted, r.latency_avg, r.latency_p99)});
            latency_max = std::max(latency_max, r.latency_avg);
        }
        Plot plot;
        plot.title = std::string(s.topology) + ", " + std::to_string(c.v) + " VC" + (c.v > 1 ? "s" : "") + ", " + routing_name(c) + ", uniform";
        plot.subtitle = fmt::format("B = {}, L = {}, one-flit packets; RTL in lockstep with the model", c.b, c.l);
        plot.x_label = "offered load (flits per node per cycle)";
        plot.y_label = "average latency (cycles)";
        plot.x_max = std::max(0.05, std::min(1.0, 1.3 * top));
        // Latency grows without bound past saturation: the axis stops at 6 times the zero-load
        // latency, and the points above it are left out (their values are in their tooltips' runs).
        const double ceiling = 6 * b.zero_load;
        series.points.erase(std::remove_if(series.points.begin(), series.points.end(),
                                           [&](const PlotPoint& p) { return p.y > ceiling; }),
                            series.points.end());
        plot.subtitle += "; latency above 6x zero load not drawn";
        const AxisTicks ticks = nice_ticks(0, std::min(ceiling, std::max(latency_max, 2 * b.zero_load)), 6);
        plot.y_max = ticks.hi;
        plot.y_tick = ticks.step;
        plot.y_tick_decimals = 0;
        plot.series = {series};
        plot.guides.push_back({fmt::format("zero-load latency {:.2f}", b.zero_load), true, "#333333", "guide", "7 4",
                               {{0, b.zero_load}, {plot.x_max, b.zero_load}}});
        plot.verticals.push_back({b.channel_load, fmt::format("channel load {:.3f}", b.channel_load), "#888888"});
        if (b.credit_known) plot.verticals.push_back({b.credit, fmt::format("credit {:.3f}", b.credit), "#bb4444"});
        const std::string svg = noc_key(c) + ".svg";
        std::ofstream(out / svg) << render_svg(plot);
        const bool acyclic = escape.cycle.empty() && escape.problem.empty();
        // A routing whose graph (an adaptive one's escape graph) is acyclic must not deadlock; one
        // whose graph has a cycle may.
        if (acyclic && fr.deadlock) ++failures;
        if (!lockstep_ok) ++failures;
        if (b.credit_known && !fr.deadlock && fr.accepted > b.saturation() * 1.02) ++failures;
        table += fmt::format("| {} | {} | {} | {} | {} | {:.2f} = {} | {:.3f} | {} | {} | {} |\n", s.topology, c.v, routing_name(c),
                             (g.cycle.empty() ? std::string("acyclic") : "cycle of " + std::to_string(g.cycle.size())) +
                                 (adaptive ? std::string("; escape VC's ") + (acyclic ? "acyclic" : "cyclic") : ""),
                             fr.deadlock ? "found at cycle " + std::to_string(fr.deadlock->first_cycle) : std::string("none"),
                             b.zero_load, z.violation ? "differs" : "exact", b.channel_load,
                             b.credit_known ? fmt::format("{:.3f}", b.credit) : "-",
                             fr.deadlock ? std::string("-") : fmt::format("{:.3f}", fr.accepted),
                             lockstep_ok ? "agrees" : "DIFFERS");
        std::cout << "network " << noc_key(c) << ": " << (acyclic ? "acyclic" : "cyclic") << ", "
                  << (fr.deadlock ? "deadlock " + fr.deadlock->line() : fmt::format("saturation {:.3f}", fr.accepted)) << "\n";
    }
    std::ofstream(out / "network.md") << "# make network\n\n" << table;
    std::cout << "\n" << table << "\nwritten: " << (out / "network.md").string() << " and one SVG per setup\n";
    return failures ? 1 : 0;
}

int run_network_slice(const DutSources& sources, uint64_t seed) {
    struct Item {
        const char* what;
        NocConfig config;
        NocTraffic traffic;
        bool deadlock;   // expected
    };
    const std::vector<Item> items = {
        {"one-way ring of 4, 1 VC, minimal, three hops ahead", {0, 4, 1, 0, 1, 2, 1}, {NocPattern::hops, 3, 1.0, 1, seed}, true},
        {"one-way ring of 6, 2 VCs, dateline, uniform at full load", {0, 6, 1, 1, 2, 4, 1}, {NocPattern::uniform, 1, 1.0, 1, seed}, false},
        {"3 x 3 mesh, 2 VCs, dimension order, uniform at 0.3", {2, 3, 3, 0, 2, 4, 1}, {NocPattern::uniform, 1, 0.3, 2, seed}, false}};
    std::vector<NetworkWanted> wanted;
    for (const auto& i : items) wanted.push_back({i.config, {}});
    if (const Problem e = build_networks(wanted, sources, "building the network slice")) return refuse(*e, 3);
    int failures = 0;
    for (const auto& i : items) {
        std::string error;
        auto lib = NetworkLibrary::load({i.config, {}}, sources, error);
        if (!lib) return refuse(error, 3);
        auto dut = lib->create();
        const auto g = dependency_graph(i.config, [&](int h, int d, int p, int v) {
            const auto r = dut->route(h, d, p, v);
            return NocRoute{r.port, r.mask, r.alt_port, r.alt_mask};
        });
        const NocZeroLoad z = zero_load_check(dut.get(), i.config, i.traffic.flits);
        NocRunSpec spec;
        spec.config = i.config;
        spec.traffic = i.traffic;
        spec.measure = 5000;
        spec.expect_deadlock = i.deadlock;
        const NocBounds b = network_bounds(i.config, i.traffic);
        if (i.traffic.rate > b.saturation()) spec.drain = 1000;   // queues only grow past saturation
        const NocRunResult r = run_network(dut.get(), spec);
        std::string why;
        if (z.violation) why = z.violation->line();
        else if (r.violation) why = r.violation->line();
        else if (r.assertion_cycle) why = "an RTL assertion fired at cycle " + std::to_string(*r.assertion_cycle);
        else if (i.deadlock != !g.cycle.empty()) why = std::string("the dependency graph is ") + (g.cycle.empty() ? "acyclic" : "cyclic");
        else if (i.deadlock && !r.deadlock) why = "no deadlock found";
        else if (!i.deadlock && r.accepted > b.saturation() * 1.02) why = fmt::format("accepted {:.3f} above the bound {:.3f}", r.accepted, b.saturation());
        else if (!i.deadlock && i.traffic.rate < b.saturation() && !r.drained) why = "not drained below saturation";
        const std::string what = std::string(i.what) + " (" + noc_key(i.config) + "): ";
        if (!why.empty()) {
            ++failures;
            std::cout << "FAIL network " << what << why << "\n";
        } else if (i.deadlock) {
            std::cout << "PASS network " << what << "deadlock caught as expected " << r.deadlock->line() << "\n";
        } else {
            std::cout << "PASS network " << what << fmt::format("acyclic, lockstep {} cycles, accepted {:.3f} (bound {:.3f})", r.lockstep_cycles, r.accepted, b.saturation())
                      << (r.latency_count ? fmt::format(", latency {:.1f}", r.latency_avg) : std::string(", saturated")) << "\n";
        }
    }
    return failures ? 1 : 0;
}

}  // namespace creditloop
