#include "faults.h"

#include <fmt/format.h>

namespace creditloop {

std::string describe(const FaultSpec& f) {
    std::string out;
    const auto add = [&out](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
    if (f.drop_probability > 0) add("drop " + exact_number(f.drop_probability));
    if (f.drop_at) add(fmt::format("drop at {}", *f.drop_at));
    if (f.drop_every) add(fmt::format("drop every {}", f.drop_every));
    if (f.corrupt_probability > 0) add(fmt::format("corrupt {} (+{})", exact_number(f.corrupt_probability), f.corrupt_add));
    if (f.corrupt_at) add(fmt::format("corrupt at {} (+{})", *f.corrupt_at, f.corrupt_add));
    return out.empty() ? "none" : out;
}

FaultInjector::FaultInjector(const FaultSpec& spec, const LinkConfig& config, uint64_t seed)
    : spec_(spec), rng_(seed ^ 0xFA01'7FA0'17FA'017Full),
      delay_(static_cast<size_t>(config.stages + config.sync_stages)), in_flight_(delay_) {}

void FaultInjector::apply(uint64_t cycle, LinkInputs& in) {
    in.fault_drop = false;
    in.fault_add = 0;
    const Entered& arriving = in_flight_.front();
    if (!arriving.message) return;
    switch (judge(cycle)) {
    case Verdict::drop:
        in.fault_drop = true;
        injected_.push_back({cycle, 0, true, 0, arriving.credits, arriving.cycle});
        break;
    case Verdict::corrupt:
        in.fault_add = spec_.corrupt_add;
        injected_.push_back({cycle, 0, false, spec_.corrupt_add, arriving.credits, arriving.cycle});
        break;
    case Verdict::none: break;
    }
}

FaultInjector::Verdict FaultInjector::judge(uint64_t cycle) {
    ++messages_;
    // Every rule draws (or counts) for every message, in a fixed order, so one rule never
    // shifts another's stream.
    const bool random_drop = spec_.drop_probability > 0 && rng_.chance(spec_.drop_probability);
    const bool random_corrupt = spec_.corrupt_probability > 0 && rng_.chance(spec_.corrupt_probability);
    const bool drop_now = spec_.drop_at && !dropped_at_ && cycle >= *spec_.drop_at;
    const bool corrupt_now = spec_.corrupt_at && !corrupted_at_ && cycle >= *spec_.corrupt_at;
    dropped_at_ = dropped_at_ || drop_now;
    corrupted_at_ = corrupted_at_ || corrupt_now;
    const bool every = spec_.drop_every > 0 && messages_ % spec_.drop_every == 0;
    if (random_drop || drop_now || every) return Verdict::drop;
    if (random_corrupt || corrupt_now) return Verdict::corrupt;
    return Verdict::none;
}

void FaultInjector::observe(const Observation& o) {
    in_flight_.pop_front();
    in_flight_.push_back({o.return_message, o.credits_returned, o.cycle});
    // A reset of the receiver end empties the return path at this cycle's edge.
    if (o.reset_rx)
        for (auto& e : in_flight_) e = Entered{};
}

}  // namespace creditloop
