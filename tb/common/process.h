// Starting other programs (Verilator, CMake, the SystemC harness): one launcher for the whole
// program. No shell: arguments are passed as they are, so paths with spaces or quotes are safe.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace creditloop {

// Every program started here runs in a process group of its own (it and whatever it starts:
// CMake, make, the compilers), tracked while it runs. A stop signal (interrupt.h) sends each group
// SIGTERM at once, and SIGKILL to a group still alive a second later.

// Run argv with stdout and stderr appended to `log`. While it runs, `poll` (if given) is called
// about five times a second, for a progress line. The exit status; -1 when the program could
// not be started or was killed by a signal.
int run_to_log(const std::vector<std::string>& argv, const std::string& log,
               const std::function<void()>& poll = {});

// Run argv, its stdout into `out` (stderr is discarded). The exit status, or -1 as above.
int run_capture(const std::vector<std::string>& argv, std::string& out);

// Replace this process with argv (a SystemC harness: its output and exit code become the run's,
// without SystemC's banner). Returns only when it could not be started: why.
std::string exec_program(std::vector<std::string> argv);

// Send `signal` to the process group of every program running now (async-signal-safe: the
// interrupt handler calls it).
void signal_children(int signal);

}  // namespace creditloop

namespace creditloop {

// While alive, whatever is written to standard output (Verilator's own %Error lines for a failed
// RTL assertion among it) goes to standard error instead, so a --json run prints one clean
// object on stdout afterwards; with `discard`, nowhere (runs whose verdict is all that counts).
class StdoutToStderr {
public:
    explicit StdoutToStderr(bool active, bool discard = false);
    ~StdoutToStderr();
    StdoutToStderr(const StdoutToStderr&) = delete;
    StdoutToStderr& operator=(const StdoutToStderr&) = delete;

private:
    int saved_ = -1;
};

}  // namespace creditloop
