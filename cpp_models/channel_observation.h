// One cycle of the multi-channel link from outside (docs/channels.md): the inputs the harness
// drives, and the observation the RTL's ports or the golden model give back. The fields come from
// channel_signals.def; masks hold one bit per channel or lane, arrays one value per lane or pool.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "channel_config.h"

namespace creditloop {

enum class ChannelShape : uint8_t { scalar, channel_bits, lane_bits, pool_bits, channel, lane, pool };

namespace channel_detail {
template <ChannelShape S>
struct Storage {
    using type = uint32_t;
};
template <>
struct Storage<ChannelShape::channel> {
    using type = std::array<uint32_t, kMaxChannels>;
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

struct ChannelInputs {
#define CREDITLOOP_CHANNEL_INPUT(field, shape, width) channel_detail::Storage<ChannelShape::shape>::type field{};
#include "channel_inputs.def"
    bool reset_tx = false;   // the sender end is reset at the edge that ends this cycle (rst_tx_n)
    bool reset_rx = false;   // the receiver end likewise (rst_rx_n); both: a reset of the link
};

enum class ChannelInput : uint8_t {
#define CREDITLOOP_CHANNEL_INPUT(field, shape, width) field,
#include "channel_inputs.def"
};

struct ChannelInputInfo {
    ChannelInput input;
    const char* field;
    ChannelShape shape;
    int width;
};

inline constexpr ChannelInputInfo kChannelInputs[] = {
#define CREDITLOOP_CHANNEL_INPUT(field, shape, width) {ChannelInput::field, #field, ChannelShape::shape, width},
#include "channel_inputs.def"
};

// Bits of a port of this shape in the fixed-width testbench top (8 channels, 16 lanes, 16 pools).
constexpr int port_width(ChannelShape shape, int width) {
    switch (shape) {
    case ChannelShape::channel_bits: return kMaxChannels;
    case ChannelShape::lane_bits: return kMaxLanes;
    case ChannelShape::pool_bits: return kMaxPools;
    case ChannelShape::channel: return kMaxChannels * width;
    case ChannelShape::lane: return kMaxLanes * width;
    case ChannelShape::pool: return kMaxPools * width;
    case ChannelShape::scalar: break;
    }
    return width;
}

struct ChannelObservation {
    uint64_t cycle = 0;
    // The environment's inputs this cycle (echoed, not RTL signals): masks of pools (return
    // paths for return_busy), and the resets at the edge that ends the cycle.
    uint32_t fault_drop = 0;
    uint32_t fault_corrupt = 0;
    uint32_t flush = 0;
    uint32_t return_busy = 0;
    bool reset_tx = false;
    bool reset_rx = false;
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
