#include "lockstep.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace creditloop {

namespace {

constexpr uint32_t bit(Signal signal) { return 1u << static_cast<unsigned>(signal); }

std::string value_text(Signal signal, uint64_t value) {
    if (signal == Signal::send_payload || signal == Signal::pop_payload) {
        char text[24];
        std::snprintf(text, sizeof text, "0x%08llx", static_cast<unsigned long long>(value));
        return text;
    }
    return std::to_string(value);
}

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
    d |= (a.want_send != b.want_send) ? bit(Signal::want_send) : 0u;
    d |= (a.drain != b.drain) ? bit(Signal::drain) : 0u;
    d |= (a.flush != b.flush) ? bit(Signal::flush) : 0u;
    d |= (a.return_busy != b.return_busy) ? bit(Signal::return_busy) : 0u;
    d |= (a.reset_tx != b.reset_tx) ? bit(Signal::reset_tx) : 0u;
    d |= (a.reset_rx != b.reset_rx) ? bit(Signal::reset_rx) : 0u;
    d |= (a.credits != b.credits) ? bit(Signal::credits) : 0u;
    d |= (a.can_send != b.can_send) ? bit(Signal::can_send) : 0u;
    d |= (a.send != b.send) ? bit(Signal::send) : 0u;
    d |= (a.send_payload != b.send_payload) ? bit(Signal::send_payload) : 0u;
    d |= (a.credits_arriving != b.credits_arriving) ? bit(Signal::credits_arriving) : 0u;
    d |= (a.fwd_flits != b.fwd_flits) ? bit(Signal::fwd_flits) : 0u;
    d |= (a.arrive != b.arrive) ? bit(Signal::arrive) : 0u;
    d |= (a.occupancy != b.occupancy) ? bit(Signal::occupancy) : 0u;
    d |= (a.pop != b.pop) ? bit(Signal::pop) : 0u;
    d |= (a.pop_payload != b.pop_payload) ? bit(Signal::pop_payload) : 0u;
    d |= (a.overflow != b.overflow) ? bit(Signal::overflow) : 0u;
    d |= (a.slots_freeing != b.slots_freeing) ? bit(Signal::slots_freeing) : 0u;
    d |= (a.pending_returns != b.pending_returns) ? bit(Signal::pending_returns) : 0u;
    d |= (a.policy_flush != b.policy_flush) ? bit(Signal::policy_flush) : 0u;
    d |= (a.return_waiting != b.return_waiting) ? bit(Signal::return_waiting) : 0u;
    d |= (a.credits_returned != b.credits_returned) ? bit(Signal::credits_returned) : 0u;
    d |= (a.return_flight != b.return_flight) ? bit(Signal::return_flight) : 0u;
    d |= (a.credit_total != b.credit_total) ? bit(Signal::credit_total) : 0u;
    return d;
}
static_assert(kSignalCount == 24, "differing_signals() compares every Signal: add the new one");

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
    const uint32_t differing = differing_signals(model_, rtl);
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
        record({rtl.cycle, "lockstep", signal_name(signal), value_text(signal, signal_value(model_, signal)),
                value_text(signal, signal_value(rtl, signal)),
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

