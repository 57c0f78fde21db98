// Credit conservation (seed 004): every credit is always somewhere, so the sum of the places a
// credit can be held (credits_in_loop(), the signals observed_signals.def marks as terms) == B
// at the start of every cycle, plus the per-end checks seed 004 lists for when only one end is
// visible.
//
// Checks (Violation::check):
//   conservation.total            the total differs from B. Recorded when it first goes wrong and
//                                 again at every later change (each new loss or creation), not
//                                 every cycle it stays wrong. Cycle t's total is the state after
//                                 the edge that ended cycle t - 1, so a credit dropped in slot 6
//                                 is reported at cycle 7.
//   conservation.grant            the sender holds more than B credits (once per excursion).
//   conservation.send_at_zero     a send in a cycle the sender holds no credit.
//   conservation.receiver_returns the receiver has returned more credits than flits it popped
//                                 (recorded each time the excess reaches a new high).
//   conservation.overflow         a flit arrived with every slot full.
//   conservation.injected_loss    the total fell (rose: conservation.injected_gain) at the edge
//                                 after the environment dropped (corrupted) a return message
//                                 (docs/recovery.md): the fault's doing, not the RTL's, and still a
//                                 violation, since the loop is short (or over) from then on.
#pragma once

#include <cstdint>
#include <optional>

#include "link_config.h"
#include "scoreboard.h"

namespace creditloop {

class ConservationScoreboard final : public Scoreboard {
public:
    explicit ConservationScoreboard(const LinkConfig& config);

    const char* name() const override { return "conservation"; }
    void step(const Observation& obs) override;

    // The first cycle any conservation check failed.
    std::optional<uint64_t> first_violation_cycle() const { return first_violation_cycle_; }
    // The conservation total at the start of the last cycle checked (B while nothing is wrong).
    uint64_t total() const { return total_; }
    // total() - B: -2 means "2 of B credits leaked", +1 "1 credit created".
    int64_t net_change() const { return static_cast<int64_t>(total_) - buffer_slots_; }
    // Every decrease and every increase of the total, summed separately over the run.
    uint64_t credits_lost() const { return credits_lost_; }
    uint64_t credits_created() const { return credits_created_; }
    uint64_t buffer_slots() const { return buffer_slots_; }

private:
    void total_changed(const Observation& obs, uint64_t total);
    void grant_exceeded(const Observation& obs);
    void sent_at_zero(const Observation& obs);
    void over_returned(const Observation& obs);
    void overflowed(const Observation& obs);
    void one_sided_reset(const Observation& obs);
    void violation(Violation v);

    uint64_t buffer_slots_;
    uint64_t total_;                 // the last total seen (B before the first cycle)
    uint64_t credits_lost_ = 0;
    uint64_t credits_created_ = 0;
    bool over_grant_ = false;        // credits > B in the previous cycle
    uint64_t returned_ = 0;          // credits the receiver returned, cumulative
    uint64_t popped_ = 0;            // flits the receiver popped, cumulative
    uint64_t excess_recorded_ = 0;   // largest returned_ - popped_ reported so far
    std::optional<uint64_t> first_violation_cycle_;
    std::optional<uint64_t> fault_before_;   // the previous cycle's injected fault, if any
    bool fault_was_drop_ = false;
};

}  // namespace creditloop
