#include "prove_command.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include <nlohmann/json.hpp>

#include "block_swap.h"
#include "observed_tops.h"
#include "cli_parse.h"
#include "parse_error.h"
#include "port_map.h"
#include "process.h"

namespace fs = std::filesystem;

namespace creditloop {

namespace {

struct ProveCommand {
    std::string counter, link, mutant;
    std::string L = "1-3", B = "1-8", K = "1-3", policies = "batch,hybrid,timeout";
    bool K_given = false, policies_given = false;
    int W = 2;
    int channels = 2;
    int max_k = 0;
    int jobs = 2;
    std::string out = "build/prove";
    std::string junit;
    bool no_replay = false;
};

// "1-3", "2,4,6", "1-2,5" -> the values, each in [low, high]; or one error line.
Problem parse_range(const std::string& option, const std::string& text, int low, int high, std::vector<int>& out) {
    std::set<int> values;
    const std::string form = option + " " + text + ": give whole numbers from " + std::to_string(low) + " to " +
                             std::to_string(high) + " as a list or ranges (1-3, or 2,4,6)";
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string part = text.substr(start, comma - start);
        const size_t dash = part.find('-', 1);
        try {
            size_t used = 0;
            const int a = std::stoi(part.substr(0, dash), &used);
            if (used != part.substr(0, dash).size()) return form;
            int b = a;
            if (dash != std::string::npos) {
                b = std::stoi(part.substr(dash + 1), &used);
                if (used != part.size() - dash - 1) return form;
            }
            if (a < low || b > high || a > b) return form;
            for (int v = a; v <= b; ++v) values.insert(v);
        } catch (const std::exception&) {
            return form;
        }
        start = comma + 1;
    }
    out.assign(values.begin(), values.end());
    return std::nullopt;
}

std::optional<ProveCommand> parse_prove(const std::vector<std::string>& args, ParseError& error) {
    ProveCommand cmd;
    CLI::App app{"Prove by k-induction (yosys, yosys-smtbmc, z3) that your counter or link conserves credits, never "
                 "overflows the receiver and never sends at zero, on a grid of configurations (docs/prove.md).",
                 "creditloop prove"};
    app.add_option("--counter", cmd.counter, "your credit counter: a .json map of its ports (or a .sv to seed 002's contract)");
    app.add_option("--link", cmd.link, "your sender and receiver: a .json link map");
    app.add_option("--mutant", cmd.mutant, "PATH.mutant: a patch of a file of the map, proved in its place");
    app.add_option("--L", cmd.L, "pipeline stages each way: a list or ranges")->capture_default_str();
    app.add_option("--B", cmd.B, "credits (buffer slots): a list or ranges")->capture_default_str();
    auto* k = app.add_option("--K", cmd.K, "credits returned in one batch (a counter that takes counts)")->capture_default_str();
    auto* policies = app.add_option("--policy", cmd.policies,
                                    "return policies, comma-separated: batch, hybrid (LOW = K, IDLE = 2), timeout (2 cycles)")
                         ->capture_default_str();
    app.add_option("--channels", cmd.channels, "a module of every channel's counters: channels, a pool and a return path each")
        ->check(whole_number(2, 4))->capture_default_str();
    app.add_option("--W", cmd.W, "payload bits (the credit logic never reads them)")->check(whole_number(1, 32))->capture_default_str();
    app.add_option("--max-k", cmd.max_k, "the deepest induction tried (default: the link's longest path, 2L + 6 and more)")
        ->check(whole_number(1, 64));
    app.add_option("--jobs", cmd.jobs, "proofs in parallel")->check(whole_number(1, 64))->capture_default_str();
    app.add_option("--out", cmd.out, "the folder for the table, waves and replays (replaced on each run)")->capture_default_str();
    app.add_option("--junit", cmd.junit, "JUnit XML (default: OUT/prove.xml)");
    add_flag(app, "--no-replay", cmd.no_replay, "do not run the counterexamples' replays in simulation");
    if (!parse_command(app, args, error)) return std::nullopt;
    cmd.K_given = k->count() > 0;
    cmd.policies_given = policies->count() > 0;
    if (cmd.counter.empty() == cmd.link.empty()) {
        error.message = "prove takes one design: --counter MAP (your counter) or --link MAP (your sender and receiver)";
        return std::nullopt;
    }
    return cmd;
}

}  // namespace

