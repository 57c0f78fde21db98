// The one small interface every scoreboard has (Ibex's Cosim::step / get_errors): it is fed one
// Observation per cycle, keeps each error as a structured record, and says in one line what it
// checked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "observation.h"

namespace creditloop {

// One failed check: the cycle it happened, which check, which signal, and the two values.
struct Violation {
    uint64_t cycle = 0;
    std::string check;      // e.g. "conservation.total", "lockstep", "data.order"
    std::string signal;     // e.g. "link.sender.credits"
    std::string expected;
    std::string got;
    std::string detail;     // one human sentence: "1 credit lost", "flit 0x1234 duplicated"
};

// The bookkeeping every scoreboard shares, whatever it observes: the records, the counts, the
// one-line summary. Scoreboard (one link) and ChannelScoreboard (channel_scoreboards.h) add step().
class ViolationLog {
public:
    virtual ~ViolationLog() = default;

    virtual const char* name() const = 0;
    // Called once after the last cycle, for checks that need the whole run.
    virtual void finish() {}
    // e.g. "conservation: 1,000,000 cycles checked, 0 violations"
    virtual std::string summary() const;

    bool ok() const { return violation_count_ == 0; }
    const std::vector<Violation>& violations() const { return violations_; }
    uint64_t violation_count() const { return violation_count_; }
    uint64_t cycles_checked() const { return cycles_checked_; }

    // Keep at most this many records (the count goes on); the first is the one that matters.
    void set_record_limit(size_t limit) { record_limit_ = limit; }

protected:
    void record(Violation v);
    void count_cycle() { ++cycles_checked_; }

private:
    std::vector<Violation> violations_;
    uint64_t violation_count_ = 0;
    uint64_t cycles_checked_ = 0;
    size_t record_limit_ = 100;
};

class Scoreboard : public ViolationLog {
public:
    virtual void step(const Observation& obs) = 0;
};

// Formatting shared by every report of a violation.
std::string with_thousands(uint64_t value);                 // "1,000,000"
std::string counted(uint64_t count, const char* noun);      // "1 credit", "2,000 cycles"
std::string three_decimals(double value);                   // "0.615", as the seeds print
std::string hex32(uint32_t value);                          // "0x0000beef"

}  // namespace creditloop
