// The payloads sent to one lane and not yet delivered, oldest first, and what a pop that is not
// the oldest means: the data check of the single link's one lane and of every lane of many
// (data_integrity.h names the classes). Each call returns the violation it finds, if any, for the
// caller to record; `signal` is the lane's pop_payload, `in_link` the lane's flits in the link
// (forward path and buffer) at the start of the cycle.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "ring_queue.h"
#include "scoreboard.h"

namespace creditloop {

class PayloadLedger {
public:
    explicit PayloadLedger(uint32_t mask = 0xFFFFFFFFu) : mask_(mask) {}

    // A pop of `payload` (pops come before the cycle's send: a flit sent in cycle t reaches the
    // buffer L >= 1 cycles later).
    std::optional<Violation> pop(uint64_t cycle, const std::string& signal, uint32_t payload, uint64_t in_link) {
        const uint32_t got = payload & mask_;
        if (!expected_.empty() && expected_.front() == got) {
            expected_.pop_front();
            remember(got);
            ++delivered_;
            return std::nullopt;
        }
        return mismatch(cycle, signal, got, in_link);
    }
    // A send of `payload`; a violation only when more flits are outstanding than a link can hold.
    std::optional<Violation> send(uint64_t cycle, const std::string& signal, uint32_t payload) {
        expected_.push_back(payload & mask_);
        ++sent_;
        return expected_.size() > kMaxOutstanding ? backlog_overflow(cycle, signal) : std::nullopt;
    }
    // A reset of both ends discards every flit in the link, as it should.
    void clear() { expected_.clear(); }
    // After the last cycle: the flits still expected must be the `in_link_after` still in the link.
    std::optional<Violation> finish(uint64_t cycle, const std::string& signal, uint64_t in_link_after);

    uint64_t flits_sent() const { return sent_; }
    uint64_t flits_delivered() const { return delivered_; }   // popped and matched, in or out of order
    uint64_t flits_lost() const { return lost_; }             // counted by data.lost records
    size_t flits_outstanding() const { return expected_.size(); }

    // More sent-and-undelivered flits than any legal link can hold (B <= 4096, L <= 1024): past
    // this the oldest are dropped, so a link that never delivers cannot exhaust memory.
    static constexpr size_t kMaxOutstanding = size_t{1} << 16;

private:
    static constexpr size_t kRecent = 64;   // delivered payloads remembered to spot duplicates

    std::optional<Violation> mismatch(uint64_t cycle, const std::string& signal, uint32_t got, uint64_t in_link);
    std::optional<Violation> backlog_overflow(uint64_t cycle, const std::string& signal);
    void remember(uint32_t payload) { recent_[recent_next_++ % kRecent] = payload; }
    bool recently_delivered(uint32_t payload) const;

    uint32_t mask_;
    RingQueue<uint32_t> expected_;
    std::array<uint32_t, kRecent> recent_{};
    uint64_t recent_next_ = 0;
    uint64_t sent_ = 0;
    uint64_t delivered_ = 0;
    uint64_t lost_ = 0;
    bool backlog_reported_ = false;
};

}  // namespace creditloop
