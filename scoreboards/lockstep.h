// Lockstep: the RTL's observation against the golden model's, signal by signal, every cycle.
// The harness calls expect(model) with the model's observation, then step(rtl).
//
// Checks (Violation::check):
//   lockstep           a signal differs (expected = model, got = RTL). On the first divergent
//                      cycle every differing signal is recorded; after that divergent cycles are
//                      counted, and a signal is recorded only the first time it starts to differ,
//                      so a broken run gives at most one record per signal, not one per cycle.
//   lockstep.sequence  step() without a fresh expect(), or the two observations are of different
//                      cycles: the harness fed the comparison wrongly (recorded once).
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>

#include "observation.h"
#include "scoreboard.h"

namespace creditloop {

// Bit (1 << Signal) set for every signal whose value differs between a and b; the passing
// path is sixteen compares and no branches.
uint32_t differing_signals(const Observation& a, const Observation& b);

class LockstepScoreboard final : public Scoreboard {
public:
    const char* name() const override { return "lockstep"; }
    void expect(const Observation& model) {
        // The bytes, padding included, so that equal observations compare equal with memcmp.
        std::memcpy(static_cast<void*>(&model_), &model, sizeof model_);
        have_model_ = true;
    }
    void step(const Observation& rtl) override;
    // Compare only these signals (differing_signals() bits): a link of your own is compared on
    // what its map says the model predicts (docs/own-rtl.md). Default: every signal.
    void compare_only(uint32_t signals) { compared_ = signals; }

    std::optional<uint64_t> first_divergence_cycle() const { return first_divergence_; }
    uint64_t divergent_cycles() const { return divergent_cycles_; }
    // Signals that have differed at least once, as differing_signals() bits.
    uint32_t signals_diverged() const { return reported_; }

private:
    void diverged(const Observation& rtl, uint32_t differing);
    void sequence_error(uint64_t cycle, const std::string& detail);

    Observation model_;
    bool have_model_ = false;
    bool sequence_reported_ = false;
    uint32_t reported_ = 0;
    uint32_t compared_ = ~0u;
    uint64_t divergent_cycles_ = 0;
    std::optional<uint64_t> first_divergence_;
};

}  // namespace creditloop
