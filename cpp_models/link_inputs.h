// What the environment drives into a credit link in one cycle; the same struct goes to the RTL
// and to the golden model, so both see identical stimulus.
#pragma once

#include <cstdint>

namespace creditloop {

struct LinkInputs {
    bool want_send = false;   // the source offers a flit
    uint32_t payload = 0;     // the offered flit's payload
    bool drain = false;       // the consumer takes the head flit if there is one
    bool flush = false;       // the return logic returns every pending credit now
    bool return_busy = false; // reverse traffic holds the shared return slot this cycle
    bool reset_tx = false;    // reset the sender end (counter, forward path) at this cycle's edge
    bool reset_rx = false;    // reset the receiver end (buffer, return logic, return path) likewise
    bool fault_drop = false;  // the return message arriving at the sender this cycle, if any, is lost
    uint32_t fault_add = 0;   // ... or made larger by this much (docs/recovery.md)
};

}  // namespace creditloop
