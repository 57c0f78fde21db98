// What a checked run prints and writes, the link's and the multi-channel link's alike, and where
// its RTL runs: the options both `run` commands share (cli_parse.h adds them to a command line).
#pragma once

#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "process.h"

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
// given, its folder does not exist, or the system refuses the path. "" when it can be written.
std::string waves_problem(const RunOutput& out);

// A run's report on stdout: `report` (its JSON or its summary) and, for a summary with --waves,
// the viewer line. write_save writes the save file beside the waves and returns its path; it is
// called unless a save file is there already and --force was not given.
void print_run_report(const RunOutput& out, const std::string& report, const std::function<std::string()>& write_save);

// A checked run from its loaded RTL on, the link's and the multi-channel link's alike: exit 3 with
// the load's error line when the library did not load; else run() (the RTL's own messages on
// stderr under --json), the report (report(result)) and its save file (save(result, *library)); exit 0
// when it passed, 1 when not. `library` is null with no error when the model runs alone.
template <class Library, class Run, class Report, class Save>
int checked_run(const RunOutput& out, const Library& library, const std::string& load_error, Run run, Report report,
                Save save) {
    if (!load_error.empty()) {
        std::cerr << "creditloop: " << load_error << "\n";
        return 3;
    }
    decltype(run()) result;
    {
        const StdoutToStderr quiet(out.json);
        result = run();
    }
    print_run_report(out, report(result), [&] { return save(result, *library); });
    return result.passed ? 0 : 1;
}

}  // namespace creditloop
