// Data integrity: every payload the sender sends (send && send_payload) is popped at the
// receiver (pop && pop_payload) exactly once and in order.
//
// The scoreboard keeps the payloads sent and not yet delivered, oldest first. A pop that is not
// the oldest is classified, using the link's own flit count (fwd_flits + occupancy at the start
// of the cycle) to tell a flit that is gone from one that is only late:
//   data.lost       the pop matches the i-th later entry and the link holds at least i fewer
//                   flits than expected: i flits vanished. They are dropped and the check
//                   resyncs on the popped one. Also at finish(), for flits neither delivered nor
//                   still in the link.
//   data.order      the pop matches a later entry but the earlier ones are all still in the link:
//                   it overtook them. It is taken out of the queue; the earlier ones are still due.
//   data.duplicate  the pop matches none of the expected payloads but one of the last 64
//                   delivered: a second copy.
//   data.corrupt    the pop matches nothing sent: the oldest expected flit arrived altered (it is
//                   consumed), or, when the link holds more flits than were sent, a spurious one.
// Payloads are compared under a W-bit mask when a LinkConfig is given. Random W-bit payloads make
// an accidental match negligible; a stimulus that repeats payloads would confuse the classes
// (never the pass/fail verdict of a correct link).
#pragma once

#include <cstdint>
#include <string>

#include "link_config.h"
#include "payload_ledger.h"
#include "scoreboard.h"

namespace creditloop {

class DataIntegrityScoreboard final : public Scoreboard {
public:
    DataIntegrityScoreboard();                                  // full 32-bit payloads
    explicit DataIntegrityScoreboard(const LinkConfig& config); // payloads masked to W bits

    const char* name() const override { return "data"; }
    void step(const Observation& obs) override;
    // Flits still expected must be exactly the flits still in the link after the last cycle.
    void finish() override;

    uint64_t flits_sent() const { return ledger_.flits_sent(); }
    uint64_t flits_delivered() const { return ledger_.flits_delivered(); }   // popped and matched, in or out of order
    uint64_t flits_lost() const { return ledger_.flits_lost(); }             // counted by data.lost records
    size_t flits_outstanding() const { return ledger_.flits_outstanding(); }
    static constexpr size_t kMaxOutstanding = PayloadLedger::kMaxOutstanding;

private:
    PayloadLedger ledger_;
    std::string pop_signal_ = signal_name(Signal::pop_payload);   // named once, not per cycle
    bool finished_ = false;

    // What finish() needs of the last observation.
    bool seen_any_ = false;
    uint64_t last_cycle_ = 0;
    uint64_t last_in_link_after_ = 0;   // flits in the link after the last cycle's edge
};

}  // namespace creditloop
