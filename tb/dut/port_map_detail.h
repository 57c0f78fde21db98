// Inside the port maps of your own RTL (port_map.h): what their files share.
//   port_map_read.cpp   a map's JSON read and checked before any RTL is (and check_map_text)
//   port_map_rtl.cpp    your RTL read with Verilator: preprocessed once, its top's ports and parameters
//   port_map_guess*.cpp a map guessed from your RTL's ports and parameters (creditloop map)
//   port_map.cpp        a counter's map and a whole link's applied: the wrapper generated, the RTL set changed
//   port_map_link.cpp   a link map applied: the testbench top around your sender and receiver generated
// Not for use outside those files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "block_swap.h"
#include "dut_library.h"
#include "port_map_guess.h"

namespace creditloop::port_map_detail {

namespace fs = std::filesystem;
using nlohmann::json;

struct UserPort {
    std::string direction;
    int width = 1;
    int slice = 0;   // creditloop map, a module of channels: the bits of one channel's slice (0: one port for all)
};

struct UserModule {
    std::string name;
    std::set<std::string> parameters;          // the ones a caller may set (not localparams)
    std::map<std::string, UserPort> ports;
    std::vector<std::string> port_order;       // the ports as declared
    std::map<std::string, std::string> edges;  // a signal on a flop's edge -> "POS" or "NEG"
    std::set<std::string> registered;          // the signals a flop drives (<= in a clocked block)
    std::set<std::string> clocked_reads;       // the signals a clocked block reads
    std::map<std::string, std::set<std::string>> drivers;   // a signal -> what drives it through logic alone
    bool top = false;                          // Verilator's top (read with --top-module)
    bool instantiated = false;                 // another module of the files instantiates it
};

// One role of the contract as the map gives it: a port name, or an object with "port" and more.
struct Role {
    std::string port;
    std::string valid;          // send / credit_return: the valid that goes with a count
    std::string active = "low"; // reset
    std::string kind = "async"; // reset
    std::string value;          // init / withhold: the value held or given at reset (an expression of B)
};

// The RTL a map names, as Verilator takes it: files, include directories, defines, file lists.
struct UserSources {
    std::vector<std::string> files;
    std::vector<std::string> args;   // -Wno-fatal, +incdir+, +define+, -f
    std::string top;
};

// The roles of a per-channel sender (a credit_counters map with push_valid): per channel push_valid,
// push_ready, push_data, request, can_grant, grant; one flit out: out_valid, out_vc, out_data.
inline const std::vector<std::string> kVcSenderRoles = {"push_valid", "push_ready", "push_data", "request", "can_grant",
                                                      "grant",      "out_valid",  "out_vc",    "out_data"};
// In a credit_counters map every role is a slice per channel but the clock, the reset and a
// sender's one flit out.
inline bool per_channel_role(const std::string& role) {
    return role != "clock" && role != "reset" && role.rfind("out_", 0) != 0;
}
// The roles a module drives.
inline bool output_role(const std::string& role) {
    return role == "can_send" || role == "credits" || role == "push_ready" || role == "request" || role == "out_valid" ||
           role == "out_vc" || role == "out_data";
}

// A counter's map as read from its JSON, before any RTL is: its sources, parameters, roles and ties.
struct CounterMap {
    bool array = false;   // "block": "credit_counters": one module holding every pool's counter, a slice each
    bool sender = false;  // an array that also owns the flit mux: per-channel pushes in, one flit and its VC out
    UserSources sources;
    std::vector<std::pair<std::string, std::string>> parameters;   // user name, expression of B (and N) (map_expression.h)
    std::map<std::string, Role> roles;
    std::map<std::string, std::string> ties;                        // input, expression of B
};

// One side of a mapped link: its module, parameters and ties (expressions of B, L and W:
// map_expression.h) and the ports of its roles.
struct Side {
    std::string module;
    std::vector<std::pair<std::string, std::string>> parameters;
    std::map<std::string, std::string> ports;   // role -> port
    std::map<std::string, std::string> reset;   // "active", "kind"
    std::map<std::string, std::string> ties;
    std::map<std::string, std::string> probes;   // observed term -> signal inside the module
};

// A link's map as read from its JSON, before any RTL is: its sources, both sides, the return
// latency and what lockstep compares.
struct LinkMap {
    UserSources sources;
    Side tx, rx;
    int return_latency = 0;
    bool credits_on_arrival = false;
    std::optional<int> sender_fifo_latency;     // as MappedLink's
    std::optional<uint32_t> lockstep_signals;   // as MappedLink's: set only when the map says
};

// ---- port_map_read.cpp
std::string read_text(const fs::path& path);   // a file's whole text
// The map file parsed, or one line saying why not.
std::string load_map(const std::string& path, const std::string& where, json& map);
// The checks that need no RTL (keys, block, sources that exist, parameters, the roles' shape, the
// roles every counter must map, the ties' values): "" or one error line. Nothing runs.
std::string read_counter_map(const json& map, const fs::path& base, const std::string& where, CounterMap& out);
// The checks that need no RTL: "" or one error line. Nothing runs.
std::string read_link_map(const json& map, const fs::path& base, const std::string& where, LinkMap& out);
// A whole link's map, the checks that need no RTL: "" or one error line. Nothing runs.
std::string read_rtl_map(const json& map, const fs::path& base, const std::string& where, UserSources& user_sources);

// ---- port_map.cpp
// Generated files written under <build>/blocks/<prefix><hash of their texts>/: the same texts,
// the same folder, so a cached build stays valid. Each one's path, in the order given.
std::vector<std::string> write_block_files(const DutSources& sources, const std::string& prefix,
                                           const std::vector<std::pair<std::string, std::string>>& files);
// `mutant` (port_map.h) applied to the file of `user_sources` its replaces= names, the patched
// file in the original's place. "" (and nothing done when `mutant` is "") or one error line.
std::string patch_mapped_file(const DutSources& sources, const std::string& mutant, const std::string& where,
                              UserSources& user_sources);

// The map's roles (an output for can_send and credits, an input for the rest) claimed on the
// module's ports into `used` (port -> role); then the ties, and every other input refused unless
// tied. "" or one error line.
std::string claim_roles(const UserModule& user, const std::map<std::string, Role>& roles, const std::string& where,
                        std::map<std::string, std::string>& used);
std::string claim_ties(const UserModule& user, const std::map<std::string, std::string>& ties, const std::string& where,
                       std::map<std::string, std::string>& used);
// The generated block `written[0]` in place of the RTL file of the same name (the checkout's rtl/
// when `sources` names none yet), the rest of `written` beside it; credit_link.sv stays first.
void put_in_rtl_set(DutSources& sources, const std::vector<std::string>& written);

// ---- port_map_array.cpp
// A counter array's map (CounterMap::array) applied: the module read at two B, each role's
// per-channel slice found, and a generated credit_counters in place of rtl/credit_counters.sv.
std::string swap_mapped_array(DutSources& sources, const std::string& map_path, const CounterMap& counter_map,
                              int buffer_slots, bool werror, SwappedBlock& swapped);

// ---- port_map_rtl.cpp
int clog2_plus1(int value);   // the bits a count of 0..value needs
// Preprocess the sources once (`text`: includes and defines resolved, `line directives kept so
// messages name the user's files), then read module `top` (empty: the one module nobody
// instantiates) with its parameters set: its ports and parameters. Verilator's warnings go to
// `warnings`; "" or one error line.
std::string read_module(const DutSources& sources, const UserSources& user_sources, const std::string& top,
                        const std::map<std::string, std::string>& parameters, bool werror, const std::string& where,
                        std::string& text, UserModule& user, std::vector<std::string>& warnings);
// Every module of the sources at their parameters' defaults (no top chosen): "" or one error line.
std::string read_modules(const DutSources& sources, const UserSources& user_sources, const std::string& where,
                         std::vector<UserModule>& modules, std::vector<std::string>& warnings);
// The side's module read at B = `b`, W = 32, L = 4, and its roles checked against its ports;
// `credit_width` gets its credit_count's width (1: one credit a cycle), `user` the module as read.
std::string check_side(const DutSources& sources, const UserSources& user_sources, const Side& side, const char* name,
                       const std::vector<std::string>& outputs, int b, bool werror, const std::string& where,
                       std::string& text, std::vector<std::string>& warnings, int& credit_width, UserModule& user);
// Whether `from` is driven, through logic alone (no flop), by one of `sources`.
bool reaches(const UserModule& module, const std::string& from, const std::set<std::string>& sources);

// ---- port_map_guess_roles.cpp
// counters and vc_sender: a credit_counters map, every channel's counters in one module (the
// module's ports carry their per-channel slices: UserPort::slice).
enum class GuessKind { counter, sender, receiver, counters, vc_sender };
// The module's roles, parameters and ties as creditloop map guesses them.
GuessedSide guess_side(const UserModule& module, GuessKind kind);
// How much the module looks like a link's sender (its name, credits coming in): the larger, the likelier.
int sender_evidence(const UserModule& module);

// ---- port_map_guess_array.cpp
// Whether the one module `m` holds every channel's counters: a parameter named like a count of
// channels (any parameter, under --kind counters) that sizes its ports a slice per channel, seen
// by reading it at two channel counts. If so `out` is its credit_counters map (kind "counters":
// an array of counters, or a per-virtual-channel sender); else `out` is left as it was. "" or one
// error line (--kind counters and no parameter sizes the ports).
std::string guess_counters(const DutSources& sources, const UserSources& user, const UserModule& m,
                           const std::string& requested_kind, GuessedMap& out);

}  // namespace creditloop::port_map_detail
