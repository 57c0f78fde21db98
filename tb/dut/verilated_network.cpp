// The verilated network bank behind the NocDut interface, as verilated_channels.cpp does for the
// multi-channel link: each VerilatedNetwork owns a whole verilated top, its context and tracer,
// and drives the one noc_port instance it was made for (generated noc_bank_ports.h).
#include <string>

#include "Vnoc_bank.h"
#include "noc_bank_ports.h"
#include "noc_dut.h"
#include "verilated_top.h"

namespace creditloop {
namespace {

constexpr const char* kTopName = "noc_bank";

template <class W>
uint32_t bits(const W& w, int at, int width) {
    uint64_t both = w[size_t(at / 32)];
    if (at % 32 + width > 32) both |= uint64_t(w[size_t(at / 32 + 1)]) << 32;
    return uint32_t(both >> (at % 32)) & ((width == 32) ? ~0u : ((1u << width) - 1));
}

class VerilatedNetwork final : public VerilatedInstance<NocDut, Vnoc_bank> {
public:
    VerilatedNetwork(int index, int argc, const char* const* argv)
        : VerilatedInstance(kTopName, std::string(kTopName) + ".creditloop_noc_bank." + noc_bank_instance(index), argc,
                            argv),
          p_(noc_bank_ports(v_.top(), index)) {}

    void reset() override {
        *p_.inj_valid = 0;
        *p_.ej_ready = 0;
        v_.reset(*p_.clk, *p_.rst_n, *p_.rst_n);
    }

    void step(NocPins& pins) override {
        *p_.inj_valid = pins.inj_valid;
        *p_.ej_ready = pins.ej_ready;
        for (int n = 0; n < kNocMaxNodes; ++n) (*p_.inj_flit)[size_t(n)] = pins.inj_flit[size_t(n)];
        v_.settle_inputs();
        pins.inj_accept = *p_.inj_accept;
        pins.ej_valid = *p_.ej_valid;
        for (int n = 0; n < kNocMaxNodes; ++n) {
            pins.ej_flit[size_t(n)] = (*p_.ej_flit)[size_t(n)];
            pins.sent[size_t(n)] = bits(*p_.obs_sent, n * kNocSlots, kNocSlots);
            pins.freed[size_t(n)] = bits(*p_.obs_freed, n * kNocSlots, kNocSlots);
            for (int s = 0; s < kNocSlots; ++s) {
                const int at = n * kNocSlots + s;
                pins.fill[size_t(n)][size_t(s)] = uint8_t(bits(*p_.obs_fill, at * 4, 4));
                pins.credits[size_t(n)][size_t(s)] = uint8_t(bits(*p_.obs_credits, at * 4, 4));
                pins.wait[size_t(n)][size_t(s)] = bits(*p_.obs_wait, at * kNocSlots, kNocSlots);
            }
        }
        v_.edge(*p_.clk, *p_.rst_n, *p_.rst_n, false, false);
    }

    Route route(int here, int dest, int in_port, int in_vc) override {
        *p_.r_here = CData(here);
        *p_.r_dest = CData(dest);
        *p_.r_in_port = CData(in_port);
        *p_.r_in_vc = CData(in_vc);
        v_.top().eval();
        return {int(*p_.r_out_port), unsigned(*p_.r_vc_mask), int(*p_.r_alt_port), unsigned(*p_.r_alt_mask)};
    }

private:
    NocPorts p_{};
};

}  // namespace
}  // namespace creditloop

#define CREDITLOOP_EXPORT __attribute__((visibility("default")))

extern "C" {
CREDITLOOP_EXPORT int creditloop_noc_abi_version() { return creditloop::kNocAbiVersion; }
CREDITLOOP_EXPORT int creditloop_noc_bank_size() { return creditloop::kNocBankSize; }
CREDITLOOP_EXPORT const char* creditloop_noc_describe(int index) { return creditloop::noc_bank_key(index); }
CREDITLOOP_EXPORT creditloop::NocDut* creditloop_noc_create(int index, int argc, const char* const* argv) {
    if (index < 0 || index >= creditloop::kNocBankSize || argc < 0) return nullptr;
    return new creditloop::VerilatedNetwork(index, argc, argv);
}
}
