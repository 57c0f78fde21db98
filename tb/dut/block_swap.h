// Your own block in place of one of the project's: `make sim DUT_COUNTER=my_counter.sv` or
// `DUT_RETURN=my_return.sv`. The file's first module is inspected with Verilator (its ports,
// directions and widths at the configuration's parameters) against the block's contract, and
// a generated wrapper with the project's module name instantiates it unchanged.
//
// Counter contract: seed 002's chi_credit_counter, names and meanings exactly:
//   parameter MAXC (the most credits); optional CW (count width, given $clog2(MAXC+1))
//   input clk, rst_n (async, active low), credit_return, want_send, init_credits[$clog2(MAXC+1)]
//   output can_send, do_send, credits[$clog2(MAXC+1)]
//   credit_return is one bit (one credit per cycle) or $clog2(MAXC+1) bits (a count, so a batch
//   of K lands in one cycle).
// Return-logic contract: rtl/credit_return.sv's:
//   parameters B, K; input clk, rst_n, freed, flush; output returned[$clog2(B+1)], pending[$clog2(B+1)].
#pragma once

#include <string>
#include <vector>

#include "dut_library.h"

namespace creditloop {

struct SwappedBlock {
    std::string module;                 // the user's module name
    bool single_credit_return = false;  // a counter whose credit_return is one bit
    bool single_credit_send = false;    // a counter whose send is a one-bit take: one credit a packet
    bool synchronous_reset = false;     // its reset acts at a clock edge (mid-run reset pulses cannot reach it)
    bool owns_flits = false;            // a sender that owns the flit mux: a VC (pool, lane) a channel, one flit a packet
    bool equal_pools_only = false;      // one module of every pool's counters, started at its parameter: pools of one B
    std::vector<std::string> warnings;  // Verilator's warnings on the user's RTL, file and line first
};

// Replace rtl/<block> ("credit_counter.sv" or "credit_return.sv") in `sources` with
// `user_file`, checked for `buffer_slots` (B). "" or one error line naming the problem. A counter
// given as a .json map takes `mutant`, a .mutant patch of one of its files (port_map.h).
std::string swap_block(DutSources& sources, const std::string& block, const std::string& user_file,
                       int buffer_slots, SwappedBlock& swapped, const std::string& mutant = "");

}  // namespace creditloop
