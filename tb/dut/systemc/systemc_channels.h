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

namespace sc_entries {

// Entry i of `width` bits (width <= 32) of a port's value, entry 0 in the low bits.
template <class T>
uint32_t get(const T& value, int i, int width) {
    if constexpr (std::is_integral_v<T>) {
        const uint64_t v = static_cast<uint64_t>(value) >> (i * width);
        return static_cast<uint32_t>(width >= 32 ? v : v & ((1ull << width) - 1));
    } else {
        return static_cast<uint32_t>(value.range(i * width + width - 1, i * width).to_uint());
    }
}

template <class T>
void put(T& value, int i, int width, uint32_t entry) {
    if constexpr (std::is_same_v<T, bool>) {
        value = entry & 1;
    } else if constexpr (std::is_integral_v<T>) {
        const uint64_t mask = (width >= 64 ? ~0ull : ((1ull << width) - 1)) << (i * width);
        value = static_cast<T>((static_cast<uint64_t>(value) & ~mask) | ((static_cast<uint64_t>(entry) << (i * width)) & mask));
    } else {
        value.range(i * width + width - 1, i * width) = entry;
    }
}

}  // namespace sc_entries

// One signal per port of the bank's instance c0 but the clock: the inputs run_channels()
// drives, and the observed signals (channel_signals.def).
struct ChannelSignals {
#define CREDITLOOP_CHANNEL_INPUT(port) sc_signal<ScValue<decltype(Vchannel_bank::c0_##port)>::type> port{#port};
#define CREDITLOOP_CHANNEL_INPUTS            \
    CREDITLOOP_CHANNEL_INPUT(rst_n)          \
    CREDITLOOP_CHANNEL_INPUT(have)           \
    CREDITLOOP_CHANNEL_INPUT(bytes)          \
    CREDITLOOP_CHANNEL_INPUT(tag)            \
    CREDITLOOP_CHANNEL_INPUT(drain)          \
    CREDITLOOP_CHANNEL_INPUT(fault_drop)     \
    CREDITLOOP_CHANNEL_INPUT(fault_corrupt)  \
    CREDITLOOP_CHANNEL_INPUT(fault_add)
    CREDITLOOP_CHANNEL_INPUTS
#undef CREDITLOOP_CHANNEL_INPUT
#define CREDITLOOP_CHANNEL_SIGNAL(field, shape, width) \
    sc_signal<ScValue<decltype(Vchannel_bank::c0_##field)>::type> field{#field};
#include "channel_signals.def"

    void bind(Vchannel_bank& bank, sc_clock& clock) {
        bank.c0_clk(clock);
#define CREDITLOOP_CHANNEL_INPUT(port) bank.c0_##port(port);
        CREDITLOOP_CHANNEL_INPUTS
#undef CREDITLOOP_CHANNEL_INPUT
#define CREDITLOOP_CHANNEL_SIGNAL(field, shape, width) bank.c0_##field(field);
#include "channel_signals.def"
    }

    void drive(const ChannelInputs& in) {
        write_entries(have, in.have, 1, kMaxChannels);
        write_entries(drain, in.drain, 1, kMaxChannels);
        write_entries(fault_drop, in.fault_drop, 1, kMaxPools);
        write_entries(fault_corrupt, in.fault_corrupt, 1, kMaxPools);
        write_entries(fault_add, in.fault_add, 16, 1);
        write_array(bytes, in.bytes, 16);
        write_array(tag, in.tag, 32);
    }

    void observe(const ChannelInputs&, ChannelObservation& o) const {
#define CREDITLOOP_CHANNEL_SIGNAL(field, shape, width) read(o.field, field.read(), width);
#include "channel_signals.def"
    }

    void after_edge(const ChannelInputs&) {}   // no per-cycle resets on the multi-channel link

private:
    // A mask or a scalar: `count` entries of `width` bits from the low bits of `bits`.
    template <class T>
    static void write_entries(sc_signal<T>& signal, uint32_t bits, int width, int count) {
        T value = signal.read();
        for (int i = 0; i < count; ++i) sc_entries::put(value, i, width, (bits >> (i * width)) & ((width >= 32) ? ~0u : ((1u << width) - 1)));
        signal.write(value);
    }
    template <class T, size_t N>
    static void write_array(sc_signal<T>& signal, const std::array<uint32_t, N>& entries, int width) {
        T value = signal.read();
        for (size_t i = 0; i < N; ++i) sc_entries::put(value, static_cast<int>(i), width, entries[i]);
        signal.write(value);
    }
    template <class T>
    static void read(uint32_t& out, const T& value, int width) {
        out = sc_entries::get(value, 0, width == 1 || width > 32 ? 32 : width);
    }
    template <size_t N, class T>
    static void read(std::array<uint32_t, N>& out, const T& value, int width) {
        for (size_t i = 0; i < N; ++i) out[i] = sc_entries::get(value, static_cast<int>(i), width);
    }
};
#undef CREDITLOOP_CHANNEL_INPUTS

// The ChannelDut over SystemC time (sc_harness.h); one per process (SystemC elaborates once).
class SystemCChannels final
    : public ScHarness<ChannelDut, Vchannel_bank, ChannelSignals, ChannelInputs, ChannelObservation> {
public:
    SystemCChannels() : ScHarness("channel_bank") {}

    void reset() override {
        // rst_n held low across the first two rising edges (5 and 15 ns), released at 20.
        signals_.drive(ChannelInputs{});
        signals_.rst_n.write(false);
        sc_start(20, SC_NS);
        signals_.rst_n.write(true);
    }
};

}  // namespace creditloop
