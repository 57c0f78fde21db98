// `creditloop size`: the buffer a credit loop needs, from a link's bandwidth and its credit round
// trip, in the units engineers write them (16GB/s, 500ns, 64B/cycle, 40cycles, 1GHz).
//
// Contract:
//   - buffer >= bandwidth x RTT (seed 001: 16 GB/s x 500 ns = 8,000 bytes = 500 credits of 16 bytes),
//     or r x bandwidth x RTT when the link only has to sustain a fraction r of peak (Little's law);
//   - returning credits in batches of K needs K - 1 more credits of buffer and cuts the return
//     path from message/credit to message/(K x credit) of the forward bandwidth (seed 000);
//   - a buffer holds whole credits: a fractional need is rounded up, and the output says so.
// Data flows one way: parse_size (commands/size_command.h: text -> SizeInputs) -> compute_size
// (SizeInputs -> SizeResult) -> size_text / size_json. Nothing here touches the model or the RTL.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace creditloop {

// What a quantity is counted against: wall-clock time or clock cycles.
enum class TimeBase { seconds, cycles };

struct Bandwidth {
    double amount = 0;              // as written: 16 in "16 GB/s"
    std::string unit;               // as printed back: "GB/s", "Gb/s", "B/cycle", "flits/cycle"
    double bytes_per_base = 0;      // bytes per second or per cycle (flits need --flit-bytes first)
    double flits_per_base = 0;      // set instead of bytes_per_base for "flits/cycle"
    TimeBase base = TimeBase::seconds;
};

struct Duration {
    double amount = 0;              // as written: 500 in "500 ns"
    std::string unit;               // "ns", "us", "cycles", ...
    double value = 0;               // seconds or cycles
    TimeBase base = TimeBase::seconds;
};

struct SizeInputs {
    Bandwidth bandwidth;
    Duration round_trip;
    std::optional<double> clock_hz;
    std::optional<long long> flit_bytes;
    std::optional<long long> credit_bytes;          // default: flit_bytes
    std::optional<double> credit_message_bytes;     // one return message
    std::optional<long long> batch;                 // credits per return message
    std::optional<double> rate;                     // 0 < r <= 1, fraction of peak to sustain
    bool json = false;
    bool help = false;
};

// One line naming the option, the text and what is accepted; empty when the parse succeeded.
struct SizeParseError {
    std::string message;
};


struct SizeResult {
    // Each quantity in the other time base too, when --clock links the two.
    std::optional<double> bandwidth_bytes_per_second;
    std::optional<double> bandwidth_bytes_per_cycle;
    std::optional<double> round_trip_seconds;
    std::optional<double> round_trip_cycles;
    double delay_product_bytes = 0;          // bandwidth x RTT, snapped to a whole number when it is one
    // Credit counts are set only when a credit size is known (--credit-bytes or --flit-bytes).
    std::optional<long long> credit_bytes;
    double credits_exact = 0;                // delay product / credit bytes
    long long credits = 0;                   // rounded up
    double rate = 1.0;
    double rate_limited_bytes = 0;           // rate x delay product
    double rate_limited_credits_exact = 0;
    long long rate_limited_credits = 0;
    long long batch = 1;
    long long batch_extra_credits = 0;       // K - 1
    long long batch_extra_bytes = 0;         // (K - 1) x credit bytes
    double buffer_bytes = 0;                 // what to build: whole credits (whole bytes without a credit size)
    long long buffer_credits = 0;
    std::optional<double> return_share_one_by_one;   // message / credit bytes
    std::optional<double> return_share_batched;      // message / (K x credit bytes), with --batch
};

// Fails (with one line in `error`) only when units cannot be reconciled: cycles against a
// per-second bandwidth, or the other way round, without --clock.
std::optional<SizeResult> compute_size(const SizeInputs& inputs, SizeParseError& error);

std::string size_text(const SizeInputs& inputs, const SizeResult& result);   // lines, each ending in '\n'
std::string size_json(const SizeInputs& inputs, const SizeResult& result);   // one object, no newline

}  // namespace creditloop
