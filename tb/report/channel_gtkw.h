// A GTKWave save file beside the waves of a multi-channel run: the first violation's cycle
// marked, the link's shared signals first, then one group per channel holding its lanes' and
// pools' entries, each cut out of the observed top's packed vectors.
#pragma once

#include <string>

#include "channel_config.h"
#include "scoreboard.h"

namespace creditloop {

// The scope a channel bank instance's signals sit under in its waves.
std::string channel_trace_scope(int bank_index);

// Writes <waves without extension>.gtkw; its path, or "" if it could not be written.
std::string write_channel_gtkw(const std::string& waves_path, const ChannelLinkConfig& config, const std::string& scope,
                               const Violation* first_violation);

}  // namespace creditloop
