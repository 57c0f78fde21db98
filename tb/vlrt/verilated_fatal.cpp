// The Verilator runtime's vl_fatal, vl_stop and VL_PRINTF (VL_USER_FATAL, VL_USER_STOP,
// VL_PRINTF=creditloop_vl_printf), replaced:
// - vl_fatal: the default prints, flushes and aborts the whole process (exit 134, no summary, no
//   JUnit); this one marks the context as the default does and throws VerilatedFatal
//   (tb/harness/verilated_fatal.h) for the run loop to turn into a verdict.
// - vl_stop (a failed assertion or $error calls it, after Verilator has printed its %Error line):
//   as the default, and the first one since the run loop last cleared it is kept with that line
//   (rtl_stop_record), so the verdict names the design's assertion, its scope and file:line.
#include <verilated.h>

#include <cstdarg>
#include <cstdio>
#include <regex>
#include <string>

#include "verilated_fatal.h"

namespace {

thread_local std::string t_last_error;          // the last %Error line printed on this thread
thread_local creditloop::RtlStop t_first_stop;   // the first $stop since the last clear

}  // namespace

void creditloop_vl_printf(const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    char small[512];
    va_list copy;
    va_copy(copy, ap);
    const int n = std::vsnprintf(small, sizeof small, format, copy);
    va_end(copy);
    std::string text;
    if (n >= 0 && static_cast<size_t>(n) < sizeof small) {
        text = small;
    } else if (n >= 0) {
        text.resize(static_cast<size_t>(n) + 1);
        std::vsnprintf(text.data(), text.size(), format, ap);
        text.resize(static_cast<size_t>(n));
    }
    va_end(ap);
    if (text.find("%Error: ") != std::string::npos) t_last_error = text;
    std::fputs(text.c_str(), stdout);
}

namespace creditloop {

RtlStop* rtl_stop_record() { return &t_first_stop; }

}  // namespace creditloop

void vl_fatal(const char* filename, int linenum, const char* /*hier*/, const char* msg) VL_MT_UNSAFE {
    Verilated::threadContextp()->gotError(true);
    Verilated::threadContextp()->gotFinish(true);
    Verilated::runFlushCallbacks();
    const std::string where = filename && filename[0] ? std::string(filename) + ":" + std::to_string(linenum) : "";
    throw creditloop::VerilatedFatal(where, msg ? msg : "fatal error");
}

void vl_stop(const char* filename, int linenum, const char* hier) VL_MT_UNSAFE {
    Verilated::threadContextp()->gotError(true);
    Verilated::threadContextp()->gotFinish(true);
    if (Verilated::threadContextp()->fatalOnError()) vl_fatal(filename, linenum, hier, "Verilog $stop");
    Verilated::runFlushCallbacks();
    if (!t_first_stop.where.empty()) return;
    t_first_stop.where = filename && filename[0] ? std::string(filename) + ":" + std::to_string(linenum) : "?";
    // Verilator's line: "[T] %Error: FILE:LINE: Assertion failed in SCOPE: MESSAGE".
    static const std::regex line(R"(%Error: (\S+):(\d+): Assertion failed in ([^:\s]+): ?(.*?)\s*$)");
    std::smatch m;
    const std::string file = filename ? filename : "";
    const std::string named = std::regex_search(t_last_error, m, line) ? m[1].str() : "";
    const bool same_file = !named.empty() && file.size() >= named.size() &&
                           file.compare(file.size() - named.size(), named.size(), named) == 0;
    if (same_file && std::stoi(m[2]) == linenum) {
        t_first_stop.scope = m[3];
        t_first_stop.message = m[4];
    } else {
        t_first_stop.message = "$stop";
    }
}
