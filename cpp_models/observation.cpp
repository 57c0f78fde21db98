#include "observation.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace creditloop {

namespace {

const std::array<std::string, kSignalCount>& signal_names() {
    static const std::array<std::string, kSignalCount> names = [] {
        std::array<std::string, kSignalCount> all;
        for (const SignalInfo& s : kObservedSignals)
            all[static_cast<size_t>(s.signal)] = std::string(group_info(s.group).path) + "." + s.leaf;
        return all;
    }();
    return names;
}

int bits_for(int max_value) {   // $clog2(max_value + 1)
    int bits = 0;
    while ((1LL << bits) < static_cast<long long>(max_value) + 1) ++bits;
    return bits;
}

}  // namespace

const char* signal_name(Signal signal) { return signal_names()[static_cast<size_t>(signal)].c_str(); }

std::optional<Signal> lookup_signal(std::string_view name) {
    const auto& names = signal_names();
    const auto found = std::find(names.begin(), names.end(), name);
    if (found == names.end()) return std::nullopt;
    return static_cast<Signal>(found - names.begin());
}

uint64_t signal_value(const Observation& o, Signal signal) {
    switch (signal) {
#define CREDITLOOP_OBSERVED_SIGNAL(field, leaf, type, group, width, waves, source, term) \
    case Signal::field: return o.field;
#include "observed_signals.def"
    }
    return 0;
}

std::string signal_value_text(Signal signal, uint64_t value) {
    if (signal_info(signal).waves == WaveFormat::hex) {
        char text[24];
        std::snprintf(text, sizeof text, "0x%08llx", static_cast<unsigned long long>(value));
        return text;
    }
    return std::to_string(value);
}

int signal_bits(WidthRule width, const LinkConfig& config) {
    const int count = bits_for(config.buffer_slots);
    const int flits = bits_for(config.stages);
    switch (width) {
        case WidthRule::one_bit: return 1;
        case WidthRule::count: return count;
        case WidthRule::flits: return flits;
        case WidthRule::payload: return config.payload_bits;
        case WidthRule::total: return std::max(count, flits) + 3;   // credit_link's TW
        case WidthRule::fault: return 16;                           // fault_add
    }
    return 0;
}

}  // namespace creditloop
