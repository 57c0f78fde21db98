// What a checked run prints and writes, the link's and the multi-channel link's alike, and where
// its RTL runs: the options both `run` commands share (cli_parse.h adds them to a command line).
#pragma once

#include <string>
#include <vector>

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

}  // namespace creditloop
