#include "sizing.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "closed_forms.h"

namespace creditloop {

SizingScoreboard::SizingScoreboard(const SizingSpec& spec)
    : spec_(spec),
      round_trip_(round_trip_cycles(spec.config)),
      buffer_slots_(static_cast<uint64_t>(spec.config.buffer_slots)),
      recent_sends_(static_cast<size_t>(round_trip_), 0) {}

void SizingScoreboard::step(const Observation& o) {
    count_cycle();
    last_cycle_ = o.cycle;
    const uint8_t send = o.send ? 1 : 0;
    // After a fault the environment injected into the return path, credits no longer match sends
    // one for one: the loop's timing checks stand aside (conservation names the fault).
    faulted_ = faulted_ || o.fault_drop || o.fault_add != 0;

    sends_in_round_trip_ += send;
    sends_in_round_trip_ -= recent_sends_[recent_index_];
    recent_sends_[recent_index_] = send;
    if (++recent_index_ == recent_sends_.size()) recent_index_ = 0;
    const bool over_rate = sends_in_round_trip_ > buffer_slots_;
    if (over_rate && !over_rate_ && !faulted_) rate_bound_exceeded(o);
    over_rate_ = over_rate;

    // Credits arriving now were spent in earlier cycles, so they leave before this send joins.
    if (o.credits_arriving != 0) credits_arrived(o);
    if (send) {
        send_cycles_.push_back(o.cycle);
        if (send_cycles_.size() > kMaxOutstanding) send_cycles_.pop_front();
    }

    if (o.cycle >= window_start() && o.cycle < spec_.total_cycles) {
        ++window_cycles_;
        window_sends_ += send;
        window_messages_ += o.credits_returned != 0 ? 1u : 0u;
        if (spec_.declared_full_rate && o.want_send && !o.can_send && !first_stall_)
            first_stall_ = o.cycle;
    }
    // A reset of the sender starts the loop again: its B fresh credits start a new rate window,
    // and the flits it had sent are gone. A reset of the receiver alone loses the credits it held
    // (the oldest sends') while the flits still on the forward path come back as usual.
    if (o.reset_tx) {
        send_cycles_.clear();
        std::fill(recent_sends_.begin(), recent_sends_.end(), uint8_t{0});
        sends_in_round_trip_ = 0;
        over_rate_ = false;
    } else if (o.reset_rx) {
        const uint64_t still_forward = static_cast<uint64_t>(o.fwd_flits) + send - (o.arrive ? 1u : 0u);
        while (send_cycles_.size() > still_forward) send_cycles_.pop_front();
    }
}

void SizingScoreboard::add_window_sample(uint64_t sample) {
    window_round_trip_sum_ += sample;
    ++window_round_trip_samples_;
}

double SizingScoreboard::mean_round_trip() const {
    return window_round_trip_samples_
               ? static_cast<double>(window_round_trip_sum_) / static_cast<double>(window_round_trip_samples_)
               : 0.0;
}

double SizingScoreboard::messages_per_flit() const {
    return window_sends_ ? static_cast<double>(window_messages_) / static_cast<double>(window_sends_) : 0.0;
}

void SizingScoreboard::credits_arrived(const Observation& o) {
    // More credits than sends waiting: created credits, which conservation reports; the samples
    // here stay with the sends there were.
    if (send_cycles_.empty()) return;
    uint64_t arriving = o.credits_arriving;
    // The cycle the arriving credits can be spent: the next, or this one when usable on arrival.
    const uint64_t usable = o.cycle + (spec_.config.credits_on_arrival ? 0u : 1u);
    const bool in_window = o.cycle >= window_start() && o.cycle < spec_.total_cycles;
    while (arriving > 1 && send_cycles_.size() > 1) {
        if (in_window) add_window_sample(usable - send_cycles_.front());
        send_cycles_.pop_front();
        --arriving;
    }
    const uint64_t send_cycle = send_cycles_.front();
    if (in_window) add_window_sample(usable - send_cycle);
    send_cycles_.pop_front();
    const uint64_t sample = usable - send_cycle;
    if (!shortest_ || sample < *shortest_) {
        shortest_ = sample;
        shortest_cycle_ = o.cycle;
    }
    if (sample < static_cast<uint64_t>(round_trip_) && !faulted_ &&
        (!shortest_recorded_ || sample < *shortest_recorded_))
        round_trip_shorter(o, sample, send_cycle);
}

std::string SizingScoreboard::round_trip_text() const {
    const LinkConfig& c = spec_.config;
    std::string values = "L = " + std::to_string(c.stages);
    if (c.sync_stages) values += ", SYNC = " + std::to_string(c.sync_stages);
    if (c.free_delay) values += ", FREE_DELAY = " + std::to_string(c.free_delay);
    return counted(static_cast<uint64_t>(round_trip_), "cycle") + " (" + round_trip_form(c) + ", " + values + ")";
}

void SizingScoreboard::round_trip_shorter(const Observation& o, uint64_t sample,
                                          uint64_t send_cycle) {
    shortest_recorded_ = sample;
    record({o.cycle, "sizing.round_trip", signal_name(Signal::credits_arriving), round_trip_text(),
            counted(sample, "cycle"),
            "a credit spent in cycle " + std::to_string(send_cycle) +
                " can be spent again in cycle " + std::to_string(send_cycle + sample) +
                ": the loop is shorter than its stages allow, so credits appeared or L is wrong"});
}

void SizingScoreboard::rate_bound_exceeded(const Observation& o) {
    const uint64_t first = o.cycle + 1 >= recent_sends_.size() ? o.cycle + 1 - recent_sends_.size() : 0;
    record({o.cycle, "sizing.rate_bound", signal_name(Signal::send),
            "<= " + std::to_string(buffer_slots_) + " sends in " + round_trip_text(),
            std::to_string(sends_in_round_trip_),
            std::to_string(sends_in_round_trip_) + " sends in cycles " + std::to_string(first) + ".." +
                std::to_string(o.cycle) + ": each of B = " + std::to_string(buffer_slots_) +
                " credits is spent at most once per round trip, so credits were created"});
}

double SizingScoreboard::measured_throughput() const {
    return window_cycles_ ? static_cast<double>(window_sends_) / static_cast<double>(window_cycles_)
                          : 0.0;
}

double SizingScoreboard::predicted_throughput() const {
    const int round_trip = shortest_ ? static_cast<int>(*shortest_) : round_trip_;
    return batched_throughput_estimate(spec_.config.buffer_slots, round_trip, spec_.config.batch);
}

void SizingScoreboard::finish() {
    if (finished_) return;
    finished_ = true;

    if (spec_.drain_every_cycle && !faulted_ && shortest_ && *shortest_ > static_cast<uint64_t>(round_trip_)) {
        record({shortest_cycle_, "sizing.round_trip", signal_name(Signal::credits_arriving),
                round_trip_text(), counted(*shortest_, "cycle"),
                "with the consumer draining every cycle no credit came back faster than " +
                    counted(*shortest_, "cycle") + ": the loop has " +
                    std::to_string(*shortest_ - static_cast<uint64_t>(round_trip_)) +
                    " more cycles than its L stages account for"});
    }
    if (!spec_.declared_full_rate) return;

    const uint64_t round_trip = shortest_.value_or(static_cast<uint64_t>(round_trip_));
    const uint64_t batch = static_cast<uint64_t>(spec_.config.batch);
    const uint64_t needed = round_trip + batch - 1;
    if (buffer_slots_ < needed) {
        record({shortest_ ? shortest_cycle_ : last_cycle_, "sizing.buffer", "link.rx.buffer_slots",
                "B >= " + std::to_string(needed), "B = " + std::to_string(buffer_slots_),
                std::string("declared full rate, but the ") +
                    (shortest_ ? "measured" : "closed-form") + " credit round trip is " +
                    counted(round_trip, "cycle") + ": full rate needs B >= RTT + K - 1 = " +
                    std::to_string(needed) + "; B = " + std::to_string(buffer_slots_) +
                    " allows at most " + std::to_string(buffer_slots_) + "/" + std::to_string(needed) +
                    " = " + three_decimals(predicted_throughput())});
    }
    if (first_stall_) {
        record({*first_stall_, "sizing.throughput", signal_name(Signal::can_send), "1 (declared full rate)",
                "0",
                "the sender ran out of credits with the source offering; steady-state throughput "
                "measured " + three_decimals(measured_throughput()) + " vs 1.000 (" +
                    with_thousands(window_sends_) + " sends in " + counted(window_cycles_, "cycle") + ")"});
    }
}

}  // namespace creditloop
