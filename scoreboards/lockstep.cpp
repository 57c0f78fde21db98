#include "lockstep.h"

#include <cstring>
#include <string>

namespace creditloop {

namespace {

constexpr uint32_t bit(Signal signal) { return 1u << static_cast<unsigned>(signal); }
static_assert(kSignalCount <= 32, "differing_signals() keeps one bit per signal in a uint32_t: widen the mask");

std::string cycles_after(uint64_t count) {
    return std::to_string(count) + (count == 1 ? " cycle after" : " cycles after");
}

// memcmp of two observations, inline: a libc call per cycle is a few percent of a run.
bool same_bytes(const Observation& a, const Observation& b) {
    static_assert(sizeof(Observation) % sizeof(uint64_t) == 0, "Observation is a whole number of words");
    uint64_t differ = 0;
    for (size_t i = 0; i < sizeof(Observation); i += sizeof(uint64_t)) {
        uint64_t x, y;
        std::memcpy(&x, reinterpret_cast<const char*>(&a) + i, sizeof x);
        std::memcpy(&y, reinterpret_cast<const char*>(&b) + i, sizeof y);
        differ |= x ^ y;
    }
    return differ == 0;
}

}  // namespace

uint32_t differing_signals(const Observation& a, const Observation& b) {
    // The common case, every cycle of a passing run: the bytes are equal. Padding bytes may
    // differ even then, so a difference falls through to the field-by-field compare.
    if (same_bytes(a, b)) return 0;
    uint32_t d = 0;
#define CREDITLOOP_OBSERVED_SIGNAL(field, leaf, type, group, width, waves, source, term) \
    d |= (a.field != b.field) ? bit(Signal::field) : 0u;
#include "observed_signals.def"
    return d;
}

void LockstepScoreboard::step(const Observation& rtl) {
    count_cycle();
    if (!have_model_ || model_.cycle != rtl.cycle) {
        if (!sequence_reported_)
            sequence_error(rtl.cycle, have_model_ ? "the model's observation is of cycle " +
                                                        std::to_string(model_.cycle)
                                                  : "no model observation for this cycle (expect() not called)");
        have_model_ = false;
        return;
    }
    have_model_ = false;
    const uint32_t differing = differing_signals(model_, rtl) & compared_;
    if (differing != 0) diverged(rtl, differing);
}

void LockstepScoreboard::diverged(const Observation& rtl, uint32_t differing) {
    ++divergent_cycles_;
    const bool first = !first_divergence_;
    if (first) first_divergence_ = rtl.cycle;
    const uint32_t fresh = differing & ~reported_;
    reported_ |= differing;
    for (int i = 0; i < kSignalCount; ++i) {
        const Signal signal = static_cast<Signal>(i);
        if (!(fresh & bit(signal))) continue;
        record({rtl.cycle, "lockstep", signal_name(signal), signal_value_text(signal, signal_value(model_, signal)),
                signal_value_text(signal, signal_value(rtl, signal)),
                first ? std::string("first divergence from the golden model")
                      : "starts to differ " + cycles_after(rtl.cycle - *first_divergence_) +
                            " the first divergence (cycle " + std::to_string(*first_divergence_) +
                            ")"});
    }
}

void LockstepScoreboard::sequence_error(uint64_t cycle, const std::string& detail) {
    sequence_reported_ = true;
    record({cycle, "lockstep.sequence", "cycle", "a model observation of cycle " + std::to_string(cycle),
            have_model_ ? std::to_string(model_.cycle) : "none", detail});
}

}  // namespace creditloop

