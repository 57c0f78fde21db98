// The multi-channel device under test as the harness sees it (docs/channels.md): ChannelInputs
// in, a ChannelObservation out, every cycle. The verilated channel_link implements it inside a
// plugin (tb/dut/verilated_channels.cpp); nothing outside the plugin includes a Verilator header.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "channel_observation.h"

namespace creditloop {

class ChannelDut {
public:
    virtual ~ChannelDut() = default;
    // Hold rst_n low across two rising edges, release it; the next step() is cycle 0.
    virtual void reset() = 0;
    // Drive `in`, settle, fill `out` from the observed ports, give the clock its rising edge.
    virtual void step(const ChannelInputs& in, ChannelObservation& out) = 0;
    // Waves from now on into `path`; "" on success, else what went wrong.
    virtual std::string open_trace(const std::string& path) = 0;
    virtual std::string close_trace() = 0;   // as LinkDut's
    virtual std::optional<uint64_t> first_assertion_cycle() const = 0;
};

// Plugin ABI of a channel bank (one shared object, several configurations).
constexpr int kChannelAbiVersion = 3;
using ChannelAbiVersionFn = int (*)();
using ChannelBankSizeFn = int (*)();
using ChannelDescribeFn = const char* (*)(int index);   // the configuration's key
// `argv`: the RTL's plusargs (+NAME=VALUE), the instance's own command line.
using ChannelCreateFn = ChannelDut* (*)(int index, int argc, const char* const* argv);

}  // namespace creditloop
