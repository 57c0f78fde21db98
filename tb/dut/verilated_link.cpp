// The verilated bank behind the LinkDut interface (ZipCPU's TESTB<V>): each VerilatedLink owns a
// whole verilated top, its VerilatedContext and the tracer, drives the one instance it was made
// for, and counts cycles. The other instances stay idle: their clocks never move, so their
// sequential logic never runs. Compiled once per bank into a plugin; the instances, their
// configurations and ports come from the generated bank_ports.h (tb/dut/dut_bank.cpp), the trace
// format from the build. The observation is copied from the ports the observed-signal list
// (observed_signals.def) names.
#include <verilated.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "Vbank.h"
#include "bank_ports.h"
#include "link_dut.h"
#if VM_COVERAGE
#include "coverage_file.h"   // make coverage: each run writes its counts (docs/coverage.md)
#endif

#include "checked_trace.h"   // VCD or FST (CL_TRACE_FST), a failed write told, not an abort
#if CL_TRACE_FST
static const char* const kTraceFormat = "fst";
#else
static const char* const kTraceFormat = "vcd";
#endif

extern "C" void creditloop_bank_describe(int index, creditloop::LinkConfig* config, const char** trace_format,
                                         const char** trace_scope);

namespace creditloop {
namespace {

// Half a clock period in trace time units: cycle t is drawn from 10t to 10t + 10, clock low in
// the first half with the inputs and events of cycle t, rising edge at 10t + 5. The reset before
// cycle 0 is not drawn.
constexpr uint64_t kHalfPeriod = 5;

// The name the verilated top is given; the instance's scope in the waves is
// "<kTopName>.creditloop_bank.<instance>".
constexpr const char* kTopName = "bank";

class VerilatedLink final : public LinkDut {
public:
    VerilatedLink(int index, int argc, const char* const* argv)
        : context_(std::make_unique<VerilatedContext>()), index_(index) {
        // The RTL's plusargs: a context's own command line, so runs in one process stay apart.
        std::vector<const char*> args{"creditloop"};
        for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
        context_->commandArgs(static_cast<int>(args.size()), args.data());
        context_->fatalOnError(false);   // an RTL assertion is a finding to report, not an exit
        context_->traceEverOn(true);
        top_ = std::make_unique<Vbank>(context_.get(), kTopName);
        p_ = bank_ports(*top_, index);
    }

    ~VerilatedLink() override {
        close_trace();
        top_->final();
#if VM_COVERAGE
        LinkConfig config;
        const char* format = nullptr;
        const char* scope = nullptr;
        creditloop_bank_describe(index_, &config, &format, &scope);
        write_coverage(*context_, scope, fingerprint_);
#endif
    }

    void reset() override {
        *p_.want_send = 0;
        *p_.tx_payload = 0;
        *p_.drain = 0;
        *p_.flush = 0;
        *p_.return_busy = 0;
        *p_.fault_drop = 0;
        *p_.fault_add = 0;
        *p_.clk = 0;
        *p_.rst_tx_n = 0;
        *p_.rst_rx_n = 0;
        top_->eval();
        for (int edge = 0; edge < 2; ++edge) {
            *p_.clk = 1;
            top_->eval();
            *p_.clk = 0;
            top_->eval();
        }
        *p_.rst_tx_n = 1;
        *p_.rst_rx_n = 1;
        top_->eval();
        cycle_ = 0;
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
        const uint64_t base = 2 * kHalfPeriod * cycle_;
        settle(base);

        echo_inputs(in, o);
#define CREDITLOOP_RTL_OUTPUT(field, leaf, type, group, width, waves, term) o.field = *p.field;
#include "observed_signals.def"

        *p.clk = 1;
        settle(base + kHalfPeriod);
        // A reset of either end replaces this edge's update with the reset values: the
        // asynchronous reset is pulsed just after the edge (drawn at 10t + 7), so nothing that
        // crossed the edge is cancelled half-way, exactly as the model's update() then reset.
        if (in.reset_tx || in.reset_rx) {
            *p.rst_tx_n = !in.reset_tx;
            *p.rst_rx_n = !in.reset_rx;
            settle(base + kHalfPeriod + 2);
            *p.rst_tx_n = 1;
            *p.rst_rx_n = 1;
        }
        *p.clk = 0;
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
        // Only this instance's signals: the idle ones would fill the file with constants.
        const char* format = nullptr;
        const char* scope = nullptr;
        LinkConfig config;
        creditloop_bank_describe(index_, &config, &format, &scope);
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
    // Evaluate at trace time `time` and dump the settled values.
    void settle(uint64_t time) {
        context_->time(time);
        top_->eval();
        if (tracer_) (*tracer_)->dump(time);
    }

    std::unique_ptr<VerilatedContext> context_;
    std::unique_ptr<Vbank> top_;
    int index_;
    BankPorts p_{};
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

CREDITLOOP_EXPORT int creditloop_dut_abi_version() { return creditloop::kDutAbiVersion; }

CREDITLOOP_EXPORT int creditloop_bank_size() { return creditloop::kBankSize; }

CREDITLOOP_EXPORT void creditloop_bank_describe(int index, creditloop::LinkConfig* config, const char** trace_format,
                                                const char** trace_scope) {
    *config = creditloop::bank_config(index);
    *trace_format = kTraceFormat;
    static const std::vector<std::string> scopes = [] {
        std::vector<std::string> all;
        for (int i = 0; i < creditloop::kBankSize; ++i)
            all.push_back(std::string(creditloop::kTopName) + ".creditloop_bank." + creditloop::bank_instance_name(i));
        return all;
    }();
    *trace_scope = scopes[index].c_str();
}

CREDITLOOP_EXPORT creditloop::LinkDut* creditloop_bank_create(int index, int argc, const char* const* argv) {
    if (index < 0 || index >= creditloop::kBankSize || argc < 0) return nullptr;
    return new creditloop::VerilatedLink(index, argc, argv);
}

}
