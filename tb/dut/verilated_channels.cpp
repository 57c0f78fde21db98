// The verilated channel bank behind the ChannelDut interface, as verilated_link.cpp does for
// credit_link: each VerilatedChannels owns a whole verilated top, its context and tracer, and
// drives the one instance it was made for. The instances and their ports come from the
// generated channel_bank_ports.h (tb/dut/channel_bank.cpp); the observation is read from the
// ports channel_signals.def names, entry by entry out of the fixed-width packed vectors.
#include <verilated.h>

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "Vchannel_bank.h"
#include "channel_bank_ports.h"
#include "channel_dut.h"
#if VM_COVERAGE
#include "coverage_file.h"   // make coverage: each run writes its counts (docs/coverage.md)
#endif

#include "checked_trace.h"   // VCD or FST (CL_TRACE_FST), a failed write told, not an abort

namespace creditloop {
namespace {

constexpr uint64_t kHalfPeriod = 5;
constexpr const char* kTopName = "channel_bank";

// Entry i of `width` bits of a port (a narrow port is one integer, a wide one VlWide words).
template <class Port>
uint32_t get(const Port& port, int i, int width) {
    if constexpr (std::is_integral_v<Port>) {
        const uint64_t v = static_cast<uint64_t>(port) >> (i * width);
        return static_cast<uint32_t>(width >= 32 ? v : v & ((1ull << width) - 1));
    } else {
        const int bit = i * width;
        const uint32_t word = port[static_cast<size_t>(bit / 32)] >> (bit % 32);
        return width >= 32 ? word : word & ((1u << width) - 1);
    }
}

template <class Port>
void put(Port& port, int i, int width, uint32_t value) {
    if constexpr (std::is_integral_v<Port>) {
        const uint64_t mask = (width >= 64 ? ~0ull : ((1ull << width) - 1)) << (i * width);
        port = static_cast<Port>((static_cast<uint64_t>(port) & ~mask) |
                                 ((static_cast<uint64_t>(value) << (i * width)) & mask));
    } else {
        const int bit = i * width;
        const uint32_t mask = (width >= 32 ? ~0u : ((1u << width) - 1)) << (bit % 32);
        auto& word = port[static_cast<size_t>(bit / 32)];
        word = (word & ~mask) | ((value << (bit % 32)) & mask);
    }
}

template <class Array, class Port>
void read_entries(Array& out, const Port& port, int count, int width) {
    for (int i = 0; i < count; ++i) out[static_cast<size_t>(i)] = get(port, i, width);
}

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
        *p_.rst_n = 0;
        top_->eval();
        for (int edge = 0; edge < 2; ++edge) {
            *p_.clk = 1;
            top_->eval();
            *p_.clk = 0;
            top_->eval();
        }
        *p_.rst_n = 1;
        top_->eval();
        cycle_ = 0;
    }

    void step(const ChannelInputs& in, ChannelObservation& o) override {
        drive(in);
#if VM_COVERAGE
        fingerprint_.add(uint64_t{in.have} | uint64_t{in.drain} << 8 | uint64_t{in.fault_drop} << 16 |
                         uint64_t{in.fault_corrupt} << 32 | uint64_t{in.fault_add} << 48);
        for (int c = 0; c < kMaxChannels; ++c)
            fingerprint_.add(uint64_t{in.bytes[static_cast<size_t>(c)]} | uint64_t{in.tag[static_cast<size_t>(c)]} << 32);
#endif
        const uint64_t base = 2 * kHalfPeriod * cycle_;
        settle(base);
        o.cycle = cycle_;
#define CREDITLOOP_CHANNEL_SIGNAL(field, shape, width) read(o.field, *p_.field, ChannelShape::shape, width);
#include "channel_signals.def"
        *p_.clk = 1;
        settle(base + kHalfPeriod);
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
        *p_.have = static_cast<std::remove_reference_t<decltype(*p_.have)>>(in.have);
        *p_.drain = static_cast<std::remove_reference_t<decltype(*p_.drain)>>(in.drain);
        *p_.fault_drop = static_cast<std::remove_reference_t<decltype(*p_.fault_drop)>>(in.fault_drop);
        *p_.fault_corrupt = static_cast<std::remove_reference_t<decltype(*p_.fault_corrupt)>>(in.fault_corrupt);
        *p_.fault_add = static_cast<std::remove_reference_t<decltype(*p_.fault_add)>>(in.fault_add);
        for (int c = 0; c < kMaxChannels; ++c) {
            put(*p_.bytes, c, 16, in.bytes[static_cast<size_t>(c)]);
            put(*p_.tag, c, 32, in.tag[static_cast<size_t>(c)]);
        }
    }
    template <class Port>
    static void read(uint32_t& out, const Port& port, ChannelShape, int width) {
        out = get(port, 0, width > 32 ? 32 : (width == 1 ? 32 : width));
    }
    template <size_t N, class Port>
    static void read(std::array<uint32_t, N>& out, const Port& port, ChannelShape, int width) {
        read_entries(out, port, static_cast<int>(N), width);
    }
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
