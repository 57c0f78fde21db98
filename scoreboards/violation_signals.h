// The observed signals that tell the story of a violation, for whoever opens the waves on it:
// the conservation total (a loop that lost or made a credit shows it there first), then the
// signals of the check that fired.
//   conservation.*   the terms of the conservation sum (the list's `term` signals)
//   data.*           pop, pop_payload, send, send_payload: a flit leaving and arriving
//   sizing.*         send, credits, credits_arriving: the sender waiting for its credits
//   lockstep         the signal that differed (the violation's own)
// The violation's own signal comes first after the total when it is an observed one; other
// checks (lockstep.sequence, rtl.assertion) get the total alone.
#pragma once

#include <vector>

#include "observation.h"
#include "scoreboard.h"

namespace creditloop {

std::vector<Signal> violation_signals(const Violation& violation);

}  // namespace creditloop
