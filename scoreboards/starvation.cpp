#include "starvation.h"

#include <fmt/format.h>

#include "closed_forms.h"

namespace creditloop {

int starvation_bound(const LinkConfig& config) {
    return 2 * full_rate_buffer(round_trip_cycles(config), config.batch) + (config.recovery ? config.resend_period : 0);
}

StarvationScoreboard::StarvationScoreboard(const LinkConfig& config)
    : config_(config), bound_(static_cast<uint64_t>(starvation_bound(config))),
      messages_(static_cast<size_t>(config.stages + config.sync_stages), false),
      last_total_(static_cast<uint64_t>(config.buffer_slots)) {}

void StarvationScoreboard::step(const Observation& o) {
    count_cycle();
    const uint64_t total = credits_in_loop(o);
    if (total < last_total_) last_loss_ = o.cycle;
    last_total_ = total;

    if (o.update_refused) {
        if (o.fault_add != 0) {
            ++refused_injected_;
        } else {
            record({o.cycle, "recovery.refused", "link.sender.update_refused", "0", "1",
                    "the sender refused a credit update no injected fault explains: the receiver sent a total "
                    "that would give the sender more than B"});
        }
    }

    const bool starved = o.credits == 0 && o.fwd_flits == 0 && o.occupancy == 0 && o.slots_freeing == 0 &&
                         o.return_waiting == 0 && in_flight_ == 0 && !o.reset_tx && !o.reset_rx;
    if (starved) {
        if (run_ == 0) run_start_ = o.cycle;
        ++run_;
        longest_ = std::max(longest_, run_);
        if (run_ == bound_ + 1) {
            const uint64_t missing = static_cast<uint64_t>(config_.buffer_slots) - o.pending_returns;
            record({o.cycle, "starvation", "link.sender.credits",
                    fmt::format("credits back within {} cycles", bound_), fmt::format("0 for {} cycles", run_),
                    fmt::format("sender held at 0 credits since cycle {} with every receiver slot free and nothing in "
                                "flight: {} missing{}",
                                run_start_, counted(missing, "credit"),
                                last_loss_ ? fmt::format(", lost since cycle {}", *last_loss_) : std::string())});
        }
    } else {
        run_ = 0;
    }
    // What is on the return path for the next cycle.
    in_flight_ -= messages_.front() ? 1 : 0;
    messages_.pop_front();
    messages_.push_back(o.return_message && !o.reset_rx);
    in_flight_ += messages_.back() ? 1 : 0;
    if (o.reset_rx) {
        for (auto&& m : messages_) m = false;
        in_flight_ = 0;
    }
}

}  // namespace creditloop
