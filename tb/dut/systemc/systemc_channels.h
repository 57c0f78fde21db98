// The verilated multi-channel link (a channel bank of one configuration, instance c0, verilated
// with --sc) as a SystemC module behind the ChannelDut interface, so run_channels() drives it
// with the same stimulus, golden model and scoreboards as the C++ harness.
//
// Time as in systemc_link.h (sc_harness.h): an sc_clock of 10 ns with its rising edge at 10t + 5
// ns. Cycle t's inputs are written at 10t by a clocked SC_THREAD, which samples the observed ports
// in the evaluation phase of the edge (their values before the edge, the cycle's).
#pragma once

#include <systemc.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "Vchannel_bank.h"
#include "channel_dut.h"
#include "port_entries.h"
#include "sc_harness.h"

namespace creditloop {

// The value type of a verilated --sc port (a reference member): bool, uint32_t, uint64_t or sc_bv<N>.
template <class Port>
struct ScValue : ScValue<std::remove_reference_t<Port>> {};
template <class T>
struct ScValue<sc_in<T>> {
    using type = T;
};
template <class T>
struct ScValue<sc_out<T>> {
    using type = T;
};

// One signal per port of the bank's instance c0 but the clock: the inputs run_channels()
// drives, and the observed signals (channel_signals.def).
struct ChannelSignals {
#define CREDITLOOP_SC_SIGNAL(port) sc_signal<ScValue<decltype(Vchannel_bank::c0_##port)>::type> port{#port};
    CREDITLOOP_SC_SIGNAL(rst_tx_n)
    CREDITLOOP_SC_SIGNAL(rst_rx_n)
#define CREDITLOOP_CHANNEL_INPUT(field, shape, width) CREDITLOOP_SC_SIGNAL(field)
#include "channel_inputs.def"
#define CREDITLOOP_CHANNEL_SIGNAL(field, shape, width) CREDITLOOP_SC_SIGNAL(field)
#include "channel_signals.def"
#undef CREDITLOOP_SC_SIGNAL

    void bind(Vchannel_bank& bank, sc_clock& clock) {
        bank.c0_clk(clock);
        bank.c0_rst_tx_n(rst_tx_n);
        bank.c0_rst_rx_n(rst_rx_n);
#define CREDITLOOP_CHANNEL_INPUT(field, shape, width) bank.c0_##field(field);
#include "channel_inputs.def"
#define CREDITLOOP_CHANNEL_SIGNAL(field, shape, width) bank.c0_##field(field);
#include "channel_signals.def"
    }

    void drive(const ChannelInputs& in) {
#define CREDITLOOP_CHANNEL_INPUT(field, shape, width) write(field, in.field, ChannelShape::shape, width);
#include "channel_inputs.def"
    }

    void observe(const ChannelInputs&, ChannelObservation& o) const {
#define CREDITLOOP_CHANNEL_SIGNAL(field, shape, width) port_entries::get_field(o.field, field.read(), width);
#include "channel_signals.def"
    }

private:
    template <class T, class Field>
    static void write(sc_signal<T>& signal, const Field& field, ChannelShape shape, int width) {
        T value = signal.read();
        port_entries::put_field(value, field, width, port_width(shape, width) / width);
        signal.write(value);
    }
};

// The ChannelDut over SystemC time (sc_harness.h); one per process (SystemC elaborates once).
class SystemCChannels final
    : public ScHarness<ChannelDut, Vchannel_bank, ChannelSignals, ChannelInputs, ChannelObservation> {
public:
    SystemCChannels() : ScHarness("channel_bank") {}
};

}  // namespace creditloop
