#include "starvation.h"

#include <fmt/format.h>

#include "closed_forms.h"

namespace creditloop {

int starvation_bound(int round_trip, int batch, int resend_period) {
    return 2 * full_rate_buffer(round_trip, batch) + resend_period;
}

int starvation_bound(const LinkConfig& config) {
    return starvation_bound(round_trip_cycles(config), config.batch, config.recovery ? config.resend_period : 0);
}

Violation StarvationWatch::violation(uint64_t cycle, const std::string& signal, const std::string& who, const char* where,
                                     uint64_t missing, std::optional<uint64_t> last_loss) const {
    return {cycle, "starvation", signal, fmt::format("credits back within {} cycles", bound_),
            fmt::format("0 for {} cycles", run_),
            fmt::format("{} held at 0 credits since cycle {} with {}: {} missing{}", who, start_, where,
                        counted(missing, "credit"),
                        last_loss ? fmt::format(", lost since cycle {}", *last_loss) : std::string())};
}

StarvationScoreboard::StarvationScoreboard(const LinkConfig& config)
    : config_(config), watch_(static_cast<uint64_t>(starvation_bound(config))),
      messages_(config.stages + config.sync_stages), last_total_(static_cast<uint64_t>(config.buffer_slots)) {}

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
                         o.return_waiting == 0 && messages_.pools() == 0 && !o.reset_tx && !o.reset_rx;
    if (watch_.step(o.cycle, starved))
        record(watch_.violation(o.cycle, "link.sender.credits", "sender",
                                "every receiver slot free and nothing in flight",
                                static_cast<uint64_t>(config_.buffer_slots) - o.pending_returns, last_loss_));
    messages_.shift(o.return_message ? 1u : 0u, o.reset_rx);
}

}  // namespace creditloop
