#include "own_link.h"

#include "closed_forms.h"

namespace creditloop {

uint32_t mapped_link_lockstep_signals() {
    uint32_t mask = 0;
    for (Signal s : {Signal::send, Signal::send_payload, Signal::can_send, Signal::pop, Signal::pop_payload, Signal::credits,
                     Signal::credits_arriving, Signal::arrive, Signal::fwd_flits, Signal::occupancy, Signal::overflow})
        mask |= 1u << static_cast<int>(s);
    return mask;
}

std::optional<std::string> mapped_link_refuses(const RunSpec& spec) {
    const LinkConfig& c = spec.config;
    if (c.batch != 1 || spec.stimulus.flush_probability > 0 || spec.stimulus.reverse_load > 0 ||
        c.policy != ReturnPolicy::batch || c.flush_timeout || c.free_delay || c.recovery ||
        spec.faults.any())
        return std::string("your receiver returns credits its own way: drop --K, --flush, --reverse-load, --policy, "
                           "--timeout, --free-delay, --recovery and the faults (the map's return_latency sets the round trip, as SYNC)");
    return std::nullopt;
}

void fit_to_mapped_link(RunSpec& spec, const MappedLink& link) {
    spec.config.sync_stages = link.return_latency;
    spec.config.credits_on_arrival = link.credits_on_arrival;
    spec.lockstep_signals = link.lockstep_signals.value_or(mapped_link_lockstep_signals());
    spec.sender_fifo_latency = link.sender_fifo_latency.value_or(-1);
    // A FIFO's ready says it has room, not that a credit is held: the model has no FIFO to compare it with.
    if (link.sender_fifo_latency) spec.lockstep_signals &= ~(1u << static_cast<int>(Signal::can_send));
    // Full rate is a claim about the round trip: it stands only if B still covers the longer one.
    spec.declared_full_rate = spec.declared_full_rate &&
                              spec.config.buffer_slots >= full_rate_buffer(round_trip_cycles(spec.config), spec.config.batch);
}

}  // namespace creditloop
