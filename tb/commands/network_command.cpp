#include "network_command.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "cli_parse.h"
#include "network_bank.h"
#include "network_library.h"
#include "network_table.h"
#include "noc_forms.h"
#include "noc_graph.h"
#include "noc_run.h"
#include "progress.h"

namespace fs = std::filesystem;

namespace creditloop {

namespace {

struct NetworkOptions {
    std::string topology = "ring:4", routing, pattern = "uniform", waves_dir = "waves", table_dir, mutant, mutants_dir;
    int vcs = 2, buffer = 4, stages = 1, flits = 1;
    double rate = 0.1;
    uint64_t cycles = 10000, warmup = 1000, seed = 1;
    bool expect_deadlock = false, model_only = false, waves = false, force = false, slice = false, mutants = false;
};

// The topology's words: ring:N (one way), ring2:N (both ways), mesh:XxY.
std::optional<std::string> read_topology(const std::string& text, NocConfig& c) {
    std::smatch m;
    if (std::regex_match(text, m, std::regex("(ring|ring2):([0-9]+)"))) {
        c.topo = m[1] == "ring" ? 0 : 1;
        c.nx = std::stoi(m[2].str().substr(0, 4));
        c.ny = 1;
        if (c.nx < 2 || c.nx > 16) return "--topology " + text + ": a ring has 2 to 16 nodes";
        return std::nullopt;
    }
    if (std::regex_match(text, m, std::regex("mesh:([0-9]+)x([0-9]+)"))) {
        c.topo = 2;
        c.nx = std::stoi(m[1].str().substr(0, 4));
        c.ny = std::stoi(m[2].str().substr(0, 4));
        if (c.nx < 2 || c.nx > 4 || c.ny < 2 || c.ny > 4) return "--topology " + text + ": a mesh is 2 to 4 nodes each way (mesh:2x2 to mesh:4x4)";
        return std::nullopt;
    }
    return "--topology " + text + ": use ring:N (one way), ring2:N (both ways) or mesh:XxY";
}

std::optional<std::string> read_routing(const std::string& text, NocConfig& c) {
    if (text.empty()) {   // the deadlock-free one the VCs allow
        c.routing = c.topo != 2 && c.v >= 2 && c.v % 2 == 0 ? 1 : 0;
        return std::nullopt;
    }
    if (c.topo == 2) {
        if (text == "dor") c.routing = 0;
        else if (text == "adaptive") c.routing = 1;
        else return "--routing " + text + ": a mesh's routings are dor (dimension order) and adaptive";
        if (c.routing == 1 && c.v < 2) return "--routing adaptive needs --vcs 2 or more (VC 0 is its escape channel)";
        return std::nullopt;
    }
    if (text == "minimal") c.routing = 0;
    else if (text == "dateline") c.routing = 1;
    else return "--routing " + text + ": a ring's routings are minimal and dateline";
    if (c.routing == 1 && (c.v < 2 || c.v % 2 != 0)) return "--routing dateline needs an even number of VCs (--vcs 2 or 4): two classes";
    return std::nullopt;
}

std::optional<std::string> read_pattern(const std::string& text, NocTraffic& t) {
    std::smatch m;
    if (text == "uniform") t.pattern = NocPattern::uniform;
    else if (text == "transpose") t.pattern = NocPattern::transpose;
    else if (text == "neighbor") t.pattern = NocPattern::neighbor;
    else if (std::regex_match(text, m, std::regex("hops:([0-9]{1,3})"))) {
        t.pattern = NocPattern::hops;
        t.hops = std::stoi(m[1]);
    } else return "--pattern " + text + ": use uniform, transpose, neighbor or hops:K";
    return std::nullopt;
}

// The waves of a run and their save file: the deadlock's buffers (or the failing VC's router)
// first, then every router's observed state.
std::string write_save_file(const std::string& waves, const std::string& scope, const NocConfig& c,
                            const NocRunResult& r) {
    const std::string path = fs::path(waves).replace_extension(".gtkw").string();
    std::ofstream out(path);
    out << "[dumpfile] \"" << fs::absolute(waves).string() << "\"\n";
    if (r.violation && r.violation->cycle > 20) out << "[timestart] " << 10 * (r.violation->cycle - 20) << "\n";
    std::vector<int> first;
    if (r.deadlock)
        for (const auto& b : r.deadlock->buffers) first.push_back(std::stoi(b));
    for (int n = 0; n < c.nodes(); ++n)
        if (std::find(first.begin(), first.end(), n) == first.end()) first.push_back(n);
    const int q = c.ports() * c.v, cw = [&] { int w = 0; while ((1 << w) <= c.b) ++w; return w; }();
    out << "@28\n" << scope << ".clk\n";
    for (int n : first) {
        const std::string router = scope + ".u_net.g_node[" + std::to_string(n) + "].u_router.";
        out << "-node " << n << "\n@22\n"
            << router << "obs_fill[" << q * cw - 1 << ":0]\n"
            << router << "obs_credits[" << q * cw - 1 << ":0]\n"
            << router << "obs_wait[" << q * q - 1 << ":0]\n";
    }
    return out ? path : "";
}

void print_bounds(std::ostream& out, const NocBounds& b) {
    out << fmt::format("closed forms: average hops {:.3f}, zero-load latency {:.2f} cycles; channel-load bound {:.3f} ({}); ",
                             b.average_hops, b.zero_load, b.channel_load, b.channel_load_at);
    if (b.credit_known) out << fmt::format("credit bound {:.3f} ({}); saturation <= {:.3f}\n", b.credit, b.credit_at, b.saturation());
    else out << "credit bound: not derived for adaptive routing (the split between VCs is the router's choice)\n";
}

}  // namespace

namespace {

// The options, read and checked into a run; nullopt and `error` on bad input or --help.
std::optional<NetworkRequest> parse_network(const std::vector<std::string>& args, ParseError& error, NetworkOptions& o) {
    CLI::App app{"A credit network of routers on the RTL, in lockstep with the model: channel dependency graph, zero-load "
                 "latency, then traffic at one offered rate against the closed forms, with the deadlock detector.",
                 "creditloop network"};
    app.add_option("--topology", o.topology, "ring:N (one way, N = 2..16), ring2:N (both ways) or mesh:XxY (2..4 each)")->capture_default_str();
    app.add_option("--vcs", o.vcs, "VCs per port")->check(whole_number(1, 4))->capture_default_str();
    app.add_option("--routing", o.routing, "ring: minimal or dateline; mesh: dor or adaptive (default: dateline on a ring with an even V, else minimal; dor on a mesh)");
    app.add_option("--buffer", o.buffer, "B: slots per VC (flits)")->check(whole_number(2, 15))->capture_default_str();
    app.add_option("--L", o.stages, "link stages each way")->check(stages_limit())->capture_default_str();
    app.add_option("--rate", o.rate, "offered flits per node per cycle (0 < P <= 1)")->check(CLI::Range(0.0, 1.0))->capture_default_str();
    app.add_option("--pattern", o.pattern, "uniform, transpose (square mesh), neighbor or hops:K")->capture_default_str();
    app.add_option("--flits", o.flits, "flits per packet")->check(whole_number(1, 15))->capture_default_str();
    app.add_option("--cycles", o.cycles, "the measurement window")->check(whole_number(100, 10000000))->capture_default_str();
    app.add_option("--warmup", o.warmup, "cycles before the window")->check(whole_number(0, 10000000))->capture_default_str();
    app.add_option("--seed", o.seed, "traffic seed")->check(whole_number(0, 0x7FFFFFFF))->capture_default_str();
    add_flag(app, "--expect-deadlock", o.expect_deadlock, "a deadlock is the expected outcome (the run fails without one)");
    add_flag(app, "--model", o.model_only, "the golden model alone (no RTL, no lockstep)");
    add_flag(app, "--waves", o.waves, "write the run's waves (a failing run's are written anyway)");
    app.add_option("--waves-dir", o.waves_dir, "where waves go")->capture_default_str();
    app.add_option("--mutant", o.mutant, "a patch of one network RTL file (rtl/mutants/noc/*.mutant)");
    app.add_option("--table", o.table_dir, "make network's grid instead of one run: table and plots into DIR");
    add_flag(app, "--slice", o.slice, "make sim's network slice instead of one run");
    add_flag(app, "--mutants", o.mutants, "every mutant of rtl/mutants/noc/ on the run its header gives: each must fail its expected check");
    add_flag(app, "--force", o.force, "with --table: overwrite DIR's files");
    if (!parse_command(app, args, error)) return std::nullopt;
    NetworkRequest q;
    NocConfig& c = q.spec.config;
    c.v = o.vcs;
    c.b = o.buffer;
    c.l = o.stages;
    const auto bad = [&](const std::string& message) {
        error.message = message;
        return std::nullopt;
    };
    if (auto e = read_topology(o.topology, c)) return bad(*e);
    if (auto e = read_routing(o.routing, c)) return bad(*e);
    if (auto e = read_pattern(o.pattern, q.spec.traffic)) return bad(*e);
    if (auto e = pattern_problem(c, q.spec.traffic); !e.empty()) return bad(e);
    if (o.rate <= 0.0) return bad("--rate 0: offer some traffic (0 < P <= 1)");
    if (!o.mutant.empty() && !fs::exists(o.mutant)) return bad("--mutant " + o.mutant + ": no such file");
    q.spec.traffic.rate = o.rate;
    q.spec.traffic.flits = o.flits;
    q.spec.traffic.seed = o.seed;
    q.spec.measure = o.cycles;
    q.spec.warmup = o.warmup;
    q.spec.drain = std::max<uint64_t>(20000, 4 * o.cycles);
    q.spec.expect_deadlock = o.expect_deadlock;
    q.pattern = o.pattern;
    return q;
}

}  // namespace

NetworkVerdict check_network(const NetworkRequest& q, NocDut* dut, std::ostream& out, NocRunResult* result) {
    const NocRunSpec& spec = q.spec;
    const NocConfig& c = spec.config;
    NetworkVerdict v;
    const auto failed = [&](const std::string& check, const std::string& line) {
        if (v.first_check.empty()) v.first_check = check;
        ++v.failures;
        out << "FAIL " << line << "\n";
    };
    // On paper first: the channel dependency graph of the routing function.
    const NocRouteFn route = [&](int here, int dest, int in_port, int in_vc) {
        if (!dut) return noc_route(c, here, dest, in_port, in_vc);
        const auto r = dut->route(here, dest, in_port, in_vc);
        return NocRoute{r.port, r.mask, r.alt_port, r.alt_mask};
    };
    const auto show = [&](const std::string& what, const NocDependencyGraph& g) {
        std::string text;
        for (const auto& ch : g.cycle) text += ch + " -> ";
        out << what << " (" << (dut ? "the RTL's route block" : "the model's routing") << "): " << g.edges << " edges, "
            << (g.cycle.empty() ? "acyclic" : "a cycle: " + text + g.cycle.front()) << "\n";
    };
    const NocDependencyGraph g = dependency_graph(c, route);
    show("channel dependency graph", g);
    // A dateline and dimension order promise an acyclic graph (Dally and Seitz); adaptive routing
    // an acyclic graph of its escape VC, offered to every head (Duato).
    const bool adaptive = c.topo == 2 && c.routing == 1;
    if (!adaptive && c.routing == (c.topo == 2 ? 0 : 1) && !g.cycle.empty())
        failed("dependency graph", "dependency graph: " + routing_name(c) + " routing must give an acyclic graph, the RTL's has a cycle");
    if (adaptive) {
        const NocDependencyGraph e = dependency_graph(c, route, 0);
        show("escape VC 0's extended dependency graph", e);
        if (!e.problem.empty()) failed("dependency graph", "dependency graph: " + e.problem);
        else if (!e.cycle.empty())
            failed("dependency graph", "dependency graph: adaptive routing's escape VC must give an acyclic extended graph, the RTL's has a cycle");
    }

    const NocZeroLoad z = zero_load_check(dut, c, spec.traffic.flits);
    if (z.violation) failed(z.violation->check, "zero load: " + z.violation->line());
    else
        out << "zero-load latency: " << z.pairs << " pairs, one packet at a time, each exactly h (L + 2) + 2 + s(F)"
            << (dut ? ", model in lockstep" : "") << "\n";
    const NocBounds b = network_bounds(c, spec.traffic);
    print_bounds(out, b);

    const NocRunResult r = run_network(dut, spec);
    if (r.cycles < spec.warmup + spec.measure && (r.deadlock || r.violation)) {
        out << "measured: nothing, the run stopped in cycle " << r.cycles << ", before the end of its window (cycle "
            << spec.warmup + spec.measure << ")\n";
    } else {
        out << fmt::format("measured over cycles {}..{}: offered {:.3f}, accepted {:.3f} flits/node/cycle; latency average {:.2f}, 99th percentile {:.0f} cycles ({} packets)\n",
                           spec.warmup, spec.warmup + spec.measure, r.offered, r.accepted, r.latency_avg, r.latency_p99, r.latency_count);
        auto use = r.credit_use;
        double mean = 0;
        for (const auto& u : use) mean += u.share;
        mean /= double(std::max<size_t>(1, use.size()));
        std::sort(use.begin(), use.end(), [](const auto& x, const auto& y) { return x.share > y.share; });
        if (!use.empty()) {
            out << fmt::format("credit use per link (share of V x B credits out): mean {:.1f} %, highest", 100 * mean);
            for (size_t i = 0; i < use.size() && i < 4; ++i) out << fmt::format(" {}.{} {:.1f} %", use[i].node, use[i].port, 100 * use[i].share);
            out << "\n";
        }
    }
    if (c.topo == 2 && c.routing == 1) out << "adaptive: " << r.second_port_grants << " heads given a VC on their route's second port\n";
    if (r.deadlock) out << "deadlock " << r.deadlock->line() << "\n";
    if (r.violation) failed(r.violation->check, r.violation->line());
    if (r.assertion_cycle) failed("assertion", "an RTL assertion fired at cycle " + std::to_string(*r.assertion_cycle));
    if (spec.expect_deadlock && !r.deadlock)
        failed("deadlock", "a deadlock was expected and none was found in " + std::to_string(r.cycles) + " cycles");
    if (!r.violation && !r.deadlock && b.credit_known && r.accepted > b.saturation() * 1.02 + 1e-9)
        failed("bound", fmt::format("accepted {:.3f} flits/node/cycle is above the closed-form saturation {:.3f}", r.accepted, b.saturation()));
    if (!r.violation && !r.deadlock && !r.drained && spec.traffic.rate < 0.9 * b.saturation())
        failed("delivery", "below saturation the window's packets were not all delivered within " + std::to_string(spec.drain) + " cycles");
    if (!r.deadlock && !r.violation && !r.drained) out << "above saturation: the window's packets were still queued at the end of the drain\n";
    out << "checks: lockstep " << (dut ? std::to_string(r.lockstep_cycles) + " cycles" : std::string("off (model alone)"))
        << ", conservation, overflow, send at zero, delivery (" << r.packets_delivered << " packets), deadlock\n";
    if (result) *result = r;
    return v;
}

std::optional<NetworkRequest> parse_network_request(const std::vector<std::string>& args, ParseError& error) {
    NetworkOptions o;
    return parse_network(args, error, o);
}

int run_network_command(const std::vector<std::string>& args, const std::string& program) {
    NetworkOptions o;
    ParseError error;
    const auto request = parse_network(args, error, o);
    if (!request) return parse_failed(error);
    const DutSources sources = DutSources::from_environment();
    if (!o.table_dir.empty()) return run_network_table(o.table_dir, o.force, sources, o.seed);
    if (o.slice) return run_network_slice(sources, o.seed);
    if (o.mutants) return run_network_mutants(sources, program);
    const NocConfig& c = request->spec.config;

    std::vector<std::string> rtl;
    if (!o.mutant.empty()) {
        std::string why;
        rtl = network_mutant_rtl(o.mutant, sources, why);
        if (rtl.empty()) {
            std::cerr << "creditloop: --mutant " << o.mutant << ": " << why << "\n";
            return 2;
        }
    }
    std::cout << "network " << noc_key(c) << ", " << o.pattern << " at " << fmt::format("{:.3f}", o.rate)
              << " flits/node/cycle, " << o.flits << "-flit packets, seed " << o.seed << (o.model_only ? ", model alone" : "")
              << (o.mutant.empty() ? "" : ", mutant " + o.mutant) << "\n";
    std::unique_ptr<NetworkLibrary> lib;
    std::unique_ptr<NocDut> dut;
    if (!o.model_only) {
        if (const Problem e = build_networks({{c, rtl}}, sources, "building " + noc_key(c))) return refuse(*e, 3);
        std::string load_error;
        lib = NetworkLibrary::load({c, rtl}, sources, load_error);
        if (!lib) return refuse(load_error, 3);
        dut = lib->create();
    }
    std::string waves;
    const auto open_waves = [&] {
        fs::create_directories(o.waves_dir);
        waves = (fs::path(o.waves_dir) / ("network_" + noc_key(c) + "_seed" + std::to_string(o.seed) + "." + lib->trace_format())).string();
        dut = lib->create();
        if (std::string e = dut->open_trace(waves); !e.empty()) std::cerr << "creditloop: " << e << "\n";
    };
    if (dut && o.waves) open_waves();
    NocRunResult r;
    const NetworkVerdict v = check_network(*request, dut.get(), std::cout, &r);
    std::string rerun = program + " network";
    for (const auto& a : args) rerun += " " + a;
    if (dut && (o.waves || v.failures)) {
        if (!o.waves) {   // the same run again, with waves (the same seed gives the same cycles)
            open_waves();
            std::ostringstream quiet;
            check_network(*request, dut.get(), quiet, &r);
        }
        dut->close_trace();
        std::cout << "waves: gtkwave " << waves << " " << write_save_file(waves, lib->trace_scope(), c, r) << "\n";
    }
    if (v.failures) std::cout << "rerun: " << rerun << "\n";
    std::cout << (v.failures ? "FAIL" : "PASS") << "\n";
    return v.failures ? 1 : 0;
}

Problem build_networks(const std::vector<NetworkWanted>& wanted, const DutSources& sources, const std::string& what) {
    std::optional<Progress> progress;   // drawn only when something is built
    const auto errors = build_network_duts(wanted, sources, [&](const std::string& s) {
        if (!progress) progress.emplace("creditloop network"), progress->phase(what);
        progress->status(s);
    });
    if (errors.empty()) return std::nullopt;
    return errors.front();
}

}  // namespace creditloop
