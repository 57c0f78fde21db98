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

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "link_config.h"
#include "scoreboard.h"

namespace creditloop {

// Cycles a pool's sender may sit starved before the watchdog speaks: 2 (RTT + K - 1), plus
// RESEND with recovery (0: none).
int starvation_bound(int round_trip, int batch, int resend_period);
int starvation_bound(const LinkConfig& config);

// The watchdog of one pool, the same rule for the single link and for every pool of many: a
// cycle is starved when the pool's counter is at 0 with nothing of the pool anywhere (not
// reserved, on the forward path, in the lanes, freeing, waiting, nor on the return path) and no
// reset; a starved run longer than the bound is one violation.
class StarvationWatch {
public:
    explicit StarvationWatch(uint64_t bound = 0) : bound_(bound) {}
    // One cycle; true in the cycle the run first exceeds the bound (record it then).
    bool step(uint64_t cycle, bool starved) {
        if (!starved) {
            run_ = 0;
            return false;
        }
        if (run_ == 0) start_ = cycle;
        longest_ = std::max(longest_, ++run_);
        return run_ == bound_ + 1;
    }
    // The record: `who` held at 0 ("sender", "pool REQ"), `where` says what was empty, `missing`
    // credits are gone; with the cycle the loop last lost credits when it is known.
    Violation violation(uint64_t cycle, const std::string& signal, const std::string& who, const char* where,
                        uint64_t missing, std::optional<uint64_t> last_loss = std::nullopt) const;
    uint64_t longest() const { return longest_; }

private:
    uint64_t bound_;
    uint64_t run_ = 0;     // consecutive starved cycles
    uint64_t start_ = 0;   // the first of them
    uint64_t longest_ = 0;
};

// The messages on a link's return paths, as masks (bit p: a message of pool p, or of path p):
// what entered each of the last L + SYNC cycles. A reset of the receiver end empties them.
// A ring allocated once (a deque would allocate and free a block every few hundred cycles).
class MessagesInFlight {
public:
    explicit MessagesInFlight(int stages) : masks_(static_cast<size_t>(stages), 0u) {}
    // Pools with a message on the way this cycle.
    uint32_t pools() const {
        uint32_t any = 0;
        for (uint32_t m : masks_) any |= m;
        return any;
    }
    // The cycle's edge: `entered` joins, the oldest arrives; reset_rx empties the paths.
    void shift(uint32_t entered, bool reset_rx) {
        if (masks_.empty()) return;
        masks_[oldest_] = entered;
        if (++oldest_ == masks_.size()) oldest_ = 0;
        if (reset_rx) std::fill(masks_.begin(), masks_.end(), 0u);
    }

private:
    std::vector<uint32_t> masks_;   // masks_[oldest_] entered L + SYNC cycles ago
    size_t oldest_ = 0;
};

class StarvationScoreboard final : public Scoreboard {
public:
    explicit StarvationScoreboard(const LinkConfig& config);
    const char* name() const override { return "starvation"; }
    void step(const Observation& o) override;

    uint64_t longest_starvation() const { return watch_.longest(); }   // cycles, whatever the bound
    uint64_t refused_injected() const { return refused_injected_; }

private:
    LinkConfig config_;
    StarvationWatch watch_;
    MessagesInFlight messages_;
    uint64_t last_total_ = 0;
    std::optional<uint64_t> last_loss_;   // the last cycle the conservation total fell
    uint64_t refused_injected_ = 0;
};

}  // namespace creditloop
