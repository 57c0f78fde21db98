#include "data_integrity.h"

#include <string>

namespace creditloop {

DataIntegrityScoreboard::DataIntegrityScoreboard() = default;

DataIntegrityScoreboard::DataIntegrityScoreboard(const LinkConfig& config)
    : ledger_(config.payload_bits >= 32 ? 0xFFFFFFFFu : (1u << config.payload_bits) - 1u) {}

void DataIntegrityScoreboard::step(const Observation& o) {
    count_cycle();
    const uint64_t in_link = static_cast<uint64_t>(o.fwd_flits) + o.occupancy;
    if (o.pop)
        if (auto v = ledger_.pop(o.cycle, pop_signal_, o.pop_payload, in_link)) record(std::move(*v));
    if (o.send)
        if (auto v = ledger_.send(o.cycle, pop_signal_, o.send_payload)) record(std::move(*v));
    seen_any_ = true;
    last_cycle_ = o.cycle;
    // An overflowing flit leaves the forward path and is dropped at the edge.
    const uint64_t in = in_link + (o.send ? 1u : 0u);
    const uint64_t out = (o.pop ? 1u : 0u) + (o.overflow ? 1u : 0u);
    last_in_link_after_ = in > out ? in - out : 0;
    // Resetting both ends discards every flit in the link, as it should; a one-sided reset
    // loses flits and is left to show as data.lost.
    if (o.reset_tx && o.reset_rx) {
        ledger_.clear();
        last_in_link_after_ = 0;
    }
}

void DataIntegrityScoreboard::finish() {
    if (finished_ || !seen_any_) return;
    finished_ = true;
    if (auto v = ledger_.finish(last_cycle_, pop_signal_, last_in_link_after_)) record(std::move(*v));
}

}  // namespace creditloop
