#include "scoreboard.h"

#include <cstdio>
#include <utility>

#include <fmt/format.h>

namespace creditloop {

std::string with_thousands(uint64_t value) {
    std::string digits = std::to_string(value);
    std::string out;
    int count = 0;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        if (count > 0 && count % 3 == 0) out.insert(out.begin(), ',');
        out.insert(out.begin(), *it);
        ++count;
    }
    return out;
}

std::string counted(uint64_t count, const char* noun) {
    return with_thousands(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string three_decimals(double value) { return fmt::format("{:.3f}", value); }

std::string hex32(uint32_t value) { return fmt::format("0x{:08x}", value); }

std::string ViolationLog::summary() const {
    return std::string(name()) + ": " + with_thousands(cycles_checked_) + " cycles checked, " +
           with_thousands(violation_count_) + (violation_count_ == 1 ? " violation" : " violations");
}

void ViolationLog::record(Violation v) {
    ++violation_count_;
    if (violations_.size() < record_limit_) violations_.push_back(std::move(v));
}

}  // namespace creditloop
