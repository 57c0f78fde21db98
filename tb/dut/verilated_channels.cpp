// The verilated channel bank behind the ChannelDut interface, as verilated_link.cpp does for
// credit_link: each VerilatedChannels owns a whole verilated top, its context and tracer, and
// drives the one instance it was made for. The instances and their ports come from the
// generated channel_bank_ports.h (tb/dut/channel_bank.cpp); the observation is read from the
// ports channel_signals.def names, entry by entry out of the fixed-width packed vectors.
#include <verilated.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "Vchannel_bank.h"
#include "channel_bank_ports.h"
#include "channel_dut.h"
#if VM_COVERAGE
#include "coverage_file.h"   // make coverage: each run writes its counts (docs/coverage.md)
#endif

#include "checked_trace.h"   // VCD or FST (CL_TRACE_FST), a failed write told, not an abort
#include "port_entries.h"

namespace creditloop {
namespace {

constexpr uint64_t kHalfPeriod = 5;
constexpr const char* kTopName = "channel_bank";

class VerilatedChannels final : public ChannelDut {
public:
    explicit VerilatedChannels(int index) : context_(std::make_unique<VerilatedContext>()), index_(index) {
        context_->fatalOnError(false);
        context_->traceEverOn(true);
        top_ = std::make_unique<Vchannel_bank>(context_.get(), kTopName);
        p_ = channel_bank_ports(*top_, index);
    }
    ~VerilatedChannels() override {
        close_trace();
        top_->final();
#if VM_COVERAGE
        write_coverage(*context_, std::string(kTopName) + ".creditloop_channel_bank." + channel_bank_instance(index_),
                       fingerprint_);
#endif
    }

    void reset() override {
        drive(ChannelInputs{});
        *p_.clk = 0;
        *p_.rst_tx_n = *p_.rst_rx_n = 0;
        top_->eval();
        for (int edge = 0; edge < 2; ++edge) {
            *p_.clk = 1;
            top_->eval();
            *p_.clk = 0;
            top_->eval();
        }
        *p_.rst_tx_n = *p_.rst_rx_n = 1;
        top_->eval();
        cycle_ = 0;
    }

    void step(const ChannelInputs& in, ChannelObservation& o) override {
        drive(in);
#if VM_COVERAGE
        fingerprint_.add(uint64_t{in.reset_tx} | uint64_t{in.reset_rx} << 1);
#define CREDITLOOP_CHANNEL_INPUT(field, shape, width) fingerprint(in.field);
#include "channel_inputs.def"
#endif
        const uint64_t base = 2 * kHalfPeriod * cycle_;
        settle(base);
        o.cycle = cycle_;
#define CREDITLOOP_CHANNEL_SIGNAL(field, shape, width) port_entries::get_field(o.field, *p_.field, width);
#include "channel_signals.def"
        *p_.clk = 1;
        settle(base + kHalfPeriod);
        // A reset of either end replaces this edge's update with the reset values, pulsed just
        // after the edge as verilated_link.cpp does it (the model's update() then its reset).
        if (in.reset_tx || in.reset_rx) {
            *p_.rst_tx_n = !in.reset_tx;
            *p_.rst_rx_n = !in.reset_rx;
            settle(base + kHalfPeriod + 2);
            *p_.rst_tx_n = *p_.rst_rx_n = 1;
        }
        *p_.clk = 0;
        if (!first_assertion_ && context_->gotError()) {
            first_assertion_ = cycle_;
            context_->assertOn(false);
        }
        ++cycle_;
    }

    std::string open_trace(const std::string& path) override {
        close_trace();
        tracer_ = std::make_unique<CheckedTrace>();
        trace_path_ = path;
        const std::string scope = std::string(kTopName) + ".creditloop_channel_bank." + channel_bank_instance(index_);
        (*tracer_)->dumpvars(99, scope);
        top_->trace(tracer_->get(), 99);
        (*tracer_)->open(path.c_str());
        if (!(*tracer_)->isOpen()) {
            tracer_.reset();
            return "cannot open " + path + " for writing";
        }
        return {};
    }

    std::string close_trace() override {
        if (!tracer_) return {};
        const std::string error = tracer_->close(trace_path_);
        tracer_.reset();
        return error;
    }

    std::optional<uint64_t> first_assertion_cycle() const override { return first_assertion_; }

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
    void settle(uint64_t time) {
        context_->time(time);
        top_->eval();
        if (tracer_) (*tracer_)->dump(time);
    }

    std::unique_ptr<VerilatedContext> context_;
    std::unique_ptr<Vchannel_bank> top_;
    int index_;
    ChannelPorts p_{};
    std::unique_ptr<CheckedTrace> tracer_;
    std::string trace_path_;
    uint64_t cycle_ = 0;
    std::optional<uint64_t> first_assertion_;
#if VM_COVERAGE
    RunFingerprint fingerprint_;
#endif
};

}  // namespace
}  // namespace creditloop

#define CREDITLOOP_EXPORT __attribute__((visibility("default")))

extern "C" {
CREDITLOOP_EXPORT int creditloop_channel_abi_version() { return creditloop::kChannelAbiVersion; }
CREDITLOOP_EXPORT int creditloop_channel_bank_size() { return creditloop::kChannelBankSize; }
CREDITLOOP_EXPORT const char* creditloop_channel_describe(int index) { return creditloop::channel_bank_key(index); }
CREDITLOOP_EXPORT creditloop::ChannelDut* creditloop_channel_create(int index) {
    if (index < 0 || index >= creditloop::kChannelBankSize) return nullptr;
    return new creditloop::VerilatedChannels(index);
}
}
