#include "channel_observation.h"

namespace creditloop {

uint64_t pool_total(const ChannelObservation& o, const ChannelLayout& layout, int pool) {
    uint64_t total = uint64_t{o.credits[pool]} + o.reserved[pool] + o.fwd_flits[pool] + o.slots_freeing[pool] + o.pending_returns[pool] +
                     o.return_waiting[pool] + o.return_flight[pool];
    for (int l = 0; l < layout.lanes; ++l)
        if (layout.lane_pool[l] == pool) total += o.occupancy[l];
    return total;
}

int signal_entries(ChannelShape shape, const ChannelLayout& layout) {
    switch (shape) {
    case ChannelShape::lane: return layout.lanes;
    case ChannelShape::pool: return layout.pools;
    case ChannelShape::channel: return layout.channels;
    default: return 1;
    }
}

namespace {
uint32_t entry(uint32_t value, int) { return value; }
template <size_t N>
uint32_t entry(const std::array<uint32_t, N>& values, int i) { return values[static_cast<size_t>(i)]; }
}  // namespace

uint32_t signal_value(const ChannelObservation& o, ChannelSignal signal, int i) {
    switch (signal) {
#define CREDITLOOP_CHANNEL_SIGNAL(field, shape, width) \
    case ChannelSignal::field: return entry(o.field, i);
#include "channel_signals.def"
    }
    return 0;
}

}  // namespace creditloop
