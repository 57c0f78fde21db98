#include "link_config.h"

namespace creditloop {

std::string LinkConfig::key() const {
    return "L" + std::to_string(stages) + "_B" + std::to_string(buffer_slots) + "_K" +
           std::to_string(batch) + "_W" + std::to_string(payload_bits) +
           (sync_stages ? "_S" + std::to_string(sync_stages) : "") +
           (free_delay ? "_D" + std::to_string(free_delay) : "") + (rtl_full_rate ? "_FR" : "") +
           (policy == ReturnPolicy::hybrid
                ? "_H" + std::to_string(low_credits) + "i" + std::to_string(idle_cycles)
                : "") +
           (flush_timeout ? "_T" + std::to_string(flush_timeout) : "") +
           (recovery ? "_R" + std::to_string(total_bits) + "p" + std::to_string(resend_period) : "") +
           (credits_on_arrival ? "_A" : "");
}

bool LinkConfig::operator==(const LinkConfig& other) const {
    return stages == other.stages && buffer_slots == other.buffer_slots && batch == other.batch &&
           payload_bits == other.payload_bits && sync_stages == other.sync_stages &&
           free_delay == other.free_delay && rtl_full_rate == other.rtl_full_rate &&
           policy == other.policy && flush_timeout == other.flush_timeout && recovery == other.recovery &&
           credits_on_arrival == other.credits_on_arrival &&
           (!recovery || (total_bits == other.total_bits && resend_period == other.resend_period)) &&
           (policy == ReturnPolicy::batch ||
            (low_credits == other.low_credits && idle_cycles == other.idle_cycles));
}

const char* policy_name(ReturnPolicy policy) {
    return policy == ReturnPolicy::hybrid ? "hybrid" : "batch";
}

namespace {
std::string out_of_range(const char* name, int value, const std::string& range) {
    return std::string(name) + " = " + std::to_string(value) + " is out of range: allowed " + range;
}
}  // namespace

std::optional<std::string> validate(const LinkConfig& c) {
    // Each parameter's bounds; "B" as the upper bound is the link's own buffer.
    struct Bound {
        const char* what;
        int value, low, high;
        bool high_is_b;
    };
    const Bound bounds[] = {
        {"--L (stages each way)", c.stages, 1, kMaxStages, false},
        {"--B (receiver slots)", c.buffer_slots, 1, kMaxBufferSlots, false},
        {"--K (return batch)", c.batch, 1, c.buffer_slots, true},
        {"--W (payload bits)", c.payload_bits, 1, kMaxPayloadBits, false},
        {"--sync (synchroniser stages on the return path)", c.sync_stages, 0, kMaxSyncStages, false},
        {"--free-delay (cycles from pop to the slot being freed)", c.free_delay, 0, kMaxFreeDelay, false},
        {"--low (hybrid: flush when the sender may hold this many credits)", c.low_credits, 0, c.buffer_slots, true},
        {"--idle (hybrid: cycles without reverse traffic that count as idle)", c.idle_cycles, 1, kMaxIdleCycles, false},
        {"--timeout (cycles a credit may wait for its batch; 0 = off)", c.flush_timeout, 0, kMaxFlushTimeout, false},
    };
    for (const Bound& b : bounds) {
        if (b.value >= b.low && b.value <= b.high) continue;
        const std::string range = std::to_string(b.low) + ".." +
                                  (b.high_is_b ? "B (B = " + std::to_string(b.high) + ")" : std::to_string(b.high));
        return out_of_range(b.what, b.value, range);
    }
    if (c.recovery) {
        if (c.resend_period < 1 || c.resend_period > kMaxResendPeriod)
            return out_of_range("--resend (cycles between credit updates)", c.resend_period,
                                "1.." + std::to_string(kMaxResendPeriod));
        // 2^n > 2B: a stale or repeated total can never look like new credits.
        if (c.total_bits > kMaxTotalBits || (1LL << c.total_bits) <= 2LL * c.buffer_slots) {
            int need = 1;
            while ((1LL << need) <= 2LL * c.buffer_slots) ++need;
            return "--total-bits = " + std::to_string(c.total_bits) + " is out of range: running totals need 2^n > 2B, so " +
                   std::to_string(need) + ".." + std::to_string(kMaxTotalBits) + " with B = " + std::to_string(c.buffer_slots);
        }
    }
    return std::nullopt;
}

}  // namespace creditloop
