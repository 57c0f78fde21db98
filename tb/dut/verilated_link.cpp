// The verilated bank behind the LinkDut interface (ZipCPU's TESTB<V>): each VerilatedLink owns a
// whole verilated top, its VerilatedContext and the tracer, drives the one instance it was made
// for, and counts cycles. The other instances stay idle: their clocks never move, so their
// sequential logic never runs. Compiled once per bank into a plugin; the instances, their
// configurations and ports come from the generated bank_ports.h (tb/dut/dut_bank.cpp), the trace
// format from the build. The observation is copied from the ports the observed-signal list
// (observed_signals.def) names.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "Vbank.h"
#include "bank_ports.h"
#include "link_dut.h"

#include "verilated_top.h"   // the context, the clock edge, the resets and the waves
#if CL_TRACE_FST
static const char* const kTraceFormat = "fst";
#else
static const char* const kTraceFormat = "vcd";
#endif

namespace creditloop {
namespace {

// The name the verilated top is given; the instance's scope in the waves is
// "<kTopName>.creditloop_bank.<instance>".
constexpr const char* kTopName = "bank";

std::string bank_scope(int index) { return std::string(kTopName) + ".creditloop_bank." + bank_instance_name(index); }

class VerilatedLink final : public VerilatedInstance<LinkDut, Vbank> {
public:
    VerilatedLink(int index, int argc, const char* const* argv)
        : VerilatedInstance(kTopName, bank_scope(index), argc, argv), p_(bank_ports(v_.top(), index)) {}

    void reset() override {
        *p_.want_send = 0;
        *p_.tx_payload = 0;
        *p_.drain = 0;
        *p_.flush = 0;
        *p_.return_busy = 0;
        *p_.fault_drop = 0;
        *p_.fault_add = 0;
        v_.reset(*p_.clk, *p_.rst_tx_n, *p_.rst_rx_n);
    }

    void step(const LinkInputs& in, Observation& o) override {
        const BankPorts& p = p_;
        *p.want_send = in.want_send;
        *p.tx_payload = in.payload;
        *p.drain = in.drain;
        *p.flush = in.flush;
        *p.return_busy = in.return_busy;
        *p.fault_drop = in.fault_drop;
        *p.fault_add = in.fault_add;
#if VM_COVERAGE
        fingerprint_.add(uint64_t{in.want_send} | uint64_t{in.drain} << 1 | uint64_t{in.flush} << 2 |
                         uint64_t{in.return_busy} << 3 | uint64_t{in.reset_tx} << 4 | uint64_t{in.reset_rx} << 5 |
                         uint64_t{in.fault_drop} << 6 | uint64_t{in.fault_add} << 8 | uint64_t{in.payload} << 32);
#endif
        v_.settle_inputs();
        echo_inputs(in, o);
#define CREDITLOOP_RTL_OUTPUT(field, leaf, type, group, width, waves, term) o.field = *p.field;
#include "observed_signals.def"
        v_.edge(*p.clk, *p.rst_tx_n, *p.rst_rx_n, in.reset_tx, in.reset_rx);
    }

private:
    BankPorts p_{};
};

}  // namespace
}  // namespace creditloop

#define CREDITLOOP_EXPORT __attribute__((visibility("default")))

extern "C" {

CREDITLOOP_EXPORT int creditloop_dut_abi_version() { return creditloop::kDutAbiVersion; }

CREDITLOOP_EXPORT int creditloop_bank_size() { return creditloop::kBankSize; }

CREDITLOOP_EXPORT void creditloop_bank_describe(int index, creditloop::LinkConfig* config, const char** trace_format,
                                                const char** trace_scope) {
    *config = creditloop::bank_config(index);
    *trace_format = kTraceFormat;
    static const std::vector<std::string> scopes = [] {
        std::vector<std::string> all;
        for (int i = 0; i < creditloop::kBankSize; ++i)
            all.push_back(creditloop::bank_scope(i));
        return all;
    }();
    *trace_scope = scopes[index].c_str();
}

CREDITLOOP_EXPORT creditloop::LinkDut* creditloop_bank_create(int index, int argc, const char* const* argv) {
    if (index < 0 || index >= creditloop::kBankSize || argc < 0) return nullptr;
    return new creditloop::VerilatedLink(index, argc, argv);
}

}
