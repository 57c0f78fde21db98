// The verilated channel bank behind the ChannelDut interface, as verilated_link.cpp does for
// credit_link: each VerilatedChannels owns a whole verilated top, its context and tracer, and
// drives the one instance it was made for. The instances and their ports come from the
// generated channel_bank_ports.h (tb/dut/channel_bank.cpp); the observation is read from the
// ports channel_signals.def names, entry by entry out of the fixed-width packed vectors.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "Vchannel_bank.h"
#include "channel_bank_ports.h"
#include "channel_dut.h"

#include "port_entries.h"
#include "verilated_top.h"   // the context, the clock edge, the resets and the waves

namespace creditloop {
namespace {

constexpr const char* kTopName = "channel_bank";

class VerilatedChannels final : public VerilatedInstance<ChannelDut, Vchannel_bank> {
public:
    VerilatedChannels(int index, int argc, const char* const* argv)
        : VerilatedInstance(kTopName, std::string(kTopName) + ".creditloop_channel_bank." + channel_bank_instance(index),
                            argc, argv),
          p_(channel_bank_ports(v_.top(), index)) {}

    void reset() override {
        drive(ChannelInputs{});
        v_.reset(*p_.clk, *p_.rst_tx_n, *p_.rst_rx_n);
    }

    void step(const ChannelInputs& in, ChannelObservation& o) override {
        drive(in);
#if VM_COVERAGE
        fingerprint_.add(uint64_t{in.reset_tx} | uint64_t{in.reset_rx} << 1);
#define CREDITLOOP_CHANNEL_INPUT(field, shape, width) fingerprint(in.field);
#include "channel_inputs.def"
#endif
        v_.settle_inputs();
        o.cycle = v_.cycle();
#define CREDITLOOP_CHANNEL_SIGNAL(field, shape, width) port_entries::get_field(o.field, *p_.field, width);
#include "channel_signals.def"
        v_.edge(*p_.clk, *p_.rst_tx_n, *p_.rst_rx_n, in.reset_tx, in.reset_rx);
    }

private:
    void drive(const ChannelInputs& in) {
#define CREDITLOOP_CHANNEL_INPUT(field, shape, width) \
    port_entries::put_field(*p_.field, in.field, width, port_width(ChannelShape::shape, width) / width);
#include "channel_inputs.def"
    }
#if VM_COVERAGE
    void fingerprint(uint32_t value) { fingerprint_.add(value); }
    template <size_t N>
    void fingerprint(const std::array<uint32_t, N>& values) {
        for (uint32_t v : values) fingerprint_.add(v);
    }
#endif

    ChannelPorts p_{};
};

}  // namespace
}  // namespace creditloop

#define CREDITLOOP_EXPORT __attribute__((visibility("default")))

extern "C" {
CREDITLOOP_EXPORT int creditloop_channel_abi_version() { return creditloop::kChannelAbiVersion; }
CREDITLOOP_EXPORT int creditloop_channel_bank_size() { return creditloop::kChannelBankSize; }
CREDITLOOP_EXPORT const char* creditloop_channel_describe(int index) { return creditloop::channel_bank_key(index); }
CREDITLOOP_EXPORT creditloop::ChannelDut* creditloop_channel_create(int index, int argc, const char* const* argv) {
    if (index < 0 || index >= creditloop::kChannelBankSize || argc < 0) return nullptr;
    return new creditloop::VerilatedChannels(index, argc, argv);
}
}
