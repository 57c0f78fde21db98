// A link of your own, mapped (tb/dut/port_map.h's swap_mapped_link), in run and regress: which
// runs it can take and what lockstep compares.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "link_run.h"
#include "port_map.h"

namespace creditloop {

// The signals the interfaces show and the golden model predicts for a mapped link (its return
// latency given to the model as SYNC stages): sends, pops and their payloads, can_send, the
// sender's credits, the credits arriving, the flits on creditloop's forward pipeline and in the
// receiver (counted from arrivals and pops).
uint32_t mapped_link_lockstep_signals();

// Why `spec` cannot run on a mapped link (its receiver returns credits its own way: no batches,
// flushes, policies, shared return path, late frees, recovery or faults), or nothing.
std::optional<std::string> mapped_link_refuses(const RunSpec& spec);

// `spec` made to fit the mapped `link`: its return latency as SYNC, credits usable on arrival
// when its map says so, lockstep on its map's signals (default: the interfaces' set above).
void fit_to_mapped_link(RunSpec& spec, const MappedLink& link);

}  // namespace creditloop
