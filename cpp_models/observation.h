// What one cycle of a credit link looks like from outside: one plain struct per cycle, filled
// from the RTL's observation ports or by the golden model, and the only thing a scoreboard sees.
//
// Counts are the state at the start of the cycle (after the previous rising edge); the event
// fields are what happens during the cycle (before the next edge). With this convention the
// conservation identity holds for every cycle:
//   credits + fwd_flits + occupancy + slots_freeing + pending_returns + return_waiting +
//   return_flight == B.
#pragma once

#include <cstdint>

namespace creditloop {

struct Observation {
    uint64_t cycle = 0;               // 0 = the first cycle after reset is released

    // the environment's inputs this cycle, echoed so a scoreboard knows what was offered
    bool want_send = false;           // the source offered a flit
    bool drain = false;               // the consumer was ready to take one
    bool flush = false;               // the return logic was told to flush
    bool return_busy = false;         // reverse traffic held the shared return slot
    bool reset_tx = false;            // the sender end is reset at the edge that ends this cycle
    bool reset_rx = false;            // the receiver end likewise

    // link.sender
    uint32_t credits = 0;             // credits the sender holds
    bool can_send = false;            // credits != 0
    bool send = false;                // a flit leaves the sender this cycle (spends a credit)
    uint32_t send_payload = 0;        // its payload (0 when !send)
    uint32_t credits_arriving = 0;    // credits reaching the sender this cycle

    // link.fwd
    uint32_t fwd_flits = 0;           // flits on the forward path
    bool arrive = false;              // a flit reaches the receiver this cycle

    // link.rx
    uint32_t occupancy = 0;           // flits held in the receiver buffer
    bool pop = false;                 // the consumer takes the head flit this cycle
    uint32_t pop_payload = 0;         // its payload (0 when !pop)
    bool overflow = false;            // a flit arrived with every slot full and was dropped
    uint32_t slots_freeing = 0;       // slots whose flit has left but that are not freed yet

    // link.ret
    uint32_t pending_returns = 0;     // credits freed, waiting for their batch
    bool policy_flush = false;        // the batch is flushed this cycle (flush input or the policy)
    uint32_t return_waiting = 0;      // credits released, waiting for a free return slot
    uint32_t credits_returned = 0;    // credits put on the return path this cycle
    uint32_t return_flight = 0;       // credits on the return path

    // the loop, as the RTL adds it up for waves (scoreboards add the terms themselves)
    uint32_t credit_total = 0;
};

// The observed signals by name, in loop order, for reports and lockstep comparison.
enum class Signal : uint8_t {
    want_send, drain, flush, return_busy, reset_tx, reset_rx,
    credits, can_send, send, send_payload, credits_arriving,
    fwd_flits, arrive,
    occupancy, pop, pop_payload, overflow, slots_freeing,
    pending_returns, policy_flush, return_waiting, credits_returned, return_flight,
    credit_total,
};
constexpr int kSignalCount = 24;

const char* signal_name(Signal signal);
uint64_t signal_value(const Observation& obs, Signal signal);

}  // namespace creditloop
