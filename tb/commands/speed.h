// creditloop speed: one timed run for the bench (scripts/bench.py, make bench). Modes:
//   verilated  the verilated link alone: stimulus in, ports out, no model, no checks
//   harness    the full harness: run_link() with the lockstep model and every scoreboard
//   model      the golden model alone: stimulus in, evaluate() / update(), no checks
//   seed001-cpp  seed 001's Python model transliterated to C++ (no data, no observation): what
//              the language alone gives, beside the golden model
//   replay     a failing run replayed with waves around its first violation, as make sim does
//              (a sender reset alone at cycle --fail-at, 200 cycles of waves before, 20 after)
// It prints one JSON object: the mode, the cycles, the seconds of the timed loop (plugin loading
// and building excluded) and the process's peak resident memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "link_run.h"
#include "parse_error.h"

namespace creditloop {

// `creditloop speed`'s options, read and checked.
struct SpeedCommand {
    std::string mode = "harness";
    RunSpec spec;                    // 10 million cycles unless --cycles
    uint64_t fail_at = 1000000;      // replay: the cycle of the failure
    std::string waves = "build/bench/replay.vcd";
};
// args exclude "creditloop speed". nullopt with `error` on bad input or --help (parse_failed()).
std::optional<SpeedCommand> parse_speed(const std::vector<std::string>& args, ParseError& error);

int run_speed(const std::vector<std::string>& args);

}  // namespace creditloop
