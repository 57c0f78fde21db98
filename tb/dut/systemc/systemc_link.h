// The verilated credit_link as a SystemC module (verilator --sc), behind the same LinkDut
// interface as the C++ plugin, so run_link() drives it with the same stimulus, golden model and
// scoreboards and the verdicts cannot drift apart.
//
// Time: an sc_clock of 10 ns with its rising edge at 10t + 5 ns. Cycle t runs from 10t to
// 10t + 10: a clocked process (CycleDriver's SC_THREAD) drives the cycle's inputs at 10t,
// samples the settled observation ports at the rising edge (reading a signal in the evaluation
// phase of the edge gives the value before the edge's update, so the sample is the cycle's), and
// pulses the reset of either end at 10t + 7, after the edge, as the C++ harness does.
//
// A virtual platform instantiates the checked link the same way: bind a Vcredit_link to an
// sc_clock and one sc_signal per port (LinkSignals below), and let CycleDriver or its own
// initiators drive the inputs.
#pragma once

#include <systemc.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "Vcredit_link.h"
#include "link_dut.h"

namespace creditloop {

// One signal per port of credit_link (W <= 32: Verilator maps 2..32-bit ports to uint32_t).
struct LinkSignals {
    sc_signal<bool> rst_tx_n{"rst_tx_n"}, rst_rx_n{"rst_rx_n"};
    sc_signal<bool> want_send{"want_send"}, drain{"drain"}, flush{"flush"}, return_busy{"return_busy"};
    sc_signal<uint32_t> tx_payload{"tx_payload"};
    sc_signal<uint32_t> credits{"credits"}, send_payload{"send_payload"}, credits_arriving{"credits_arriving"};
    sc_signal<bool> can_send{"can_send"}, send{"send"};
    sc_signal<uint32_t> fwd_flits{"fwd_flits"};
    sc_signal<bool> arrive{"arrive"};
    sc_signal<uint32_t> occupancy{"occupancy"}, pop_payload{"pop_payload"}, slots_freeing{"slots_freeing"};
    sc_signal<bool> pop{"pop"}, overflow{"overflow"};
    sc_signal<uint32_t> pending_returns{"pending_returns"}, return_waiting{"return_waiting"};
    sc_signal<bool> policy_flush{"policy_flush"};
    sc_signal<uint32_t> credits_returned{"credits_returned"}, return_flight{"return_flight"};
    sc_signal<uint32_t> credit_total{"credit_total"};

    void bind(Vcredit_link& link, sc_clock& clk) {
        link.clk(clk);
        link.rst_tx_n(rst_tx_n);
        link.rst_rx_n(rst_rx_n);
        link.want_send(want_send);
        link.tx_payload(tx_payload);
        link.drain(drain);
        link.flush(flush);
        link.return_busy(return_busy);
        link.credits(credits);
        link.can_send(can_send);
        link.send(send);
        link.send_payload(send_payload);
        link.credits_arriving(credits_arriving);
        link.fwd_flits(fwd_flits);
        link.arrive(arrive);
        link.occupancy(occupancy);
        link.pop(pop);
        link.pop_payload(pop_payload);
        link.overflow(overflow);
        link.slots_freeing(slots_freeing);
        link.pending_returns(pending_returns);
        link.policy_flush(policy_flush);
        link.return_waiting(return_waiting);
        link.credits_returned(credits_returned);
        link.return_flight(return_flight);
        link.credit_total(credit_total);
    }
};

// The clocked process: one cycle per start event.
SC_MODULE(CycleDriver) {
    sc_in<bool> clk;
    LinkSignals* s = nullptr;
    LinkInputs inputs;          // this cycle's, set before start
    Observation* sample = nullptr;
    sc_event start;

    SC_CTOR(CycleDriver) {
        SC_THREAD(run);
    }

    void run() {
        for (;;) {
            wait(start);
            s->want_send.write(inputs.want_send);
            s->tx_payload.write(inputs.payload);
            s->drain.write(inputs.drain);
            s->flush.write(inputs.flush);
            s->return_busy.write(inputs.return_busy);
            wait(clk.posedge_event());
            observe(*sample);
            if (inputs.reset_tx || inputs.reset_rx) {
                wait(2, SC_NS);
                s->rst_tx_n.write(!inputs.reset_tx);
                s->rst_rx_n.write(!inputs.reset_rx);
                wait(1, SC_NS);
                s->rst_tx_n.write(true);
                s->rst_rx_n.write(true);
            }
        }
    }

    void observe(Observation& o) const {
        o.want_send = inputs.want_send;
        o.drain = inputs.drain;
        o.flush = inputs.flush;
        o.return_busy = inputs.return_busy;
        o.reset_tx = inputs.reset_tx;
        o.reset_rx = inputs.reset_rx;
        o.credits = s->credits.read();
        o.can_send = s->can_send.read();
        o.send = s->send.read();
        o.send_payload = s->send_payload.read();
        o.credits_arriving = s->credits_arriving.read();
        o.fwd_flits = s->fwd_flits.read();
        o.arrive = s->arrive.read();
        o.occupancy = s->occupancy.read();
        o.pop = s->pop.read();
        o.pop_payload = s->pop_payload.read();
        o.overflow = s->overflow.read();
        o.slots_freeing = s->slots_freeing.read();
        o.pending_returns = s->pending_returns.read();
        o.policy_flush = s->policy_flush.read();
        o.return_waiting = s->return_waiting.read();
        o.credits_returned = s->credits_returned.read();
        o.return_flight = s->return_flight.read();
        o.credit_total = s->credit_total.read();
    }
};

// The LinkDut over SystemC time: each step() is sc_start() of one 10 ns clock period. SystemC
// elaborates once per process, so there is one SystemCLink per process.
class SystemCLink final : public LinkDut {
public:
    SystemCLink()
        : clk_("clk", 10, SC_NS, 0.5, 5, SC_NS, true), link_("link"), driver_("driver") {
        signals_.bind(link_, clk_);
        driver_.clk(clk_);
        driver_.s = &signals_;
    }

    void reset() override {
        // Both ends held in reset across the first two rising edges (5 and 15 ns), released at 20.
        signals_.rst_tx_n.write(false);
        signals_.rst_rx_n.write(false);
        sc_start(20, SC_NS);
        signals_.rst_tx_n.write(true);
        signals_.rst_rx_n.write(true);
    }

    void step(const LinkInputs& in, Observation& out) override {
        driver_.inputs = in;
        driver_.sample = &out;
        driver_.start.notify(SC_ZERO_TIME);
        sc_start(10, SC_NS);
        VerilatedContext* context = Verilated::defaultContextp();
        if (!first_assertion_ && context->gotError()) {
            first_assertion_ = cycle_;
            context->assertOn(false);   // the first failure is the one that matters
        }
        ++cycle_;
    }

    std::string open_trace(const std::string&) override {
        return "the SystemC harness writes no waves: rerun the failing command without --systemc for them";
    }
    void close_trace() override {}
    std::optional<uint64_t> first_assertion_cycle() const override { return first_assertion_; }

private:
    sc_clock clk_;
    LinkSignals signals_;
    Vcredit_link link_;
    CycleDriver driver_;
    uint64_t cycle_ = 0;
    std::optional<uint64_t> first_assertion_;
};

}  // namespace creditloop
