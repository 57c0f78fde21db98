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
           (flush_timeout ? "_T" + std::to_string(flush_timeout) : "");
}

bool LinkConfig::operator==(const LinkConfig& other) const {
    return stages == other.stages && buffer_slots == other.buffer_slots && batch == other.batch &&
           payload_bits == other.payload_bits && sync_stages == other.sync_stages &&
           free_delay == other.free_delay && rtl_full_rate == other.rtl_full_rate &&
           policy == other.policy && flush_timeout == other.flush_timeout &&
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
    if (c.stages < 1 || c.stages > kMaxStages)
        return out_of_range("--L (stages each way)", c.stages, "1.." + std::to_string(kMaxStages));
    if (c.buffer_slots < 1 || c.buffer_slots > kMaxBufferSlots)
        return out_of_range("--B (receiver slots)", c.buffer_slots,
                            "1.." + std::to_string(kMaxBufferSlots));
    if (c.batch < 1 || c.batch > c.buffer_slots)
        return out_of_range("--K (return batch)", c.batch,
                            "1..B (B = " + std::to_string(c.buffer_slots) + ")");
    if (c.payload_bits < 1 || c.payload_bits > kMaxPayloadBits)
        return out_of_range("--W (payload bits)", c.payload_bits,
                            "1.." + std::to_string(kMaxPayloadBits));
    if (c.sync_stages < 0 || c.sync_stages > kMaxSyncStages)
        return out_of_range("--sync (synchroniser stages on the return path)", c.sync_stages,
                            "0.." + std::to_string(kMaxSyncStages));
    if (c.free_delay < 0 || c.free_delay > kMaxFreeDelay)
        return out_of_range("--free-delay (cycles from pop to the slot being freed)", c.free_delay,
                            "0.." + std::to_string(kMaxFreeDelay));
    if (c.low_credits < 0 || c.low_credits > c.buffer_slots)
        return out_of_range("--low (hybrid: flush when the sender may hold this many credits)", c.low_credits,
                            "0..B (B = " + std::to_string(c.buffer_slots) + ")");
    if (c.idle_cycles < 1 || c.idle_cycles > kMaxIdleCycles)
        return out_of_range("--idle (hybrid: cycles without reverse traffic that count as idle)", c.idle_cycles,
                            "1.." + std::to_string(kMaxIdleCycles));
    if (c.flush_timeout < 0 || c.flush_timeout > kMaxFlushTimeout)
        return out_of_range("--timeout (cycles a credit may wait for its batch; 0 = off)", c.flush_timeout,
                            "0.." + std::to_string(kMaxFlushTimeout));
    return std::nullopt;
}

}  // namespace creditloop
