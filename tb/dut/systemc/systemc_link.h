// The verilated credit_link as a SystemC module (verilator --sc), behind the same LinkDut
// interface as the C++ plugin, so run_link() drives it with the same stimulus, golden model and
// scoreboards and the verdicts cannot drift apart.
//
// Time: an sc_clock of 10 ns with its rising edge at 10t + 5 ns. Cycle t runs from 10t to
// 10t + 10: a clocked process (ScCycleDriver's SC_THREAD, sc_harness.h) drives the cycle's inputs at 10t,
// samples the settled observation ports at the rising edge (reading a signal in the evaluation
// phase of the edge gives the value before the edge's update, so the sample is the cycle's), and
// pulses the reset of either end at 10t + 7, after the edge, as the C++ harness does.
//
// A virtual platform instantiates the checked link the same way: bind a Vcredit_link to an
// sc_clock and one sc_signal per port (LinkSignals below, derived from the lists of ports), and
// let ScCycleDriver (sc_harness.h) or its own initiators drive the inputs.
#pragma once

#include <systemc.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "Vcredit_link.h"
#include "link_dut.h"
#include "sc_harness.h"

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

    // The cycle's inputs, written at 10t (the clocked driver, sc_harness.h).
    void drive(const LinkInputs& in) {
        want_send.write(in.want_send);
        tx_payload.write(in.payload);
        drain.write(in.drain);
        flush.write(in.flush);
        return_busy.write(in.return_busy);
        fault_drop.write(in.fault_drop);
        fault_add.write(in.fault_add);
    }

    // The cycle's observation, read at the rising edge.
    void observe(const LinkInputs& in, Observation& o) const {
        echo_inputs(in, o);
#define CREDITLOOP_RTL_OUTPUT(field, leaf, type, group, width, waves, term) o.field = this->field.read();
#include "observed_signals.def"
    }
};

// The LinkDut over SystemC time (sc_harness.h); one per process (SystemC elaborates once).
class SystemCLink final : public ScHarness<LinkDut, Vcredit_link, LinkSignals, LinkInputs, Observation> {
public:
    SystemCLink() : ScHarness("link") {}
};

}  // namespace creditloop
