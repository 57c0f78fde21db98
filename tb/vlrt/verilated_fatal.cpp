// The Verilator runtime's vl_fatal (VL_USER_FATAL), replaced: the default prints, flushes and
// aborts the whole process (exit 134, no summary, no JUnit); this one marks the context as the
// default does and throws VerilatedFatal (tb/harness/verilated_fatal.h) for the run loop to
// turn into a verdict.
#include <verilated.h>

#include <string>

#include "verilated_fatal.h"

void vl_fatal(const char* filename, int linenum, const char* /*hier*/, const char* msg) VL_MT_UNSAFE {
    Verilated::threadContextp()->gotError(true);
    Verilated::threadContextp()->gotFinish(true);
    Verilated::runFlushCallbacks();
    const std::string where = filename && filename[0] ? std::string(filename) + ":" + std::to_string(linenum) : "";
    throw creditloop::VerilatedFatal(where, msg ? msg : "fatal error");
}
