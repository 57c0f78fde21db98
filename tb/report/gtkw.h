// A GTKWave save file beside a waveform that opens on the story of the first violation: at the
// top, next to the marker on its cycle, a group named after the check that fired with the
// conservation total and that check's signals (violation_signals()); below, the clock and
// resets, then every other observed signal grouped in loop order (the groups of
// observed_signals.def), so `gtkwave x.vcd x.gtkw` opens straight onto the bug.
#pragma once

#include <cstdint>
#include <string>

#include "link_config.h"
#include "scoreboard.h"

namespace creditloop {

// Writes <waves without extension>.gtkw for the link whose signals sit under `scope` in the
// waves (DutLibrary::trace_scope()), with the marker and the story group on `first_violation`
// (nullptr: none, the loop order alone); returns its path, or "" if it could not be written.
// The waves start at `first_cycle`.
std::string write_gtkw(const std::string& waves_path, const LinkConfig& config, const std::string& scope,
                       const Violation* first_violation, uint64_t first_cycle);

// Trace time of the start of cycle t (verilated_link.cpp draws cycle t from 10t to 10t + 10).
constexpr uint64_t trace_time_of(uint64_t cycle) { return 10 * cycle; }

}  // namespace creditloop
