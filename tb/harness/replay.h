// Replay files: every cycle's inputs given, not generated. `creditloop prove` and `make formal`
// write one per counterexample, and `creditloop run --replay FILE` feeds it to the RTL and the
// golden model in lockstep, for as many cycles as it has rows.
//
// The form: `#` comments, a header naming the columns, then one row a cycle from cycle 0, whole
// numbers (0x.. for hex). Columns may come in any order; any but `cycle` may be left out (0).
//   one channel:    cycle want_send payload drain flush return_busy fault_drop reset_tx reset_rx
//   several:        cycle have drain flush return_busy fault_drop reset_tx reset_rx bytes.0 tag.0 bytes.1 ...
//                   (have and drain one bit a channel, flush and fault_drop a pool, return_busy a
//                   return path; bytes.C and tag.C channel C's head packet)
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "channel_observation.h"
#include "link_inputs.h"

namespace creditloop {

// The rows, or one error line naming the file, the line and the fix.
std::optional<std::vector<LinkInputs>> read_replay(const std::string& path, std::string& error);
std::optional<std::vector<ChannelInputs>> read_channel_replay(const std::string& path, std::string& error);

}  // namespace creditloop
