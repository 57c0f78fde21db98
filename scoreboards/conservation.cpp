#include "conservation.h"

#include <string>
#include <utility>

namespace creditloop {

namespace {

const char* kTotalSignal = "link.total_credits";

}  // namespace

ConservationScoreboard::ConservationScoreboard(const LinkConfig& config)
    : buffer_slots_(static_cast<uint64_t>(config.buffer_slots)),
      total_(buffer_slots_),
      credits_on_arrival_(config.credits_on_arrival) {}

void ConservationScoreboard::step(const Observation& o) {
    count_cycle();
    const uint64_t total = credits_in_loop(o);
    if (total != total_) total_changed(o, total);

    const bool over_grant = o.credits > buffer_slots_;
    if (over_grant && !over_grant_) grant_exceeded(o);
    over_grant_ = over_grant;

    if (o.send && o.credits == 0 && !(credits_on_arrival_ && o.credits_arriving != 0)) sent_at_zero(o);

    returned_ += o.credits_returned;
    popped_ += o.pop ? 1u : 0u;
    if (returned_ > popped_ + excess_recorded_) over_returned(o);

    if (o.overflow) overflowed(o);

    if (o.reset_tx != o.reset_rx) one_sided_reset(o);
    fault_before_ = o.fault_drop || o.fault_add != 0 ? std::optional<uint64_t>(o.cycle) : std::nullopt;
    fault_was_drop_ = o.fault_drop;
}

std::optional<Violation> one_sided_reset_violation(uint64_t cycle, bool reset_tx, uint64_t grant, uint64_t sender_end,
                                                   uint64_t receiver_end, const std::string& signal, const std::string& who) {
    const uint64_t after = reset_tx ? grant + receiver_end : sender_end;
    if (after == grant) return std::nullopt;   // nothing was away from the reset end: harmless
    const uint64_t away = after > grant ? after - grant : grant - after;
    return Violation{cycle, "conservation.one_sided_reset", signal, std::to_string(grant), std::to_string(after),
                     who + (reset_tx ? "the sender end" : "the receiver end") + " was reset alone: " +
                         counted(away, "credit") + (after > grant ? " created" : " lost") +
                         (reset_tx ? " (the sender counts B again while credits are still at the receiver)"
                                   : " (the receiver forgot the credits it held)")};
}

const char* injected_check(bool lost) { return lost ? "conservation.injected_loss" : "conservation.injected_gain"; }

std::string injected_detail(const std::string& message, bool dropped, uint64_t fault_cycle, const std::string& detail) {
    return message + (dropped ? " dropped" : " corrupted") + " by an injected fault at cycle " +
           std::to_string(fault_cycle) + ": " + detail;
}

void ConservationScoreboard::one_sided_reset(const Observation& o) {
    const uint64_t arrived = (o.arrive && !o.overflow) ? 1u : 0u;
    const uint64_t sender_end =
        static_cast<uint64_t>(o.credits) + o.credits_arriving + o.fwd_flits - (o.arrive ? 1u : 0u);
    const uint64_t receiver_end = static_cast<uint64_t>(o.occupancy) + arrived + o.slots_freeing + o.pending_returns +
                                  o.return_waiting + o.return_flight - o.credits_arriving;
    if (auto v = one_sided_reset_violation(o.cycle, o.reset_tx, buffer_slots_, sender_end, receiver_end,
                                           signal_name(o.reset_tx ? Signal::reset_tx : Signal::reset_rx)))
        violation(std::move(*v));
}

void ConservationScoreboard::violation(Violation v) {
    if (!first_violation_cycle_) first_violation_cycle_ = v.cycle;
    record(std::move(v));
}

void ConservationScoreboard::total_changed(const Observation& o, uint64_t total) {
    std::string detail;
    if (total < total_) {
        credits_lost_ += total_ - total;
        detail = counted(total_ - total, "credit") + " lost";
    } else {
        credits_created_ += total - total_;
        detail = counted(total - total_, "credit") + " created";
    }
    // The counts are the state at the start of the cycle, so the change happened at the edge
    // that ended the cycle before (seed 004's "slot 6" for its first loss, found at cycle 7).
    if (o.cycle > 0) detail += " at the edge ending cycle " + std::to_string(o.cycle - 1);
    total_ = total;
    detail += total == buffer_slots_
                  ? "; the total is back at B, but only because losses and creations cancel"
                  : "; " + with_thousands(total) + " of B = " + with_thousands(buffer_slots_) +
                        " credits accounted for (credits " + std::to_string(o.credits) + " + fwd " +
                        std::to_string(o.fwd_flits) + " + rx " + std::to_string(o.occupancy) +
                        (o.slots_freeing ? " + freeing " + std::to_string(o.slots_freeing) : "") +
                        " + pending " + std::to_string(o.pending_returns) +
                        (o.return_waiting ? " + waiting " + std::to_string(o.return_waiting) : "") + " + returning " +
                        std::to_string(o.return_flight) + ")";
    const char* check = "conservation.total";
    if (fault_before_) {
        check = injected_check(total < buffer_slots_);
        detail = injected_detail("the return message", fault_was_drop_, *fault_before_, detail);
    }
    violation({o.cycle, check, kTotalSignal, std::to_string(buffer_slots_), std::to_string(total), std::move(detail)});
}

void ConservationScoreboard::grant_exceeded(const Observation& o) {
    violation({o.cycle, "conservation.grant", signal_name(Signal::credits),
               "<= " + std::to_string(buffer_slots_), std::to_string(o.credits),
               "the sender holds more credits than the receiver has slots"});
}

void ConservationScoreboard::sent_at_zero(const Observation& o) {
    // A credit arriving in this very cycle is the likely cause: a design that bypasses the
    // returning count straight to its ready, run without saying so.
    violation({o.cycle, "conservation.send_at_zero", signal_name(Signal::send), "0 (credits = 0)", "1",
               o.credits_arriving != 0
                   ? "the sender sent with no credit held, in the cycle " + counted(o.credits_arriving, "credit") +
                         " arrived: if your design spends a credit in the cycle it returns (a bypass to ready), say so "
                         "in its map (\"credits_on_arrival\": true)"
                   : "the sender sent without a credit; its counter goes below zero"});
}

void ConservationScoreboard::over_returned(const Observation& o) {
    excess_recorded_ = returned_ - popped_;
    violation({o.cycle, "conservation.receiver_returns", signal_name(Signal::credits_returned),
               "<= " + with_thousands(popped_) + " (flits popped so far)", with_thousands(returned_),
               "credit returned with none outstanding: the receiver has returned " +
                   counted(excess_recorded_, "credit") + " more than the flits it removed"});
}

void ConservationScoreboard::overflowed(const Observation& o) {
    violation({o.cycle, "conservation.overflow", signal_name(Signal::overflow), "0", "1",
               "a flit arrived with all " + std::to_string(buffer_slots_) +
                   " slots full and none leaving: it was dropped"});
}

}  // namespace creditloop
