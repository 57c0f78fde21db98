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
//   conservation.send_at_zero     a send in a cycle the sender holds no credit (and, when credits
//                                 are usable on arrival, none arrives). A send at zero in the cycle
//                                 a credit arrives is named as a likely bypass the map did not declare.
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
#include <string>

#include "link_config.h"
#include "scoreboard.h"

namespace creditloop {

// A reset of one end alone, for one pool (the single link's one pool, or any pool of many):
// `sender_end` and `receiver_end` are what each end would hold after this cycle's edge had there
// been no reset (a send and a pop move a credit within one end, so only the crossings count).
// The reset end restarts empty (the sender with `grant`), the other keeps what it holds; when
// credits were away from the reset end, the violation names how many were lost or created.
// `who` prefixes the detail ("pool REQ: "), `signal` is the reset's name.
std::optional<Violation> one_sided_reset_violation(uint64_t cycle, bool reset_tx, uint64_t grant, uint64_t sender_end,
                                                   uint64_t receiver_end, const std::string& signal,
                                                   const std::string& who = "");

// A change of a total at the edge after a fault the environment injected is that fault's doing,
// not the RTL's (docs/recovery.md): named apart, still a violation (the loop is no longer whole).
// The check ("conservation.injected_loss" or "_gain") and the detail, `message` naming what was hit.
const char* injected_check(bool lost);
std::string injected_detail(const std::string& message, bool dropped, uint64_t fault_cycle, const std::string& detail);

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
    bool credits_on_arrival_ = false;
    uint64_t returned_ = 0;          // credits the receiver returned, cumulative
    uint64_t popped_ = 0;            // flits the receiver popped, cumulative
    uint64_t excess_recorded_ = 0;   // largest returned_ - popped_ reported so far
    std::optional<uint64_t> first_violation_cycle_;
    std::optional<uint64_t> fault_before_;   // the previous cycle's injected fault, if any
    bool fault_was_drop_ = false;
};

}  // namespace creditloop
