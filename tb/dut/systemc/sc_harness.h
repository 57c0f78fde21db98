// What both SystemC harnesses share: a verilated --sc module bound to one sc_signal per port,
// under an sc_clock of 10 ns with its rising edge at 10t + 5 ns, and a clocked driver that writes
// cycle t's inputs at 10t and samples the observation at the edge. Each step() is sc_start() of
// one period. `Dut` is the harness's interface (LinkDut or ChannelDut); `Signals` binds the
// module's ports (bind), drives the cycle's inputs and reads its observation (drive, observe),
// and has the two resets rst_tx_n and rst_rx_n.
#pragma once

#include <systemc.h>

#include <cstdint>
#include <optional>
#include <string>

namespace creditloop {

// The clocked process: one cycle per start event. Reading a signal in the evaluation phase of the
// edge gives its value before the edge's update, so the sample is the cycle's.
template <class Signals, class Inputs, class Observation>
struct ScCycleDriver : sc_module {
    sc_in<bool> clk;
    Signals* s = nullptr;
    Inputs inputs;   // this cycle's, set before start
    Observation* sample = nullptr;
    sc_event start;

    SC_HAS_PROCESS(ScCycleDriver);
    explicit ScCycleDriver(sc_module_name name) : sc_module(name) { SC_THREAD(run); }

    void run() {
        for (;;) {
            wait(start);
            s->drive(inputs);
            wait(clk.posedge_event());
            s->observe(inputs, *sample);
            // After the edge: the reset of either end pulsed at 10t + 7, as the C++ harness does.
            if (inputs.reset_tx || inputs.reset_rx) {
                wait(2, SC_NS);
                s->rst_tx_n.write(!inputs.reset_tx);
                s->rst_rx_n.write(!inputs.reset_rx);
                wait(1, SC_NS);
                s->rst_tx_n.write(true);
                s->rst_rx_n.write(true);
            }
        }
    }
};

template <class Dut, class Module, class Signals, class Inputs, class Observation>
class ScHarness : public Dut {
public:
    explicit ScHarness(const char* module_name)
        : clk_("clk", 10, SC_NS, 0.5, 5, SC_NS, true), module_(module_name), driver_("driver") {
        signals_.bind(module_, clk_);
        driver_.clk(clk_);
        driver_.s = &signals_;
    }

    void step(const Inputs& in, Observation& out) override {
        driver_.inputs = in;
        driver_.sample = &out;
        driver_.start.notify(SC_ZERO_TIME);
        sc_start(10, SC_NS);
        VerilatedContext* context = Verilated::defaultContextp();
        if (!first_assertion_ && context->gotError()) {
            first_assertion_ = cycle_;
            context->assertOn(false);   // the first failure is the one that matters
        }
        ++cycle_;
    }

    void reset() override {
        // Both ends held in reset across the first two rising edges (5 and 15 ns), released at 20.
        signals_.drive(Inputs{});
        signals_.rst_tx_n.write(false);
        signals_.rst_rx_n.write(false);
        sc_start(20, SC_NS);
        signals_.rst_tx_n.write(true);
        signals_.rst_rx_n.write(true);
    }

    std::string open_trace(const std::string&) override {
        return "the SystemC harness writes no waves: rerun the failing command without --systemc for them";
    }
    std::string close_trace() override { return {}; }
    std::optional<uint64_t> first_assertion_cycle() const override { return first_assertion_; }

protected:
    sc_clock clk_;
    Signals signals_;
    Module module_;
    ScCycleDriver<Signals, Inputs, Observation> driver_;

private:
    uint64_t cycle_ = 0;
    std::optional<uint64_t> first_assertion_;
};

}  // namespace creditloop
