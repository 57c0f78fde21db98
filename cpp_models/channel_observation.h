// One cycle of the multi-channel link from outside (docs/channels.md): the inputs the harness
// drives, and the observation the RTL's ports or the golden model give back. The fields come from
// channel_signals.def; masks hold one bit per channel or lane, arrays one value per lane or pool.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "channel_config.h"

namespace creditloop {

struct ChannelInputs {
    uint32_t have = 0;                          // mask: channel c presents a head packet
    std::array<uint32_t, kMaxChannels> bytes{}; // its size
    std::array<uint32_t, kMaxChannels> tag{};   // its tag (flit i carries tag + i)
    uint32_t drain = 0;                         // mask: channel c's consumer takes a flit per lane
    uint32_t fault_drop = 0;                    // mask: the message arriving for pool p is lost
    uint32_t fault_corrupt = 0;                 // mask: ... or made larger by fault_add
    uint32_t fault_add = 0;
};

enum class ChannelShape : uint8_t { scalar, channel_bits, lane_bits, pool_bits, lane, pool };

namespace channel_detail {
template <ChannelShape S>
struct Storage {
    using type = uint32_t;
};
template <>
struct Storage<ChannelShape::lane> {
    using type = std::array<uint32_t, kMaxLanes>;
};
template <>
struct Storage<ChannelShape::pool> {
    using type = std::array<uint32_t, kMaxPools>;
};
}  // namespace channel_detail

struct ChannelObservation {
    uint64_t cycle = 0;
    // The faults injected this cycle (echoed inputs, not RTL signals): masks of pools.
    uint32_t fault_drop = 0;
    uint32_t fault_corrupt = 0;
#define CREDITLOOP_CHANNEL_SIGNAL(field, shape, width) \
    channel_detail::Storage<ChannelShape::shape>::type field{};
#include "channel_signals.def"
};

enum class ChannelSignal : uint8_t {
#define CREDITLOOP_CHANNEL_SIGNAL(field, shape, width) field,
#include "channel_signals.def"
};

struct ChannelSignalInfo {
    ChannelSignal signal;
    const char* field;
    ChannelShape shape;
    int width;
};

inline constexpr ChannelSignalInfo kChannelSignals[] = {
#define CREDITLOOP_CHANNEL_SIGNAL(field, shape, width) {ChannelSignal::field, #field, ChannelShape::shape, width},
#include "channel_signals.def"
};

// The terms of a pool's conservation sum in one cycle (lanes of the pool summed).
uint64_t pool_total(const ChannelObservation& o, const ChannelLayout& layout, int pool);

// Entries of a signal the configuration uses: 1 for a scalar or a mask, else lanes or pools.
int signal_entries(ChannelShape shape, const ChannelLayout& layout);
// The value of entry i (for masks: bit i; for scalars i is 0).
uint32_t signal_value(const ChannelObservation& o, ChannelSignal signal, int i);

}  // namespace creditloop
