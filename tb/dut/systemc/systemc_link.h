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
// sc_clock and one sc_signal per port (LinkSignals below, derived from the lists of ports), and
// let CycleDriver or its own initiators drive the inputs.
#pragma once

#include <systemc.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "Vcredit_link.h"
#include "link_dut.h"

namespace creditloop {

// The SystemC type Verilator gives a port of this width (W <= 32): bool for 1 bit, uint32_t for
// 2..32 bits.
template <WidthRule width>
struct ScPort {
    using type = uint32_t;
};
template <>
struct ScPort<WidthRule::one_bit> {
    using type = bool;
};

// One signal per port of credit_link but the clock: the drive side (driven_ports.def) and the
// RTL outputs among the observed signals (observed_signals.def).
struct LinkSignals {
#define CREDITLOOP_RESET(port) sc_signal<bool> port{#port};
#define CREDITLOOP_STIMULUS(port, width) sc_signal<ScPort<WidthRule::width>::type> port{#port};
#include "driven_ports.def"
#define CREDITLOOP_RTL_OUTPUT(field, leaf, cpp_type, group, width, waves, term) \
    sc_signal<ScPort<WidthRule::width>::type> field{#field};
#include "observed_signals.def"

    void bind(Vcredit_link& link, sc_clock& clock) {
#define CREDITLOOP_CLOCK(port) link.port(clock);
#define CREDITLOOP_RESET(port) link.port(port);
#define CREDITLOOP_STIMULUS(port, width) link.port(port);
#include "driven_ports.def"
#define CREDITLOOP_RTL_OUTPUT(field, leaf, type, group, width, waves, term) link.field(field);
#include "observed_signals.def"
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
            s->fault_drop.write(inputs.fault_drop);
            s->fault_add.write(inputs.fault_add);
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
        echo_inputs(inputs, o);
#define CREDITLOOP_RTL_OUTPUT(field, leaf, type, group, width, waves, term) o.field = s->field.read();
#include "observed_signals.def"
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
    std::string close_trace() override { return {}; }
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
