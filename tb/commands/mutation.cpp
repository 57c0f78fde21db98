#include "mutation.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "cli.h"
#include "channel_bank.h"
#include "channel_library.h"
#include "channels_command.h"
#include "cli_parse.h"
#include "dut_bank.h"
#include "dut_library.h"
#include "mutants.h"
#include "parallel.h"
#include "process.h"
#include "progress.h"

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace creditloop {

namespace {

constexpr long long kMaxSeed = 0x7FFFFFFFFFFFFFFFLL;

// The plusarg that switches mutant <id> on in a generated netlist (scripts/mutation.py).
std::string mutant_plusarg(int id) { return "+creditloop_mutant=" + std::to_string(id); }

// Every stimulus set: the link's (mutation_cases()) and then the multi-channel link's
// (channel_mutation_cases()), the latter as cases whose `channels` holds their run.
std::vector<RegressionCase> stimulus_sets(uint64_t seed) {
    std::vector<RegressionCase> sets = mutation_cases(seed);
    for (auto& [name, spec] : channel_mutation_cases(seed)) {
        RegressionCase c;
        c.name = name;
        c.channels = spec;
        sets.push_back(std::move(c));
    }
    return sets;
}

std::string set_arguments(const RegressionCase& set) {
    return set.channels ? channel_run_arguments(*set.channels) : run_arguments(set.spec);
}

bool same_link(const RegressionCase& a, const RegressionCase& b) {
    if (a.channels || b.channels) return a.channels && b.channels && a.channels->config.key() == b.channels->config.key();
    return a.spec.config == b.spec.config;
}

// credit_link's parameters for a set, as its testbench top gives them: a number, or a Verilog
// constant (a multi-channel link's tables) as a string.
json link_parameters_json(const RegressionCase& set) {
    json parameters = json::object();
    if (!set.channels) {
        for (const auto& [name, value] : link_parameters(set.spec.config)) parameters[name] = value;
        return parameters;
    }
    for (const auto& [name, value] : channel_parameter_list(set.channels->config)) {
        const bool number = value.find_first_not_of("0123456789") == std::string::npos;
        if (number) parameters[name] = std::stoi(value);
        else parameters[name] = value;
    }
    return parameters;
}

json cases_json(uint64_t seed) {
    json cases = json::array();
    for (const auto& c : stimulus_sets(seed))
        cases.push_back({{"name", c.name}, {"channels", c.channels.has_value()}, {"parameters", link_parameters_json(c)},
                         {"run_arguments", set_arguments(c)}});
    return cases;
}

// One netlist: credit_link at one set of parameters, and the stimulus sets that run it.
struct Netlist {
    std::string name;
    std::string rtl;
    std::vector<const RegressionCase*> sets;
    DutSources sources;
};

struct Verdict {
    const Netlist* netlist = nullptr;
    int id = 0;
    bool caught = false;
    std::string set;      // the stimulus set that caught it
    uint64_t cycle = 0;
    std::string checks;
    std::string error;
};

// The manifest scripts/mutation.py writes: {"netlists": [{"name", "rtl": a directory holding
// credit_link.sv, "sets": [stimulus set names, all of the netlist's parameters], "mutants": [ids]}]}.
// The problem in one line, if it is not usable.
Problem parse_manifest(const std::string& text, const std::string& path, const std::map<std::string, RegressionCase>& cases,
                           std::vector<Netlist>& netlists, std::vector<Verdict>& runs) {
    const json manifest = json::parse(text, nullptr, false);
    if (manifest.is_discarded() || !manifest.is_object() || !manifest.contains("netlists") || !manifest["netlists"].is_array())
        return path + " is not a mutation manifest (a JSON object with a \"netlists\" array)";
    netlists.reserve(manifest["netlists"].size());   // runs point into it
    std::vector<std::vector<int>> ids;
    for (const auto& n : manifest["netlists"]) {
        if (!n.is_object() || !n.contains("name") || !n["name"].is_string())
            return path + ": every netlist needs a \"name\"";
        Netlist netlist;
        netlist.name = n["name"];
        std::error_code ec;   // a path the system refuses (too long) is no directory, not an exception
        if (!n.contains("rtl") || !n["rtl"].is_string() || !fs::is_directory(n["rtl"].get<std::string>(), ec))
            return path + ": netlist " + netlist.name + " has no \"rtl\" directory";
        netlist.rtl = n["rtl"];
        if (!n.contains("sets") || !n["sets"].is_array() || n["sets"].empty())
            return path + ": netlist " + netlist.name + " has no \"sets\" of stimulus";
        for (const auto& set : n["sets"]) {
            if (!set.is_string() || !cases.count(set.get<std::string>()))
                return path + ": netlist " + netlist.name + " names a stimulus set 'creditloop mutation --cases' does not list";
            const RegressionCase& c = cases.at(set.get<std::string>());
            if (!netlist.sets.empty() && !same_link(c, *netlist.sets.front()))
                return path + ": netlist " + netlist.name + "'s stimulus sets differ in their parameters";
            netlist.sets.push_back(&c);
        }
        if (!n.contains("mutants") || !n["mutants"].is_array())
            return path + ": netlist " + netlist.name + " has no \"mutants\" array of ids";
        ids.emplace_back();
        for (const auto& id : n["mutants"]) {
            if (!id.is_number_integer() || id.get<int>() < 1)
                return path + ": netlist " + netlist.name + ": mutant ids are whole numbers from 1";
            ids.back().push_back(id.get<int>());
        }
        netlists.push_back(netlist);
    }
    for (size_t i = 0; i < netlists.size(); ++i) {
        Verdict none;
        none.netlist = &netlists[i];
        runs.push_back(none);
        for (int id : ids[i]) {
            Verdict v = none;
            v.id = id;
            runs.push_back(v);
        }
    }
    return std::nullopt;
}

Problem read_manifest(const std::string& path, const std::map<std::string, RegressionCase>& cases,
                          std::vector<Netlist>& netlists, std::vector<Verdict>& runs) {
    std::ifstream in(path);
    if (!in) return "cannot read " + path + ": give the manifest scripts/mutation.py wrote";
    std::ostringstream text;
    text << in.rdbuf();
    return parse_manifest(text.str(), path, cases, netlists, runs);
}

// The stimulus sets by name, as a manifest names them.
std::map<std::string, RegressionCase> cases_by_name(uint64_t seed) {
    std::map<std::string, RegressionCase> cases;
    for (const auto& c : stimulus_sets(seed)) cases[c.name] = c;
    return cases;
}

// `program run ...` for one stimulus set on a netlist with mutant `id` switched on.
std::string rerun(const std::string& program, const RegressionCase& set, const Netlist& netlist, int id) {
    return program + " run " + set_arguments(set) + " --rtl " + netlist.rtl + (id ? " --plusarg " + mutant_plusarg(id) : "");
}

// One set against one mutant of a netlist: the first violation's cycle and checks when caught.
struct SetRun {
    bool passed = true;
    std::string error;
    std::vector<Violation> violations;
};

SetRun run_set(const Netlist& n, const RegressionCase& set, int id) {
    SetRun out;
    std::string error;
    if (set.channels) {
        auto library = ChannelLibrary::load({set.channels->config, channel_rtl_files(n.sources)}, n.sources, error);
        if (!library) {
            out.passed = false;
            out.error = error;
            return out;
        }
        ChannelRunOptions options;
        options.stop_after_violation = 0;
        auto dut = library->create({mutant_plusarg(id)});
        ChannelRunResult result = run_channels(dut.get(), *set.channels, options);
        out.passed = result.passed;
        out.violations = std::move(result.violations);
        return out;
    }
    auto library = DutLibrary::load(set.spec.config, n.sources, error);
    if (!library) {
        out.passed = false;
        out.error = error;
        return out;
    }
    auto dut = library->create({mutant_plusarg(id)});
    RunResult result = run_link(dut.get(), set.spec);
    out.passed = result.passed;
    out.violations = std::move(result.violations);
    return out;
}

}  // namespace

std::optional<MutationCommand> parse_mutation(const std::vector<std::string>& args, ParseError& error) {
    MutationCommand cmd;
    CLI::App app{"Generated mutants of credit_link against the mutation stimulus (the runner behind make mutation).",
                 "creditloop mutation"};
    auto* cases_flag = app.add_flag("--cases", cmd.list_cases, "print the stimulus sets as JSON (name, parameters, run arguments)");
    auto* run_option = app.add_option("--run", cmd.manifest_path, "run the mutants a manifest lists (scripts/mutation.py writes it)");
    cases_flag->excludes(run_option);
    app.add_option("--out", cmd.out_path, "with --run: write the verdicts here as JSON (default: stdout)");
    app.add_option("--seed", cmd.seed, "stimulus seed")->check(whole_number(0, kMaxSeed))->capture_default_str();
    app.add_option("--jobs", cmd.jobs, "runs and builds in parallel")->check(whole_number(1, 64))->capture_default_str();
    if (!parse_command(app, args, error)) return std::nullopt;
    if (!cmd.list_cases && cmd.manifest_path.empty()) {
        error.message = "creditloop mutation: give --cases or --run MANIFEST";
        return std::nullopt;
    }
    return cmd;
}

Problem check_mutation_manifest(const std::string& text, const std::string& path, uint64_t seed) {
    const auto cases = cases_by_name(seed);
    std::vector<Netlist> netlists;
    std::vector<Verdict> runs;
    return parse_manifest(text, path, cases, netlists, runs);
}

int run_mutation(const std::vector<std::string>& args, const std::string& program) {
    ParseError error;
    const auto cmd = parse_mutation(args, error);
    if (!cmd) return parse_failed(error);
    const std::string& manifest_path = cmd->manifest_path;
    const std::string& out_path = cmd->out_path;
    const uint64_t seed = cmd->seed;
    const int jobs = cmd->jobs;
    if (cmd->list_cases) {
        std::cout << cases_json(seed).dump(2) << "\n";
        return 0;
    }

    const std::map<std::string, RegressionCase> cases = cases_by_name(seed);
    std::vector<Netlist> netlists;
    std::vector<Verdict> runs;
    if (auto problem = read_manifest(manifest_path, cases, netlists, runs)) return refuse(*problem);

    // Every netlist in one bank build; then mutant 0 (none) and each mutant of every netlist.
    const DutSources base = DutSources::from_environment();
    std::vector<DutBuild> builds;
    std::vector<ChannelWanted> channel_builds;
    for (auto& n : netlists) {
        n.sources = base;
        if (auto problem = use_rtl_directory(n.sources, n.rtl); !problem.empty()) return refuse(problem);
        const RegressionCase& first = *n.sets.front();
        if (first.channels) channel_builds.push_back({first.channels->config, channel_rtl_files(n.sources)});
        else builds.push_back({first.spec.config, n.sources});
    }
    Progress progress("creditloop mutation");
    progress.phase("verilated netlists");
    auto build_errors = build_link_and_channel_duts(builds, jobs, channel_builds, base,
                                                    [&](const std::string& s) { progress.status(s); });
    for (const auto& e : build_errors) progress.print("creditloop mutation: " + e);
    if (!build_errors.empty()) {
        progress.finish();
        return 3;
    }
    progress.phase("mutants", runs.size());
    {
        const StdoutToStderr quiet(true, true);   // the RTL's own %Error lines: the verdicts say it
        parallel_for(runs.size(), jobs, [&](size_t i) {
            Verdict& v = runs[i];
            for (const RegressionCase* set : v.netlist->sets) {
                SetRun result = run_set(*v.netlist, *set, v.id);
                if (!result.error.empty()) {
                    v.error = result.error;
                    break;
                }
                if (result.passed) continue;
                v.caught = true;
                v.set = set->name;
                if (!result.violations.empty()) {
                    v.cycle = result.violations.front().cycle;
                    v.checks = checks_that_fired(result.violations);
                }
                break;
            }
            progress.advance();
        });
    }
    progress.finish();

    json out = {{"seed", seed}, {"mutants", json::array()}};
    bool baseline_ok = true;
    for (const auto& v : runs) {
        const Netlist& n = *v.netlist;
        if (v.id == 0) {
            if (v.caught || !v.error.empty()) {
                baseline_ok = false;
                std::cerr << "creditloop mutation: netlist " << n.name << " fails with no mutant switched on ("
                          << (v.error.empty() ? v.checks + " at cycle " + std::to_string(v.cycle) + " of " + v.set : v.error)
                          << "): the netlist, not a mutant, is wrong. Rerun: "
                          << rerun(program, v.set.empty() ? *n.sets.front() : cases.at(v.set), n, 0) << "\n";
            }
            continue;
        }
        json m = {{"netlist", n.name}, {"id", v.id}, {"caught", v.caught}};
        if (v.caught) {
            m["set"] = v.set;
            m["cycle"] = v.cycle;
            m["checks"] = v.checks;
        }
        if (!v.error.empty()) m["error"] = v.error;
        m["rerun"] = json::array();
        for (const RegressionCase* set : n.sets) {
            m["rerun"].push_back(rerun(program, *set, n, v.id));
            if (set->name == v.set) break;
        }
        out["mutants"].push_back(m);
    }
    if (out_path.empty()) {
        std::cout << out.dump(2) << "\n";
    } else {
        const std::string partial = out_path + ".partial";
        std::ofstream(partial) << out.dump(2) << "\n";
        std::error_code ec;
        fs::rename(partial, out_path, ec);
        if (ec) return refuse("cannot write " + out_path + ": " + ec.message());
    }
    return baseline_ok ? 0 : 3;
}

}  // namespace creditloop
