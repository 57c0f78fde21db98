// What one cycle of a credit link looks like from outside: one plain struct per cycle, filled
// from the RTL's observation ports or by the golden model, and the only thing a scoreboard sees.
//
// The signals are declared once, in observed_signals.def (their meaning is documented there);
// the struct, the Signal enum and the table of what each signal is are derived from it here.
//
// Counts are the state at the start of the cycle (after the previous rising edge); the event
// fields are what happens during the cycle (before the next edge). With this convention the
// conservation identity holds for every cycle: credits_in_loop(o) == B, the sum of the signals
// the list marks as terms (credits + fwd_flits + occupancy + slots_freeing + pending_returns +
// return_waiting + return_flight).
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "link_config.h"
#include "link_inputs.h"

namespace creditloop {

struct Observation {
    uint64_t cycle = 0;   // 0 = the first cycle after reset is released

#define CREDITLOOP_OBSERVED_SIGNAL(field, leaf, type, group, width, waves, source, term) type field{};
#include "observed_signals.def"
};

// The observed signals by name, in loop order, for reports and lockstep comparison.
enum class Signal : uint8_t {
#define CREDITLOOP_OBSERVED_SIGNAL(field, leaf, type, group, width, waves, source, term) field,
#include "observed_signals.def"
};

// Where a signal sits in the loop (its name is "<path>.<leaf>").
enum class SignalGroup : uint8_t {
#define CREDITLOOP_SIGNAL_GROUP(group, path, wave_title) group,
#include "observed_signals.def"
};

// A signal's width in the RTL: 1 bit, a count of credits $clog2(B+1), a count of forward
// flits $clog2(L+1), the payload W, the loop total's max(count, flits) + 3, or a fault's 16 bits.
enum class WidthRule : uint8_t { one_bit, count, flits, payload, total, fault };
// How GTKWave shows a signal and reports print it.
enum class WaveFormat : uint8_t { binary, decimal, hex };
// An output port of credit_link, or an environment input the harness echoes from LinkInputs.
enum class SignalSource : uint8_t { rtl_output, echoed_input };

struct SignalInfo {
    Signal signal;
    const char* field;    // the Observation's field; for an RTL output, credit_link's port
    const char* leaf;     // the last part of the signal's name
    SignalGroup group;
    WidthRule width;
    WaveFormat waves;
    SignalSource source;
    bool term;            // a place a credit can be held: a term of the conservation sum
};

inline constexpr SignalInfo kObservedSignals[] = {
#define CREDITLOOP_OBSERVED_SIGNAL(field, leaf, type, group, width, waves, source, term)            \
    {Signal::field, #field, #leaf, SignalGroup::group, WidthRule::width, WaveFormat::waves, SignalSource::source, \
     term},
#include "observed_signals.def"
};
constexpr int kSignalCount = static_cast<int>(std::size(kObservedSignals));

struct SignalGroupInfo {
    SignalGroup group;
    const char* path;         // "link.sender"
    const char* wave_title;   // "sender credits"
};

inline constexpr SignalGroupInfo kSignalGroups[] = {
#define CREDITLOOP_SIGNAL_GROUP(group, path, wave_title) {SignalGroup::group, path, wave_title},
#include "observed_signals.def"
};

constexpr const SignalInfo& signal_info(Signal signal) { return kObservedSignals[static_cast<int>(signal)]; }
constexpr const SignalGroupInfo& group_info(SignalGroup group) { return kSignalGroups[static_cast<int>(group)]; }

// "link.sender.credits"; lookup_signal() is its inverse.
const char* signal_name(Signal signal);
std::optional<Signal> lookup_signal(std::string_view name);

uint64_t signal_value(const Observation& obs, Signal signal);
// A value as reports print it: hex signals as "0x0000beef", the others in decimal.
std::string signal_value_text(Signal signal, uint64_t value);
// The signal's width in bits in `config`'s RTL.
int signal_bits(WidthRule width, const LinkConfig& config);

// The environment's inputs this cycle, echoed so a scoreboard knows what was offered.
inline void echo_inputs(const LinkInputs& in, Observation& o) {
#define CREDITLOOP_ECHOED_INPUT(field, leaf, type, group, width, waves) o.field = in.field;
#include "observed_signals.def"
}

// The conservation sum: every place a credit can be held, added up (uint64_t, so a wrapped
// 32-bit counter shows as a huge total rather than as a wrapped-around pass).
inline uint64_t credits_in_loop(const Observation& o) {
    uint64_t total = 0;
#define CREDITLOOP_RTL_OUTPUT(field, leaf, type, group, width, waves, term) \
    if constexpr (term) total += o.field;
#include "observed_signals.def"
    return total;
}

}  // namespace creditloop
