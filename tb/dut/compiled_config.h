// The LinkConfig the SystemC harness was built for, from the CL_* definitions its CMake project
// (cmake/dut) passes: the harness checks its run against it. (A plugin is a bank and describes
// its instances from its generated bank_ports.h.) Only the SystemC build includes this header.
#pragma once

#include "link_config.h"

namespace creditloop {

inline LinkConfig compiled_link_config() {
    LinkConfig c;
    c.stages = CL_L;
    c.buffer_slots = CL_B;
    c.batch = CL_K;
    c.payload_bits = CL_W;
    c.sync_stages = CL_SYNC;
    c.free_delay = CL_FREE_DELAY;
    c.rtl_full_rate = CL_FULL_RATE != 0;
    c.policy = static_cast<ReturnPolicy>(CL_POLICY);
    c.low_credits = CL_LOW;
    c.idle_cycles = CL_IDLE;
    c.flush_timeout = CL_TIMEOUT;
    c.recovery = CL_RECOVERY != 0;
    c.total_bits = CL_TOTAL_BITS;
    c.resend_period = CL_RESEND;
    return c;
}

}  // namespace creditloop
