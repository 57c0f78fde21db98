// The verilated credit_link behind the LinkDut interface (ZipCPU's TESTB<V>): it owns the model,
// its VerilatedContext and the tracer, and counts cycles. Compiled once per configuration into a
// plugin; CL_L, CL_B, CL_K, CL_W and the trace format come from the build.
#include <verilated.h>

#include <memory>
#include <optional>
#include <string>

#include "Vcredit_link.h"
#include "compiled_config.h"
#include "link_dut.h"

#if CL_TRACE_FST
#include <verilated_fst_c.h>
using Tracer = VerilatedFstC;
static const char* const kTraceFormat = "fst";
#else
#include <verilated_vcd_c.h>
using Tracer = VerilatedVcdC;
static const char* const kTraceFormat = "vcd";
#endif

namespace creditloop {
namespace {

// Half a clock period in trace time units: cycle t is drawn from 10t to 10t + 10, clock low in
// the first half with the inputs and events of cycle t, rising edge at 10t + 5. The reset before
// cycle 0 is not drawn.
constexpr uint64_t kHalfPeriod = 5;

class VerilatedLink final : public LinkDut {
public:
    VerilatedLink() : context_(std::make_unique<VerilatedContext>()) {
        context_->fatalOnError(false);   // an RTL assertion is a finding to report, not an exit
        context_->traceEverOn(true);
        top_ = std::make_unique<Vcredit_link>(context_.get(), "link");
    }

    ~VerilatedLink() override {
        close_trace();
        top_->final();
    }

    void reset() override {
        top_->want_send = 0;
        top_->tx_payload = 0;
        top_->drain = 0;
        top_->flush = 0;
        top_->return_busy = 0;
        top_->clk = 0;
        top_->rst_tx_n = 0;
        top_->rst_rx_n = 0;
        top_->eval();
        for (int edge = 0; edge < 2; ++edge) {
            top_->clk = 1;
            top_->eval();
            top_->clk = 0;
            top_->eval();
        }
        top_->rst_tx_n = 1;
        top_->rst_rx_n = 1;
        top_->eval();
        cycle_ = 0;
    }

    void step(const LinkInputs& in, Observation& o) override {
        Vcredit_link& t = *top_;
        t.want_send = in.want_send;
        t.tx_payload = in.payload;
        t.drain = in.drain;
        t.flush = in.flush;
        t.return_busy = in.return_busy;
        const uint64_t base = 2 * kHalfPeriod * cycle_;
        settle(base);

        o.want_send = in.want_send;
        o.drain = in.drain;
        o.flush = in.flush;
        o.return_busy = in.return_busy;
        o.reset_tx = in.reset_tx;
        o.reset_rx = in.reset_rx;
        o.credits = t.credits;
        o.can_send = t.can_send;
        o.send = t.send;
        o.send_payload = t.send_payload;
        o.credits_arriving = t.credits_arriving;
        o.fwd_flits = t.fwd_flits;
        o.arrive = t.arrive;
        o.occupancy = t.occupancy;
        o.pop = t.pop;
        o.pop_payload = t.pop_payload;
        o.overflow = t.overflow;
        o.slots_freeing = t.slots_freeing;
        o.pending_returns = t.pending_returns;
        o.policy_flush = t.policy_flush;
        o.return_waiting = t.return_waiting;
        o.credits_returned = t.credits_returned;
        o.return_flight = t.return_flight;
        o.credit_total = t.credit_total;

        t.clk = 1;
        settle(base + kHalfPeriod);
        // A reset of either end replaces this edge's update with the reset values: the
        // asynchronous reset is pulsed just after the edge (drawn at 10t + 7), so nothing that
        // crossed the edge is cancelled half-way, exactly as the model's update() then reset.
        if (in.reset_tx || in.reset_rx) {
            t.rst_tx_n = !in.reset_tx;
            t.rst_rx_n = !in.reset_rx;
            settle(base + kHalfPeriod + 2);
            t.rst_tx_n = 1;
            t.rst_rx_n = 1;
        }
        t.clk = 0;
        if (!first_assertion_ && context_->gotError()) {
            first_assertion_ = cycle_;
            context_->assertOn(false);
        }
        ++cycle_;
    }

    std::string open_trace(const std::string& path) override {
        close_trace();
        tracer_ = std::make_unique<Tracer>();
        top_->trace(tracer_.get(), 99);
        tracer_->open(path.c_str());
        if (!tracer_->isOpen()) {
            tracer_.reset();
            return "cannot open " + path + " for writing";
        }
        return {};
    }

    void close_trace() override {
        if (!tracer_) return;
        tracer_->flush();
        tracer_->close();
        tracer_.reset();
    }

    std::optional<uint64_t> first_assertion_cycle() const override { return first_assertion_; }

private:
    // Evaluate at trace time `time` and dump the settled values.
    void settle(uint64_t time) {
        context_->time(time);
        top_->eval();
        if (tracer_) tracer_->dump(time);
    }

    std::unique_ptr<VerilatedContext> context_;
    std::unique_ptr<Vcredit_link> top_;
    std::unique_ptr<Tracer> tracer_;
    uint64_t cycle_ = 0;
    std::optional<uint64_t> first_assertion_;
};

}  // namespace
}  // namespace creditloop

#define CREDITLOOP_EXPORT __attribute__((visibility("default")))

extern "C" {

CREDITLOOP_EXPORT int creditloop_dut_abi_version() { return creditloop::kDutAbiVersion; }

CREDITLOOP_EXPORT void creditloop_dut_describe(creditloop::LinkConfig* config, const char** trace_format) {
    *config = creditloop::compiled_link_config();
    *trace_format = kTraceFormat;
}

CREDITLOOP_EXPORT creditloop::LinkDut* creditloop_dut_create() { return new creditloop::VerilatedLink(); }

}
