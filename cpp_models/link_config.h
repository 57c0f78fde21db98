// The parameters of one credit link, as the RTL top `credit_link` takes them, with the checks
// that say whether a set of them describes a link that can exist.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace creditloop {

// When the receiver returns credits (rtl/return_policy.sv): batches of K (K = 1: each credit at
// once), or seed 000's hybrid that flushes the batch when the return path is idle or the sender
// runs low.
enum class ReturnPolicy { batch = 0, hybrid = 1 };

struct LinkConfig {
    int stages = 4;          // L: register stages on each of the forward and return paths
    int buffer_slots = 12;   // B: receiver slots, and so the credits granted at reset
    int batch = 1;           // K: credits the receiver returns at once
    int payload_bits = 32;   // W: payload width
    int sync_stages = 0;     // SYNC: synchroniser stages a clock-domain crossing adds to the return path
    int free_delay = 0;      // FREE_DELAY: cycles from a flit leaving the buffer to its slot being freed
    bool rtl_full_rate = false;  // FULL_RATE: the RTL's own sizing assertion refuses a small B
    ReturnPolicy policy = ReturnPolicy::batch;   // POLICY
    int low_credits = 0;     // LOW: hybrid flushes when the sender may hold this many credits or fewer
    int idle_cycles = 1;     // IDLE: hybrid flushes after this many cycles without reverse traffic
    int flush_timeout = 0;   // TIMEOUT: a credit waits at most this many cycles for its batch (0: off)
    bool recovery = false;   // RECOVERY: cumulative credit updates instead of counts (docs/recovery.md)
    int total_bits = 8;      // TOTAL_BITS: width of the running totals (2^n > 2B)
    int resend_period = 16;  // RESEND: cycles between updates when nothing new is released
    // A returned credit is usable in the cycle it arrives (a design that bypasses the arriving
    // count to its ready): the round trip is one cycle shorter. Not a parameter of credit_link:
    // a link map says it of your RTL ("credits_on_arrival").
    bool credits_on_arrival = false;

    // The key a verilated instance of this configuration is cached under, e.g. "L4_B12_K1_W32"
    // ("_S2" for synchroniser stages, "_D3" for a late free, "_FR" when FULL_RATE is set,
    // "_H4i2" for the hybrid policy with LOW = 4 and IDLE = 2, "_T16" for a flush timeout,
    // "_R5p64" for recovery with 5-bit totals resent every 64 cycles, "_A" for credits usable on
    // arrival).
    std::string key() const;
    bool operator==(const LinkConfig& other) const;
};

// Largest values the tools accept: the RTL itself has no such limit, but a buffer of more than
// 4096 credits or a pipeline of more than 1024 stages is a typo, not a link.
constexpr int kMaxStages = 1024;
constexpr int kMaxBufferSlots = 4096;
constexpr int kMaxPayloadBits = 32;
constexpr int kMaxSyncStages = 64;
constexpr int kMaxFreeDelay = 64;
constexpr int kMaxIdleCycles = 64;
// The hybrid's defaults in the tools (the RTL's parameters default to LOW = 0, IDLE = 1): flush
// when the sender may be down to a batch's worth of credits, or after two free return cycles.
constexpr int kDefaultIdleCycles = 2;
constexpr int kMaxFlushTimeout = 4096;
constexpr int kMaxTotalBits = 16;
constexpr int kMaxResendPeriod = 4096;

const char* policy_name(ReturnPolicy policy);   // "batch", "hybrid"

// One line naming the parameter, its value and the allowed range, or nothing when valid.
std::optional<std::string> validate(const LinkConfig& config);

}  // namespace creditloop
