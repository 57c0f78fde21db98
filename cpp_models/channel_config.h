// The multi-channel link (docs/channels.md): its channels, how they map to lanes and credit
// pools, the traffic the harness offers each channel, the presets named after the seeds'
// systems, and the checks that say whether a description is a link that can exist.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "link_config.h"

namespace creditloop {

constexpr int kMaxChannels = 8;    // channel_link_observed's fixed port widths
constexpr int kMaxLanes = 16;
constexpr int kMaxPools = 16;
constexpr int kMaxPoolCredits = 4096;
constexpr int kMaxPacketBytes = 65535;
constexpr int kChiMaxCredits = 15;  // CHI's link layer: at most 15 credits per channel

// What the harness offers one channel (stimulus, not RTL).
struct ChannelTraffic {
    int min_bytes = 1;        // packet sizes, uniform in [min_bytes, max_bytes]
    int max_bytes = 1;
    double load = 1.0;        // probability a new packet joins the channel's queue each cycle
    double drain = 1.0;       // probability the consumer takes a flit each cycle (0: stalled)
    int drain_every = 0;      // > 0: the consumer takes a flit when cycle % drain_every == 0 instead (seed 001)
};

struct ChannelSpec {
    std::string name;         // "REQ", "P", "VL0"
    bool split = false;       // header and data pools (PCIe); else one pool
    int credits = 8;          // the (header) pool's credits = its lane's slots
    int data_credits = 0;     // split: the data pool's credits
    int batch = 1;            // K of the (header) pool
    int data_batch = 1;       // split: K of the data pool
    int unit = 1;             // bytes per credit and per flit
    bool full_rate = false;   // its pools must carry a flit every cycle: the RTL's sizing assertion
    // Its pools' return policy (rtl/return_policy.sv), as the single link's --policy, --low, --idle
    // and --timeout: batches of K, or seed 000's hybrid that also flushes when the return path was
    // free `idle` cycles running or the sender may be down to `low` credits (-1: K); a credit waits
    // at most `timeout` cycles for its batch (0: no limit).
    ReturnPolicy policy = ReturnPolicy::batch;
    int low = -1;
    int idle = kDefaultIdleCycles;
    int timeout = 0;
    ChannelTraffic traffic;
};

enum class ChannelProtocol { generic, chi, pcie, ib };

struct ChannelLinkConfig {
    std::string preset;                 // the preset it came from, "" if none
    ChannelProtocol protocol = ChannelProtocol::generic;
    int stages = 4;                     // L, forward and return
    bool shared_pool = false;           // every lane draws from one pool (the head-of-line case)
    bool shared_return = false;         // one (pool, count) message per cycle on one return path
    bool recovery = false;              // cumulative updates per pool (docs/recovery.md)
    int total_bits = 8;                 // their width: 2^n > 2 B_p for every pool
    int resend_period = 16;             // T: cycles between a pool's updates when it has nothing new
    int sync_stages = 0;                // SYNC: synchroniser stages every return path adds
    int free_delay = 0;                 // FREE_DELAY: cycles from a pop to its slot being freed
    bool credits_on_arrival = false;    // a credit is usable in the cycle it arrives (LinkConfig's)
    std::vector<ChannelSpec> channels;

    // The verilated instance's key: the RTL parameters only (traffic is not in it).
    std::string key() const;
};

// How the channels map onto lanes and pools, as channel_link's parameters take it.
struct ChannelLayout {
    int channels = 0, lanes = 0, pools = 0;
    std::array<int, kMaxChannels> channel_lane{};   // the first (header or only) lane
    std::array<bool, kMaxChannels> channel_split{};
    std::array<int, kMaxChannels> channel_unit{};
    std::array<int, kMaxLanes> lane_channel{};
    std::array<int, kMaxLanes> lane_pool{};
    std::array<int, kMaxPools> pool_credits{};      // B_p
    std::array<int, kMaxPools> pool_batch{};        // K_p
    std::array<int, kMaxPools> pool_channel{};      // the channel a pool serves (-1: shared by all)
    std::array<bool, kMaxPools> pool_full_rate{};   // POOL_FULL_RATE
    std::array<bool, kMaxPools> pool_hybrid{};      // POOL_POLICY
    std::array<int, kMaxPools> pool_low{};          // POOL_LOW (a channel's -1 resolved to K_p)
    std::array<int, kMaxPools> pool_idle{};         // POOL_IDLE
    std::array<int, kMaxPools> pool_timeout{};      // POOL_TIMEOUT
};
ChannelLayout layout(const ChannelLinkConfig& config);

// A packet's flits and its cost per pool.
struct PacketCost {
    int flits = 0;
    int header_credits = 0;   // from the channel's first lane's pool
    int data_credits = 0;     // split: from the data lane's pool
};
inline PacketCost packet_cost(const ChannelSpec& channel, int bytes) {
    const int units = channel.unit == 1 ? bytes : (bytes + channel.unit - 1) / channel.unit;
    if (channel.split) return {1 + units, 1, units};
    const int n = units < 1 ? 1 : units;
    return {n, n, 0};
}

// One line naming what is wrong and how to fix it, or nothing when the description is valid.
std::optional<std::string> validate(const ChannelLinkConfig& config);

// The presets named after the seeds' systems: "chi", "pcie", "ib".
std::vector<std::string> channel_presets();
std::optional<ChannelLinkConfig> channel_preset(const std::string& name);

// Apply "key=value,key=value" to a channel (name, credits, data, batch, data_batch, unit, bytes
// = N or MIN-MAX, load, drain, drain_every, full_rate = 0/1, policy = each/batch/hybrid, low,
// idle, timeout). "" or one error line.
std::string apply_channel_text(ChannelSpec& channel, const std::string& text);

const char* protocol_name(ChannelProtocol protocol);

// One plain channel "C0" of `credits` credits, batches of `batch`, one-byte packets every cycle
// and a consumer that takes a flit every cycle: the seeds' single link as a channel link.
ChannelLinkConfig single_channel_config(int stages, int credits, int batch);
// The single link `link` as channel "C0" of a channel link, every feature carried over: the
// policy, LOW, IDLE and TIMEOUT, SYNC, FREE_DELAY and recovery (TOTAL_BITS, RESEND).
ChannelLinkConfig single_channel_config(const LinkConfig& link);

// The head-of-line set-up (seed 003): `channels` plain channels of `credits` each, L stages,
// one-flit packets every cycle on every channel, channel 0's consumer stalled; with
// `shared_pool` every lane draws from one pool of channels x credits.
ChannelLinkConfig hol_config(int channels, int credits, int stages, bool shared_pool);

}  // namespace creditloop
