// One checked run of the multi-channel link: seeded per-channel traffic into the RTL and the
// golden model side by side, every channel scoreboard fed each cycle, one result.
//
//   ChannelStimulus -> ChannelDut (verilated) -+-> conservation, data, fairness, sizing, lockstep
//                   -> ChannelModel -----------+-> lockstep (reference)
//
// The sources learn that their head packet went (grant) from the RTL, as the protocol has it.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "channel_config.h"
#include "channel_dut.h"
#include "channel_observation.h"
#include "coverage.h"
#include "faults.h"
#include "link_run.h"
#include "run_loop.h"
#include "stimulus.h"

namespace creditloop {

// Around the return logic and the resets, for every pool at once (the single link's --flush,
// --reverse-load, --reset-every, --reset-sender-at and --reset-receiver-at).
struct ChannelEnvironment {
    double flush_probability = 0.0;       // each pool's return logic is told to flush, at random
    double reverse_load = 0.0;            // reverse traffic holds each return path with this probability
    uint64_t reset_every = 0;             // both ends reset together every N cycles (0: never)
    std::optional<uint64_t> reset_tx_at;  // the sender end alone is reset in this cycle
    std::optional<uint64_t> reset_rx_at;  // the receiver end likewise (both: a reset of the link)
};

// Each channel's queue of packets and its consumer, from one seeded stream; the environment's
// flushes and reverse traffic from streams of their own (drawn only when asked for, so a run
// without them is the same run as before they existed).
class ChannelStimulus {
public:
    ChannelStimulus(const ChannelLinkConfig& config, uint64_t seed, const ChannelEnvironment& environment = {});
    const ChannelInputs& next(uint64_t cycle);   // this cycle's inputs
    void granted(uint32_t grant_mask);           // the granted channels' heads have gone

    static constexpr size_t kQueueLimit = 64;    // packets a source holds (an arrival at a full queue is not offered)
    uint64_t packets_offered(int channel) const { return offered_[channel]; }

private:
    struct Packet {
        uint32_t bytes;
        uint32_t tag;
    };
    ChannelLinkConfig config_;
    ChannelEnvironment environment_;
    int pools_ = 0, paths_ = 0;
    Rng rng_, flush_rng_, reverse_rng_, tag_rng_;
    ChannelInputs inputs_;
    std::array<std::deque<Packet>, kMaxChannels> queues_;
    std::array<uint64_t, kMaxChannels> offered_{};
};

struct ChannelRunSpec {
    ChannelLinkConfig config;
    uint64_t cycles = 6000;
    uint64_t seed = 1;
    FaultSpec faults;   // credit messages dropped or corrupted, any pool (docs/recovery.md)
    ChannelEnvironment environment;
    // Every cycle's inputs given (a proof's counterexample, replay.h): cycle t gets row t, and the
    // seed, the channels' traffic and the environment play no part.
    std::shared_ptr<const std::vector<ChannelInputs>> replay{};
    std::string replay_file{};
};

struct ChannelStats {
    std::string name;
    double throughput = 0.0;       // flits per cycle in the window
    double model_throughput = 0.0;
    double share = 0.0;            // of the link's flits in the window
};
struct PoolStats {
    std::string name;
    int credits = 0;
    double throughput = 0.0;
    double measured_round_trip = 0.0;   // Little's law over the window
};

struct ChannelRunResult : RunVerdict {
    double link_throughput = 0.0;       // flits per cycle, all channels
    std::vector<ChannelStats> channels;
    std::vector<PoolStats> pools;
    int closed_form_round_trip = 0;     // 2L + 2 + SYNC + FREE_DELAY
    int longest_wait = 0;               // grants to others an eligible channel waited (fairness)
    ChannelBinCounts coverage{};        // the functional coverage bins the run hit (coverage.h)
};

using ChannelRunOptions = LoopOptions;

// Run `spec` on `dut` against the golden model; dut == nullptr checks the model alone.
ChannelRunResult run_channels(ChannelDut* dut, const ChannelRunSpec& spec, const ChannelRunOptions& options = {});

}  // namespace creditloop
