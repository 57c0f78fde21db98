// One verilated bank top clocked as the harness's devices under test need it (ZipCPU's TESTB<V>):
// its own VerilatedContext (plusargs of its own, an RTL assertion reported instead of an exit),
// the trace writer, the reset sequence, and the clock edge with the one-end resets pulsed just
// after it. VerilatedLink (verilated_link.cpp) and VerilatedChannels (verilated_channels.cpp)
// drive their ports around it; one timing for both, and one VerilatedInstance (below) for what
// else a plugin's device under test is: its waves, its assertions and its coverage.
//
// Time: cycle t is drawn from 10t to 10t + 10, clock low in the first half with the inputs and
// events of cycle t, rising edge at 10t + 5. The reset before cycle 0 is not drawn.
#pragma once

#include <verilated.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checked_trace.h"   // VCD or FST (CL_TRACE_FST), a failed write told, not an abort
#if VM_COVERAGE
#include "coverage_file.h"   // make coverage: each run writes its counts (docs/coverage.md)
#endif

namespace creditloop {

template <class Top>
class VerilatedTop {
public:
    static constexpr uint64_t kHalfPeriod = 5;

    // `args`: the RTL's plusargs, this context's own command line, so runs in one process stay apart.
    VerilatedTop(const char* top_name, const std::vector<const char*>& args = {})
        : context_(std::make_unique<VerilatedContext>()) {
        std::vector<const char*> argv{"creditloop"};
        argv.insert(argv.end(), args.begin(), args.end());
        context_->commandArgs(static_cast<int>(argv.size()), argv.data());
        context_->fatalOnError(false);   // an RTL assertion is a finding to report, not an exit
        context_->traceEverOn(true);
        top_ = std::make_unique<Top>(context_.get(), top_name);
    }
    // The model is torn down under its own context: Verilator's scopes erase themselves from the
    // thread's current one, which is whichever model ran last (another run's, maybe gone).
    ~VerilatedTop() {
        finish();
        Verilated::threadContextp(context_.get());
        top_.reset();
    }

    // The trace closed and the design's final blocks run, once (before its coverage is written).
    void finish() {
        if (finished_) return;
        finished_ = true;
        Verilated::threadContextp(context_.get());
        close_trace();
        top_->final();
    }

    Top& top() { return *top_; }
    VerilatedContext& context() { return *context_; }
    uint64_t cycle() const { return cycle_; }
    std::optional<uint64_t> first_assertion_cycle() const { return first_assertion_; }

    // Both ends held in reset across two rising edges, then released; the next cycle is 0.
    template <class Clock, class Reset>
    void reset(Clock& clk, Reset& rst_tx_n, Reset& rst_rx_n) {
        clk = 0;
        rst_tx_n = rst_rx_n = 0;
        top_->eval();
        for (int edge = 0; edge < 2; ++edge) {
            clk = 1;
            top_->eval();
            clk = 0;
            top_->eval();
        }
        rst_tx_n = rst_rx_n = 1;
        top_->eval();
        cycle_ = 0;
    }

    // The cycle's inputs are driven: settle them (the observation is read after this).
    void settle_inputs() { settle(2 * kHalfPeriod * cycle_); }

    // The rising edge that ends the cycle. A reset of either end replaces the edge's update with
    // the reset values: the asynchronous reset is pulsed just after the edge (drawn at 10t + 7),
    // so nothing that crossed the edge is cancelled half-way, exactly as the models' update()
    // then their reset.
    template <class Clock, class Reset>
    void edge(Clock& clk, Reset& rst_tx_n, Reset& rst_rx_n, bool reset_tx, bool reset_rx) {
        const uint64_t base = 2 * kHalfPeriod * cycle_;
        clk = 1;
        settle(base + kHalfPeriod);
        if (reset_tx || reset_rx) {
            rst_tx_n = !reset_tx;
            rst_rx_n = !reset_rx;
            settle(base + kHalfPeriod + 2);
            rst_tx_n = rst_rx_n = 1;
        }
        clk = 0;
        if (!first_assertion_ && context_->gotError()) {
            first_assertion_ = cycle_;
            context_->assertOn(false);   // the first failure is the one that matters
        }
        ++cycle_;
    }

    // Waves of `scope` (only this instance's signals: the idle ones would fill the file with
    // constants) from now on into `path`; "" on success.
    std::string open_trace(const std::string& path, const std::string& scope) {
        close_trace();
        tracer_ = std::make_unique<CheckedTrace>();
        trace_path_ = path;
        (*tracer_)->dumpvars(99, scope);
        top_->trace(tracer_->get(), 99);
        (*tracer_)->open(path.c_str());
        if (!(*tracer_)->isOpen()) {
            tracer_.reset();
            return "cannot open " + path + " for writing";
        }
        return {};
    }

    std::string close_trace() {
        if (!tracer_) return {};
        const std::string error = tracer_->close(trace_path_);
        tracer_.reset();
        return error;
    }

private:
    // Evaluate at trace time `time` and dump the settled values.
    void settle(uint64_t time) {
        context_->time(time);
        top_->eval();
        if (tracer_) (*tracer_)->dump(time);
    }

    std::unique_ptr<VerilatedContext> context_;
    std::unique_ptr<Top> top_;
    std::unique_ptr<CheckedTrace> tracer_;
    std::string trace_path_;
    uint64_t cycle_ = 0;
    std::optional<uint64_t> first_assertion_;
    bool finished_ = false;
};

// A device under test of a plugin (Dut: LinkDut or ChannelDut) on a whole verilated Top of its own,
// driving the one instance at `scope`: its waves hold that scope only, and with coverage the run's
// counts are written under the instance's name when it ends. The derived class drives the ports.
template <class Dut, class Top>
class VerilatedInstance : public Dut {
public:
    ~VerilatedInstance() override {
        v_.finish();
#if VM_COVERAGE
        write_coverage(v_.context(), scope_, fingerprint_);
#endif
    }
    std::string open_trace(const std::string& path) override { return v_.open_trace(path, scope_); }
    std::string close_trace() override { return v_.close_trace(); }
    std::optional<uint64_t> first_assertion_cycle() const override { return v_.first_assertion_cycle(); }

protected:
    VerilatedInstance(const char* top_name, std::string scope, int argc, const char* const* argv)
        : v_(top_name, std::vector<const char*>(argv, argv + argc)), scope_(std::move(scope)) {}

    VerilatedTop<Top> v_;
    const std::string scope_;
#if VM_COVERAGE
    RunFingerprint fingerprint_;   // every input driven: the same run rewrites its own file
#endif
};

}  // namespace creditloop
