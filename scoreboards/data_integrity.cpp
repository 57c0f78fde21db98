#include "data_integrity.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace creditloop {

DataIntegrityScoreboard::DataIntegrityScoreboard() : mask_(0xFFFFFFFFu) {}

DataIntegrityScoreboard::DataIntegrityScoreboard(const LinkConfig& config)
    : mask_(config.payload_bits >= 32 ? 0xFFFFFFFFu : (1u << config.payload_bits) - 1u) {}

void DataIntegrityScoreboard::step(const Observation& o) {
    count_cycle();
    // A flit sent in cycle t reaches the buffer L >= 1 cycles later, so this cycle's pop is
    // never this cycle's send: pop first, then queue the send.
    if (o.pop) {
        const uint32_t got = o.pop_payload & mask_;
        if (!expected_.empty() && expected_.front() == got) {
            expected_.pop_front();
            remember(got);
            ++delivered_;
        } else {
            mismatch(o, got);
        }
    }
    if (o.send) {
        expected_.push_back(o.send_payload & mask_);
        ++sent_;
        if (expected_.size() > kMaxOutstanding) backlog_overflow(o);
    }
    seen_any_ = true;
    last_cycle_ = o.cycle;
    // An overflowing flit leaves the forward path and is dropped at the edge.
    const uint64_t in = static_cast<uint64_t>(o.fwd_flits) + o.occupancy + (o.send ? 1u : 0u);
    const uint64_t out = (o.pop ? 1u : 0u) + (o.overflow ? 1u : 0u);
    last_in_link_after_ = in > out ? in - out : 0;
    // Resetting both ends discards every flit in the link, as it should; a one-sided reset
    // loses flits and is left to show as data.lost.
    if (o.reset_tx && o.reset_rx) {
        expected_.clear();
        last_in_link_after_ = 0;
    }
}

bool DataIntegrityScoreboard::recently_delivered(uint32_t payload) const {
    const uint64_t count = std::min<uint64_t>(recent_next_, kRecent);
    for (uint64_t i = 0; i < count; ++i)
        if (recent_[i] == payload) return true;
    return false;
}

void DataIntegrityScoreboard::mismatch(const Observation& o, uint32_t got) {
    const size_t due = expected_.size();
    const std::string expected = due ? hex32(expected_.front()) : "no flit (none outstanding)";
    size_t index = 1;
    while (index < due && expected_[index] != got) ++index;

    if (index < due) {
        // Flits missing from the link (expected but not there) at the start of this cycle.
        const uint64_t in_link = static_cast<uint64_t>(o.fwd_flits) + o.occupancy;
        const uint64_t missing = due > in_link ? due - in_link : 0;
        if (missing >= index) {
            const std::string first_lost = hex32(expected_.front());
            for (size_t i = 0; i < index; ++i) expected_.pop_front();
            expected_.pop_front();
            lost_ += index;
            record({o.cycle, "data.lost", signal_name(Signal::pop_payload), expected, hex32(got),
                    counted(index, "flit") + " lost: " + first_lost +
                        (index == 1 ? std::string(" was skipped and is")
                                    : " and the " + counted(index - 1, "flit") +
                                          " sent after it were skipped and are") +
                        " no longer in the link"});
        } else {
            expected_.erase(index);
            record({o.cycle, "data.order", signal_name(Signal::pop_payload), expected, hex32(got),
                    hex32(got) + " overtook " + counted(index, "flit") +
                        " sent before it and still in the link"});
        }
        remember(got);
        ++delivered_;
        return;
    }

    if (recently_delivered(got)) {
        record({o.cycle, "data.duplicate", signal_name(Signal::pop_payload), expected, hex32(got),
                hex32(got) + " was already delivered: a second copy"});
        return;
    }

    const uint64_t in_link = static_cast<uint64_t>(o.fwd_flits) + o.occupancy;
    if (due > 0 && in_link <= due) {
        const uint32_t want = expected_.front();
        expected_.pop_front();
        ++delivered_;
        record({o.cycle, "data.corrupt", signal_name(Signal::pop_payload), expected, hex32(got),
                hex32(want) + " arrived altered: bits " + hex32(want ^ got) + " differ"});
    } else {
        record({o.cycle, "data.corrupt", signal_name(Signal::pop_payload), expected, hex32(got),
                hex32(got) + " was never sent: a spurious flit"});
    }
}

void DataIntegrityScoreboard::backlog_overflow(const Observation& o) {
    const uint32_t oldest = expected_.front();
    expected_.pop_front();
    ++lost_;
    if (backlog_reported_) return;
    backlog_reported_ = true;
    record({o.cycle, "data.lost", signal_name(Signal::pop_payload), hex32(oldest), "nothing",
            "more than " + with_thousands(kMaxOutstanding) +
                " flits sent and never delivered; the oldest are dropped from now on"});
}

void DataIntegrityScoreboard::finish() {
    if (finished_ || !seen_any_) return;
    finished_ = true;
    const uint64_t due = expected_.size();
    if (due > last_in_link_after_) {
        const uint64_t missing = due - last_in_link_after_;
        lost_ += missing;
        record({last_cycle_, "data.lost", signal_name(Signal::pop_payload),
                counted(due, "flit") + " still in the link", counted(last_in_link_after_, "flit"),
                counted(missing, "flit") + " sent and never delivered, and no longer in the link"});
    } else if (due < last_in_link_after_) {
        record({last_cycle_, "data.duplicate", signal_name(Signal::pop_payload),
                counted(due, "flit") + " still in the link", counted(last_in_link_after_, "flit"),
                "the link holds " + counted(last_in_link_after_ - due, "flit") +
                    " more than were sent and not yet delivered"});
    }
}

}  // namespace creditloop
