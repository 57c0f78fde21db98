// What a checked run prints and writes, the link's and the multi-channel link's alike, and where
// its RTL runs: the options both `run` commands share (cli_parse.h adds them to a command line).
#pragma once

#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "parse_error.h"
#include "process.h"
#include "run_loop.h"

namespace creditloop {

struct RunOutput {
    bool json = false;              // one JSON object instead of the summary
    bool model_only = false;        // check the golden model alone (no RTL)
    bool systemc = false;           // the RTL under SystemC (verilator --sc, sc_main, sc_clock)
    std::string waves;              // write waves of the whole run here
    bool fst = false;
    bool force = false;             // overwrite an existing waves file
    std::string log_level = "warn";
    std::vector<std::string> plusargs;   // "+name=value" for the RTL's $value$plusargs
};

// What is wrong with --waves before anything is built: the file exists and --force was not
// given, its folder does not exist, or the system refuses the path. Nothing when it can be written.
Problem waves_problem(const RunOutput& out);

// A run's report on stdout: `report` (its JSON or its summary) and, for a summary with --waves,
// the viewer line. write_save writes the save file beside the waves and returns its path; it is
// called unless a save file is there already and --force was not given.
void print_run_report(const RunOutput& out, const std::string& report, const std::function<std::string()>& write_save);

// Where a failing run's waves go when --waves was not given: <waves_dir>/run_<name>.vcd (.fst),
// the folder made if missing, in `path`; the problem when the folder cannot be made.
Problem failure_waves_path(const std::string& waves_dir, const std::string& name, bool fst, std::string& path);

// A checked run from its loaded RTL on, the link's and the multi-channel link's alike: exit 3 with
// the load's error line when the library did not load; else run(loop, replay) (the RTL's
// own messages on stderr under --json), the report (report(result)) and its save file
// (save(result, *library, waves, first_cycle)); exit 0 when it passed, 1 when not. `library` is
// null with no error when the model runs alone. A run that fails on the RTL leaves evidence, as a
// regression's failing test does: unless --waves or --json was given, it is replayed (run(loop,
// true): a fresh device, the same cycles) with waves from 200 cycles before its first
// violation to 20 after, under waves/run_<failure_name>, and the waves line and `rerun` follow.
template <class Library, class Run, class Report, class Save>
int checked_run(const RunOutput& out, const Library& library, const std::string& load_error, const std::string& failure_name,
                const std::string& rerun, Run run, Report report, Save save) {
    if (!load_error.empty()) {
        std::cerr << "creditloop: " << load_error << "\n";
        return 3;
    }
    decltype(run(LoopOptions{}, false)) result;
    {
        const StdoutToStderr quiet(out.json);
        LoopOptions whole;
        whole.trace_path = out.waves;
        result = run(whole, false);
    }
    print_run_report(out, report(result), [&] { return save(result, *library, out.waves, uint64_t{0}); });
    if (result.passed || result.interrupted || out.json) return result.passed ? 0 : 1;
    if (library && out.waves.empty()) {
        std::string path;
        std::string error = failure_waves_path("waves", failure_name, out.fst, path).value_or("");
        const uint64_t first = result.first_violation_cycle.value_or(0);
        const uint64_t from = first > 200 ? first - 200 : 0;
        LoopOptions window;
        window.trace_path = path;
        window.trace_from = from;
        window.stop_after_violation = 20;
        if (error.empty()) error = run(window, true).trace_error;
        if (error.empty())
            std::cout << "waves: gtkwave " << path << " " << save(result, *library, path, from) << "   (cycles " << from
                      << " on)\n";
        else
            std::cout << "waves: not written (" << error << ")\n";
    }
    std::cout << "rerun: " << rerun << "\n";
    return 1;
}

}  // namespace creditloop
