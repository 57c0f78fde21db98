// Credit starvation and recovery (seed 003, docs/recovery.md).
//
// Checks (Violation::check):
//   starvation        the sender has held 0 credits for more than the bound while the receiver
//                     holds no flit, no slot is freeing, nothing waits to be returned, no flit is
//                     on the forward path and no message is on the return path: credits are
//                     missing and nothing will bring them back. Bound: 2 (RTT + K - 1) cycles,
//                     plus RESEND with recovery (a lost update is resent within RESEND cycles).
//                     Recorded once per starvation, with how many credits are missing (B minus
//                     the batch still pending) and the cycle the loop last lost credits.
//   recovery.refused  the sender refused an update (it would have given it more than B) and no
//                     injected corruption explains it: a correct receiver never sends a total
//                     the sender must refuse.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "link_config.h"
#include "scoreboard.h"

namespace creditloop {

// Cycles the sender may sit starved before the watchdog speaks.
int starvation_bound(const LinkConfig& config);

class StarvationScoreboard final : public Scoreboard {
public:
    explicit StarvationScoreboard(const LinkConfig& config);
    const char* name() const override { return "starvation"; }
    void step(const Observation& o) override;

    uint64_t longest_starvation() const { return longest_; }   // cycles, whatever the bound
    uint64_t refused_injected() const { return refused_injected_; }

private:
    LinkConfig config_;
    uint64_t bound_;
    std::deque<bool> messages_;     // return_message of the last L + SYNC cycles: what is in flight
    size_t in_flight_ = 0;
    uint64_t run_ = 0;              // consecutive starved cycles
    uint64_t run_start_ = 0;
    uint64_t longest_ = 0;
    uint64_t last_total_ = 0;
    std::optional<uint64_t> last_loss_;   // the last cycle the conservation total fell
    uint64_t refused_injected_ = 0;
};

}  // namespace creditloop
