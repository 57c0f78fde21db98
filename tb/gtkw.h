// A GTKWave save file beside a waveform: the loop's signals grouped in loop order (the groups of
// observed_signals.def: inputs, sender, forward path, receiver, return path, the conservation
// total) and a marker on the first violation, so `gtkwave x.vcd x.gtkw` opens straight onto the bug.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "link_config.h"

namespace creditloop {

// Writes <waves without extension>.gtkw for the link whose signals sit under `scope` in the
// waves (DutLibrary::trace_scope()); returns its path, or "" if it could not be written.
std::string write_gtkw(const std::string& waves_path, const LinkConfig& config, const std::string& scope,
                       std::optional<uint64_t> marker_cycle, uint64_t first_cycle);

// Trace time of the start of cycle t (verilated_link.cpp draws cycle t from 10t to 10t + 10).
constexpr uint64_t trace_time_of(uint64_t cycle) { return 10 * cycle; }

}  // namespace creditloop
