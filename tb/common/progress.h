// A live progress line for anything that builds or runs for more than a moment: what it is
// doing, N of M, the time elapsed and an estimate of the time left.
//
// On a terminal it rewrites one line in place (and lines printed through print() scroll above
// it); in a log (CI, a pipe, a file) it prints a plain line when the phase changes and every
// few seconds while nothing else is printed, never a stream of carriage returns. Thread-safe:
// workers call advance(), status() and print() from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace creditloop {

class Progress {
public:
    // `prefix` names the command ("creditloop regress"); nothing is drawn until phase().
    explicit Progress(std::string prefix, std::FILE* out = stdout);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // A new phase: what is being done, and how many steps it has (0: unknown).
    void phase(const std::string& what, size_t total = 0);
    // What the current step is doing ("compiling 44 configurations: 40 %").
    void status(const std::string& detail);
    void advance(size_t steps = 1);
    // A line of output above the progress line (a test's verdict).
    void print(const std::string& line);
    // End the phase before the final report: on a terminal the line is cleared; in a log, a
    // counted phase whose last plain line is out of date gets its final one ("runs 8 of 8").
    void finish();

    // The line as drawn, for tests: "creditloop regress: running tests 3 of 92, 0:04 elapsed, about 0:10 left".
    std::string line() const;

private:
    void draw_locked(bool force);
    void ticker();

    std::string prefix_;
    std::FILE* out_;
    bool terminal_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::string what_, detail_;
    size_t total_ = 0, done_ = 0;
    size_t done_shown_ = 0;   // done_ when the last plain line (a log) was printed
    std::chrono::steady_clock::time_point start_, phase_start_, last_plain_;
    std::string last_drawn_;
    bool drawn_ = false, stop_ = false, active_ = false;
    std::thread thread_;
};

// "1:05" for 65 seconds, "1:02:05" past an hour.
std::string clock_text(double seconds);

}  // namespace creditloop