int run_prove(const std::vector<std::string>& args, const std::string& program) {
    ParseError error;
    auto parsed = parse_prove(args, error);
    if (!parsed) return parse_failed(error);
    const ProveCommand& cmd = *parsed;
    std::vector<int> Ls, Bs, Ks;
    if (auto p = parse_range("--L", cmd.L, 1, 8, Ls)) return refuse(*p);
    if (auto p = parse_range("--B", cmd.B, 1, 32, Bs)) return refuse(*p);
    if (auto p = parse_range("--K", cmd.K, 1, 32, Ks)) return refuse(*p);
    std::vector<std::string> policies;
    for (size_t start = 0; start <= cmd.policies.size();) {
        const size_t comma = std::min(cmd.policies.find(',', start), cmd.policies.size());
        const std::string p = cmd.policies.substr(start, comma - start);
        if (p != "batch" && p != "hybrid" && p != "timeout")
            return refuse("--policy " + cmd.policies + ": '" + p + "' is not a policy (batch, hybrid, timeout)");
        policies.push_back(p);
        start = comma + 1;
    }

    DutSources sources = DutSources::from_environment();
    const int largest_b = *std::max_element(Bs.begin(), Bs.end());
    nlohmann::json spec;
    std::string design;
    bool counts = true;   // the design takes several credits back at once
    int return_latency = 0;
    bool on_arrival = false;
    bool array = false, one_credit_packets = false, equal_pools = false;
    std::vector<std::string> run = {program, "run"};
    if (!cmd.counter.empty()) {
        SwappedBlock swapped;
        if (auto e = swap_block(sources, "credit_counter.sv", cmd.counter, std::max(largest_b, 1), swapped, cmd.mutant); !e.empty())
            return refuse(e);
        for (const auto& f : sources.rtl_files)
            array = array || (fs::path(f).filename() == "credit_counters.sv" && f.find("/blocks/") != std::string::npos);
        one_credit_packets = swapped.single_credit_send || swapped.owns_flits;
        equal_pools = swapped.equal_pools_only;
        counts = !swapped.single_credit_return;
        design = swapped.module + " from " + cmd.counter;
        run.insert(run.end(), {"--counter", cmd.counter});
        spec["kind"] = "counter";
    } else {
        MappedLink link;
        if (auto e = swap_mapped_link(sources, cmd.link, false, link, cmd.mutant); !e.empty()) return refuse(e);
        counts = false;
        return_latency = link.return_latency;
        on_arrival = link.credits_on_arrival;
        design = link.sender + " and " + link.receiver + " from " + cmd.link;
        run.insert(run.end(), {"--link", cmd.link});
        spec["kind"] = "link";
    }
    if (!cmd.mutant.empty()) run.insert(run.end(), {"--mutant", cmd.mutant});
    if (!counts && ((cmd.K_given && Ks != std::vector<int>{1}) ||
                    (cmd.policies_given && policies != std::vector<std::string>{"batch"})))
        return refuse(std::string(cmd.link.empty() ? "your counter takes one credit back a cycle (a one-bit credit_return)"
                                                   : "your link returns credits its own way") +
                      ": --K and --policy other than 1 and batch do not apply; drop them");
    if (!counts) {
        Ks = {1};
        policies = {"batch"};
    }
    for (const auto& f : sources.rtl_files)
        if (fs::path(f).filename() != "credit_link.sv") spec["files"].push_back(fs::absolute(f).string());
    for (int l : Ls)
        for (int b : Bs)
            for (int k : Ks) {
                if (k > b) continue;
                for (const auto& p : policies) {
                    nlohmann::json point = {{"L", l}, {"B", b}, {"K", k}, {"W", cmd.W}, {"SYNC", return_latency}};
                    if (array) {
                        // Every channel a lane, a pool and a return path of its own (CHI's shape), the
                        // pools one credit apart unless the module starts every pool alike.
                        std::vector<int> ids, pool_b, pool_k;
                        for (int c = 0; c < cmd.channels; ++c) {
                            ids.push_back(c);
                            pool_b.push_back(equal_pools ? b : std::max(1, b - c));
                            pool_k.push_back(std::min(k, pool_b.back()));
                        }
                        point.update({{"NCH", cmd.channels}, {"NLANE", cmd.channels}, {"NPOOL", cmd.channels},
                                      {"CH_LANE", ids}, {"LANE_CH", ids}, {"LANE_POOL", ids}, {"POOL_B", pool_b},
                                      {"POOL_K", pool_k}, {"MULTI_CREDIT", one_credit_packets ? 0 : 1}});
                    }
                    // LOW = K, and at most every pool's B (each pool of a module of counters).
                    const int smallest = array && !equal_pools ? std::max(1, b - cmd.channels + 1) : b;
                    if (p == "hybrid") point.update({{"POLICY", 1}, {"LOW", std::min(k, smallest)}, {"IDLE", 2}});
                    if (p == "timeout") point["TIMEOUT"] = 2;
                    if (on_arrival) point["ON_ARRIVAL"] = 1;
                    if (!counts && !cmd.counter.empty()) point["ONE_AT_A_TIME"] = 1;
                    spec["points"].push_back(point);
                }
            }
    if (spec["points"].empty()) return refuse("no configuration with K <= B in the grid: give a --K no larger than the --B");
    std::error_code ec;
    fs::create_directories(cmd.out, ec);
    if (ec) return refuse("--out " + cmd.out + ": cannot create the folder (" + ec.message() + ")", 3);
    spec["design"] = design;
    spec["out"] = fs::absolute(cmd.out).string();
    spec["junit"] = cmd.junit.empty() ? (fs::path(cmd.out) / "prove.xml").string() : cmd.junit;
    spec["creditloop"] = fs::absolute(program).string();
    spec["run"] = run;
    spec["jobs"] = cmd.jobs;
    spec["max_k"] = cmd.max_k;
    spec["replay"] = !cmd.no_replay;
    const std::string spec_path = (fs::path(cmd.out) / "spec.json").string();
    if (auto e = write_if_changed(spec_path, spec.dump(1) + "\n"); !e.empty()) return refuse(e, 3);
    const std::string script = (fs::path(sources.source_root) / "scripts" / "prove.py").string();
    const std::string problem = exec_program({"/usr/bin/env", "python3", script, "--spec", spec_path});
    return refuse("cannot start python3 for " + script + ": " + problem + " (install python3)", 3);
}

}  // namespace creditloop
