#include "payload_ledger.h"

#include <algorithm>

namespace creditloop {

bool PayloadLedger::recently_delivered(uint32_t payload) const {
    const uint64_t count = std::min<uint64_t>(recent_next_, kRecent);
    for (uint64_t i = 0; i < count; ++i)
        if (recent_[i] == payload) return true;
    return false;
}

std::optional<Violation> PayloadLedger::mismatch(uint64_t cycle, const std::string& signal, uint32_t got,
                                                 uint64_t in_link) {
    const size_t due = expected_.size();
    const std::string expected = due ? hex32(expected_.front()) : "no flit (none outstanding)";
    size_t index = 1;
    while (index < due && expected_[index] != got) ++index;

    if (index < due) {
        remember(got);
        ++delivered_;
        // Flits missing from the link (expected but not there) at the start of this cycle.
        const uint64_t missing = due > in_link ? due - in_link : 0;
        if (missing >= index) {
            const std::string first_lost = hex32(expected_.front());
            for (size_t i = 0; i < index; ++i) expected_.pop_front();
            expected_.pop_front();
            lost_ += index;
            return Violation{cycle, "data.lost", signal, expected, hex32(got),
                             counted(index, "flit") + " lost: " + first_lost +
                                 (index == 1 ? std::string(" was skipped and is")
                                             : " and the " + counted(index - 1, "flit") +
                                                   " sent after it were skipped and are") +
                                 " no longer in the link"};
        }
        expected_.erase(index);
        return Violation{cycle, "data.order", signal, expected, hex32(got),
                         hex32(got) + " overtook " + counted(index, "flit") + " sent before it and still in the link"};
    }
    if (recently_delivered(got))
        return Violation{cycle, "data.duplicate", signal, expected, hex32(got),
                         hex32(got) + " was already delivered: a second copy"};
    if (due > 0 && in_link <= due) {
        const uint32_t want = expected_.front();
        expected_.pop_front();
        ++delivered_;
        return Violation{cycle, "data.corrupt", signal, expected, hex32(got),
                         hex32(want) + " arrived altered: bits " + hex32(want ^ got) + " differ"};
    }
    return Violation{cycle, "data.corrupt", signal, expected, hex32(got), hex32(got) + " was never sent: a spurious flit"};
}

std::optional<Violation> PayloadLedger::backlog_overflow(uint64_t cycle, const std::string& signal) {
    const uint32_t oldest = expected_.front();
    expected_.pop_front();
    ++lost_;
    if (backlog_reported_) return std::nullopt;
    backlog_reported_ = true;
    return Violation{cycle, "data.lost", signal, hex32(oldest), "nothing",
                     "more than " + with_thousands(kMaxOutstanding) +
                         " flits sent and never delivered; the oldest are dropped from now on"};
}

std::optional<Violation> PayloadLedger::finish(uint64_t cycle, const std::string& signal, uint64_t in_link_after) {
    const uint64_t due = expected_.size();
    if (due > in_link_after) {
        const uint64_t missing = due - in_link_after;
        lost_ += missing;
        return Violation{cycle, "data.lost", signal, counted(due, "flit") + " still in the link",
                         counted(in_link_after, "flit"),
                         counted(missing, "flit") + " sent and never delivered, and no longer in the link"};
    }
    if (due < in_link_after)
        return Violation{cycle, "data.duplicate", signal, counted(due, "flit") + " still in the link",
                         counted(in_link_after, "flit"),
                         "the link holds " + counted(in_link_after - due, "flit") +
                             " more than were sent and not yet delivered"};
    return std::nullopt;
}

}  // namespace creditloop
