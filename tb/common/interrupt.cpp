#include "interrupt.h"

#include <atomic>
#include <csignal>

#include "process.h"

namespace creditloop {

namespace {

std::atomic<int> g_signal{0};

extern "C" void on_interrupt(int signal) {
    if (g_signal.exchange(signal) != 0) {
        // The second: the user means it. The children at once, then the default action, re-raised
        // (exit status 128 + signal).
        signal_children(SIGKILL);
        std::signal(signal, SIG_DFL);
        std::raise(signal);
    }
    // Builds (Verilator, the compilers) run in process groups of their own: a signal sent to
    // this process alone reaches them only through here.
    signal_children(SIGTERM);
}

}  // namespace

void install_interrupt_handlers() {
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;   // a worker blocked in read(2) of a child's output carries on
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

bool interrupt_requested() { return g_signal.load(std::memory_order_relaxed) != 0; }

int interrupt_signal() { return g_signal.load(std::memory_order_relaxed); }

void request_interrupt(int signal) { g_signal.store(signal); }

}  // namespace creditloop
