// Faults on the return path (docs/recovery.md): which credit messages the environment drops or
// corrupts. The injector sets the link's fault_drop / fault_add inputs in the cycle a message
// arrives at the sender, and only then; it knows a message arrives because it saw it enter the
// return path L + SYNC cycles earlier (the DUT's return_message and credits_returned, as the
// source learns from the DUT's send that its flit was taken). Its random stream is its own, so
// adding faults never changes the traffic.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "link_config.h"
#include "link_inputs.h"
#include "observation.h"
#include "stimulus.h"

namespace creditloop {

struct FaultSpec {
    double drop_probability = 0.0;      // each arriving message is lost with this probability
    std::optional<uint64_t> drop_at;    // the first message arriving at or after this cycle is lost
    uint64_t drop_every = 0;            // every Nth arriving message is lost (0: off)
    double corrupt_probability = 0.0;   // each arriving message is made larger with this probability
    std::optional<uint64_t> corrupt_at; // the first message arriving at or after this cycle is made larger
    uint32_t corrupt_add = 1;           // by this much (a count, or a running total)
    bool any() const {
        return drop_probability > 0 || drop_at || drop_every > 0 || corrupt_probability > 0 || corrupt_at;
    }
};

// One fault the injector applied.
struct InjectedFault {
    uint64_t cycle = 0;      // the cycle the message arrived (and was dropped or corrupted)
    int pool = 0;            // the multi-channel link's pool it was for (0 on the single link)
    bool drop = false;       // else corrupted
    uint32_t add = 0;        // corrupted: by how much
    uint32_t credits = 0;    // the credits the message carried (new credits, for an update)
    uint64_t sent = 0;       // the cycle it entered the return path
};

// "drop 0.01, every 3rd, corrupt +13 at 500": the faults in words, for reports.
std::string describe(const FaultSpec& faults);

class FaultInjector {
public:
    FaultInjector(const FaultSpec& spec, const LinkConfig& config, uint64_t seed);
    // Set `in`'s fault inputs for cycle `cycle` (a message arrives now, and a rule hits it).
    void apply(uint64_t cycle, LinkInputs& in);
    // After the cycle: what entered the return path (and whether a reset emptied it).
    void observe(const Observation& o);

    const std::vector<InjectedFault>& injected() const { return injected_; }
    uint64_t messages_seen() const { return messages_; }

    // The rules for one arriving message (in arrival order, across pools): drop, corrupt or
    // nothing. Shared with the multi-channel link's injector.
    enum class Verdict { none, drop, corrupt };
    Verdict judge(uint64_t cycle);

private:
    struct Entered {
        bool message = false;
        uint32_t credits = 0;
        uint64_t cycle = 0;
    };
    FaultSpec spec_;
    Rng rng_;
    size_t delay_;                 // L + SYNC
    std::deque<Entered> in_flight_;   // what entered in each of the last `delay_` cycles, oldest first
    uint64_t messages_ = 0;        // messages that have arrived
    bool dropped_at_ = false, corrupted_at_ = false;
    std::vector<InjectedFault> injected_;
};

}  // namespace creditloop
