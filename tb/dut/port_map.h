// Your own credit counter as it comes: its files, include paths, defines and file
// lists as Verilator takes them, and a map file that says which of its ports plays which role
// of the counter's contract, instead of an adapter module.
//
// The map is JSON (read with nlohmann-json), next to the RTL:
//   {
//     "block": "credit_counter",
//     "sources": {"files": ["my_counter.sv"], "incdirs": ["include"], "defines": {"X": "1"},
//                 "file_lists": ["my.f"], "top": "my_counter"},          (paths relative to the map)
//     "parameters": {"NumCredits": "B"},       (the module's parameter: B or a number)
//     "ports": {
//       "clock": "clk_i",
//       "reset": {"port": "rst_ni", "active": "low", "kind": "async"},   (or "high", "sync")
//       "send": "credit_take_i",                (a one-bit take, or {"port": "decr", "valid": "decr_valid"}: a
//                                                count asked for, 1 per send)
//       "credit_return": "credit_give_i",       (one bit: a credit a cycle; or a count, with an optional
//                                                "valid")
//       "can_send": "credit_left_o",            (optional: else credits != 0)
//       "credits": "credit_o",                  (the count, wide enough for B)
//       "init": {"port": "credit_init_i", "tie": 0},       (a soft re-initialise; or {"port", "value": "B"})
//       "withhold": {"port": "withhold", "tie": 0}
//     },
//     "ties": {"test_mode_i": 0}               (any other input, held constant)
//   }
// creditloop preprocesses the files once (verilator -E, so includes and defines are resolved),
// reads the top module's ports with Verilator, checks the map against them, and generates the
// wrapper `credit_counter` that connects the roles. Warnings in your RTL are reported, with
// their file and line, and do not stop the run unless werror is set.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "block_swap.h"
#include "dut_library.h"

namespace creditloop {

// A mutant of your own RTL (--mutant PATH.mutant with a map): `mutant`, when given, is a patch
// (tb/dut/mutant_patch.h) of the map's file whose name its `replaces=` gives. That file, patched,
// is written under <build>/mutants/maps/ (left alone when it holds the same bytes) and takes the
// original's place in the map's files; the original's folder joins the include directories. A
// patch that does not apply, or names no file of the map, is one error line, and nothing is written.

// Replace rtl/credit_counter.sv in `sources` with the counter `map_path` describes, checked for
// `buffer_slots` (B). "" or one error line naming the problem and the fix; the warnings
// Verilator gave on the user's RTL go to `swapped.warnings`.
std::string swap_mapped_counter(DutSources& sources, const std::string& map_path, int buffer_slots, bool werror,
                                SwappedBlock& swapped, const std::string& mutant = "");

// A whole link of your own: a sender and a receiver with only their functional ports
// (docs/own-rtl.md), closed into a loop by creditloop's pipelines in a generated testbench top
// that keeps every observed count from the interfaces' events. The map (JSON) names each side's
// module, parameters (B, W, L or numbers) and the ports of its roles:
//   sender:   clock, reset, in_valid, in_ready, in_data (from the source), out_valid, out_data (onto
//             the link), credit_count [+ credit_valid] (credits back), credits (its count, optional)
//   receiver: clock, reset, in_valid, in_data (from the link), out_valid, out_ready, out_data (to the
//             consumer), credit_count [+ credit_valid] (credits it returns)
// and "return_latency": the cycles the pair adds to the credit loop (the golden model gets them as
// SYNC stages, so lockstep can compare what the interfaces show); "credits_on_arrival": true when
// the sender spends a credit in the cycle it arrives (a bypass to ready: one cycle less).
struct MappedLink {
    std::string sender, receiver;
    int return_latency = 0;
    bool credits_on_arrival = false;
    // "sender_fifo_latency": the sender holds a FIFO of its own in front of its credit check, and a
    // flit it takes in cycle t can go onto the link from t + this; the link's send is then the
    // flit onto the link, and the model's source is that FIFO as the ports show it.
    std::optional<int> sender_fifo_latency;
    // What lockstep compares ("lockstep": ["send", "pop", ...] in the map, observed_signals.def's
    // names; false: nothing); empty: the interfaces' default set (tb/commands/own_link.h).
    std::optional<uint32_t> lockstep_signals;
    bool exposes_credits = false;
    bool synchronous_reset = false;
    std::vector<std::string> warnings;
};
std::string swap_mapped_link(DutSources& sources, const std::string& map_path, bool werror, MappedLink& link,
                             const std::string& mutant = "");

// A whole link to creditloop's own contract, given by a map of its sources:
//   {"block": "credit_link", "sources": {"files": [...], "incdirs": [...], "defines": {...}, "file_lists": [...]}}
// (`rtl/credit_link.map.json` is the checkout's own). The files are preprocessed once into one
// credit_link.sv; the top must be credit_link. "" or one error line; Verilator's warnings in `warnings`.
std::string use_rtl_map(DutSources& sources, const std::string& map_path, bool werror, std::vector<std::string>& warnings,
                        const std::string& mutant = "");

// What the three kinds of map say before any RTL is read, checked as swap_mapped_counter,
// swap_mapped_link and use_rtl_map check them first: the JSON, the keys, the roles' shape, the
// parameters, ties and lockstep names, and that the files and directories named exist. `text` is
// the map, `base` the directory its paths are relative to, `where` the start of an error line
// ("--counter my.map.json"). "" or one error line. Nothing runs and nothing is written, so a fuzz
// target (fuzz/fuzz_port_map.cpp) can call it on any input.
enum class MapKind { counter, link, rtl };
std::string check_map_text(MapKind kind, const std::string& text, const std::string& base, const std::string& where);

}  // namespace creditloop
