// A port map guessed from your RTL (creditloop map): your files read with Verilator as a map's
// sources are (port_map_detail.h), then each role of a counter or of a link's two sides placed on
// a port by a small table of name patterns per role, with the port's direction and width as
// constraints, and the parameters that size the credits (B) or the data (W) set. The result is the
// map as JSON with `//` comments: each line says where its guess came from and what to confirm.
// A required role no port fits is written as "?", which every map reader refuses with one line.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "dut_library.h"

namespace creditloop {

// What `creditloop map` reads, as its options give it.
struct MapRequest {
    std::string kind;                      // "counter", "counters", "link", or "": guessed from the modules
    std::string top, sender, receiver;     // the modules, or "": guessed
    std::vector<std::string> files, incdirs, file_lists;
    std::vector<std::string> defines;      // NAME or NAME=VALUE
    std::string map_dir;                   // the folder the map is written to: its paths start there
};

// One line of a guessed map's object: a key, its value and the comment that goes with it.
struct GuessedEntry {
    std::string key;
    nlohmann::ordered_json value;
    std::string why;
};

// A counter, or one side of a link, as guessed.
struct GuessedSide {
    std::string module;
    std::vector<GuessedEntry> parameters, ports, ties;
    std::vector<std::string> parameters_left;   // kept at their defaults
    std::vector<std::string> unplaced;          // required roles no port fits: "?" in the map
    std::vector<std::string> absent;            // optional roles no port fits: left out
};

struct GuessedMap {
    std::string kind;           // "counter", "counters" (every channel's in one module: credit_counters) or "link"
    std::string kind_why;       // why that kind
    bool vc_sender = false;     // counters: a per-virtual-channel sender (pushes per channel, one flit out)
    std::string default_name;   // <module>.map.json, <sender>_<receiver>.map.json for a link
    nlohmann::ordered_json sources;
    std::vector<GuessedSide> sides;   // one for a counter; sender then receiver for a link
    std::string sides_why;            // a link: why which module is the sender
    int return_latency = 0;           // a link: 1 when the receiver's credit comes from flops alone
    bool credits_on_arrival = false;  // a link: the sender's ready reads the credits coming in
    bool sender_fifo = false;         // a link: the sender's out_valid is not logic of its in_valid
    std::string latency_why, arrival_why, fifo_why;
    std::vector<std::string> warnings;   // Verilator's, on your RTL

    std::vector<std::string> unplaced() const;   // every side's, "sender.in_data" on a link
    std::string description() const;             // what was guessed, in words: "a counter", "a link", ...
    std::string text() const;                    // the map, JSON with // comments
};

// Read the request's files with Verilator and guess their map. "" or one error line naming the
// problem and its fix (a file not found, no module, Verilator's first error, modules it cannot
// choose between).
std::string guess_map(const DutSources& sources, const MapRequest& request, GuessedMap& out);

}  // namespace creditloop
