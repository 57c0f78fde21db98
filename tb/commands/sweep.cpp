#include "sweep.h"

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


namespace {

// Write `text` to `path` through a temporary beside it, so no reader ever sees half a file;
// without `force` the final step is link(2), which refuses to replace a file that appeared
// meanwhile. The problem, if any, in one line.
Problem write_file(const fs::path& path, const std::string& text, bool force) {
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
            return std::nullopt;
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
    return std::nullopt;
}

}  // namespace

using namespace sweep_detail;

std::optional<SweepSpec> parse_sweep(const std::vector<std::string>& args, ParseError& parse_error) {
    std::string& error = parse_error.message;   // the checks below write their one line here
    CLI::App app{"Steady throughput against the buffer size B: the model at every point, the RTL on a grid.",
                 "creditloop sweep"};
    // Options are read as text first: a preset is applied, then the options given override it.
    std::map<std::string, std::string> given;
    const auto text = [&](const char* name, const std::string& description) {
        return app.add_option(name, given[name], description);
    };
    text("--preset", "seed001: L = 1,4,8 (seed 001's plot); seed001-drain: L = 4, drain every 1 and 2; "
                     "seed000: L = 4, K = 1,2,4,6,8,12 (seed 000's batching)");
    text("--L", "LIST: stages each way, one curve each (1.." + std::to_string(kMaxStages) + ", default 4)");
    text("--B", "LIST: buffer sizes, the x axis (1.." + std::to_string(kMaxBufferSlots) + ", default 1..32)");
    text("--K", "LIST: return batch, one curve each (default 1; points with B < K are skipped)");
    text("--drain-every", "LIST: the consumer drains when cycle % N == 0, one curve each (1..1000000, default 1)");
    text("--cycles", "cycles per point (default 6000; throughput = sends in the second half / its length)");
    text("--sync", "synchroniser stages on the return path, every point (0.." + std::to_string(kMaxSyncStages) + ", default 0)");
    text("--free-delay", "cycles from pop to the slot being freed, every point (0.." + std::to_string(kMaxFreeDelay) +
                         ", default 0)");
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
    if (!parse_command(app, args, parse_error)) return std::nullopt;
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


int run_sweep(const std::vector<std::string>& args, const std::string& program) {
    return run_sweep(args, program, std::cout, std::cerr);
}

int run_sweep(const std::vector<std::string>& args, const std::string& program, std::ostream& out,
              std::ostream& err) {
    ParseError parse_error;
    const auto parsed = parse_sweep(args, parse_error);
    if (!parsed) {
        if (parse_error.help) {
            out << parse_error.message;
            return 0;
        }
        err << "creditloop: " << parse_error.message << "\n";
        return 2;
    }
    const SweepSpec& spec = *parsed;
    SweepResult result;
    std::string error = plan_sweep(spec, result);
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

    // The progress line (tb/common/progress.h) goes to the process's stderr, so a caller that captures
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
        if (const Problem problem = write_file(out_dir / files[i], texts[i], spec.force)) {
            err << "creditloop: " << *problem << "\n";
            return 3;
        }
        out << "wrote " << (out_dir / files[i]).string() << "\n";
    }
    return failures ? 1 : 0;
}

}  // namespace creditloop
