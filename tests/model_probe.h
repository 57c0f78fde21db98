// Test-only fault injection into the reference link model. ReferenceLinkModel names `struct ModelProbe` its
// friend; through it the faults below alter the model's state around the clock edge the way a
// real RTL bug would, so each scoreboard check can be shown to fire on a plausible defect.
//
// A cycle of a faulty link (see run_cycle in the tests):
//   after_reset()   once, before cycle 0
//   evaluate(in) -> after_evaluate(): may change this cycle's events (what the RTL would show)
//   scoreboards see the observation
//   update()     -> after_update():   may change the state the edge committed
#pragma once

#include <cstdint>
#include <utility>

#include "reference_link_model.h"

namespace creditloop {

struct ModelProbe {
    // This cycle's events, between evaluate() and update(); update() commits from them.
    static Observation& events(ReferenceLinkModel& m) { return m.obs_; }
    static uint32_t& credits(ReferenceLinkModel& m) { return m.credits_; }
    static uint32_t& pending_returns(ReferenceLinkModel& m) { return m.pending_; }
    static uint32_t& return_waiting(ReferenceLinkModel& m) { return m.waiting_; }
    static uint32_t& occupancy(ReferenceLinkModel& m) { return m.occupancy_; }
    // Receiver slot `i` places behind the head (0 = the flit popped next).
    static uint32_t& buffer_slot(ReferenceLinkModel& m, uint32_t i) {
        return m.slots_[(m.rx_head_ + i) % m.slots_.size()];
    }
    // Undo the read pointer's last step: the head flit is read again.
    static void rewind_read_pointer(ReferenceLinkModel& m) {
        m.rx_head_ = m.rx_head_ == 0 ? static_cast<uint32_t>(m.slots_.size()) - 1 : m.rx_head_ - 1;
    }
};

// The faults live in their own namespace so no other test's helper can collide with them.
namespace faults {

class Fault {
public:
    virtual ~Fault() = default;
    virtual void after_reset(ReferenceLinkModel&) {}
    virtual void after_evaluate(ReferenceLinkModel&, const LinkInputs&) {}
    virtual void after_update(ReferenceLinkModel&) {}
};

class NoFault : public Fault {};

// Seed 004's counter, `if (send) credits--; else if (crd_in) credits += crd_in;`: in a cycle
// that both sends and receives, the arriving credits are dropped.
class LeakOnSendAndReturn : public Fault {
public:
    void after_update(ReferenceLinkModel& m) override {
        const Observation& o = ModelProbe::events(m);
        if (o.send && o.credits_arriving > 0) ModelProbe::credits(m) -= o.credits_arriving;
    }
};

// An over-corrected leak fix: a return that coincides with a send is counted twice.
class DoubleCountOnSendAndReturn : public Fault {
public:
    void after_update(ReferenceLinkModel& m) override {
        const Observation& o = ModelProbe::events(m);
        if (o.send && o.credits_arriving > 0) ModelProbe::credits(m) += o.credits_arriving;
    }
};

// The hand-off from the last forward stage into the buffer loses the flit when the buffer pops
// in the same cycle (a FIFO whose push is ignored during a pop). The flit's credit goes with it.
class FlitLostOnPushDuringPop : public Fault {
public:
    void after_update(ReferenceLinkModel& m) override {
        const Observation& o = ModelProbe::events(m);
        if (o.arrive && o.pop && !o.overflow) --ModelProbe::occupancy(m);   // the newest slot
    }
};

// A mis-decoded write address swaps the two oldest buffered flits, once.
class SwapOldestSlotsOnce : public Fault {
public:
    void after_update(ReferenceLinkModel& m) override {
        if (done_ || ModelProbe::occupancy(m) < 2) return;
        done_ = true;
        std::swap(ModelProbe::buffer_slot(m, 0), ModelProbe::buffer_slot(m, 1));
    }

private:
    bool done_ = false;
};

// The read pointer does not advance when a push and a pop coincide, while the occupancy count
// is right: the head flit is delivered twice and the newest is overwritten by the next push.
class ReadPointerStuckOnPushDuringPop : public Fault {
public:
    void after_update(ReferenceLinkModel& m) override {
        const Observation& o = ModelProbe::events(m);
        if (o.arrive && o.pop && !o.overflow) ModelProbe::rewind_read_pointer(m);
    }
};

// A bit flips in the head slot of the buffer after the edge ending cycle `cycle` (an upset).
class FlipHeadBit : public Fault {
public:
    FlipHeadBit(uint64_t cycle, uint32_t bit_mask) : cycle_(cycle), bit_mask_(bit_mask) {}
    void after_update(ReferenceLinkModel& m) override {
        if (ModelProbe::events(m).cycle == cycle_ && ModelProbe::occupancy(m) > 0)
            ModelProbe::buffer_slot(m, 0) ^= bit_mask_;
    }

private:
    uint64_t cycle_;
    uint32_t bit_mask_;
};

// The sender gates send with a registered can_send, one cycle stale: in the cycle after it
// spends its last credit it sends again, and its counter wraps below zero.
class StaleCanSend : public Fault {
public:
    void after_evaluate(ReferenceLinkModel& m, const LinkInputs& in) override {
        Observation& o = ModelProbe::events(m);
        if (in.want_send && !o.send && can_send_registered_) {
            o.send = true;
            o.send_payload = in.payload;
        }
        can_send_registered_ = o.credits != 0;
    }

private:
    bool can_send_registered_ = true;   // reset: credits = B > 0
};

// Batches of one only: the return logic returns a credit on the consumer's drain request even
// when the buffer is empty and nothing was popped.
class ReturnOnDrainRequest : public Fault {
public:
    void after_evaluate(ReferenceLinkModel& m, const LinkInputs& in) override {
        Observation& o = ModelProbe::events(m);
        extra_ = (in.drain && !o.pop) ? 1u : 0u;
        o.credits_returned += extra_;
    }
    // The model's return port would count the extra return as sent from nothing and go below
    // zero; the buggy logic has no count to take it from, so the port stays empty.
    void after_update(ReferenceLinkModel& m) override { ModelProbe::return_waiting(m) += extra_; }

private:
    uint32_t extra_ = 0;
};

// The sender's reset value disagrees with the receiver's depth: it starts with `credits`.
class WrongResetCredits : public Fault {
public:
    explicit WrongResetCredits(uint32_t credits) : credits_(credits) {}
    void after_reset(ReferenceLinkModel& m) override { ModelProbe::credits(m) = credits_; }

private:
    uint32_t credits_;
};

}  // namespace faults
}  // namespace creditloop
