// The shape of creditloop map's role tables: a row per way a role is named (word classes the
// port's name must and must not have), with the direction and width the role needs. The single
// counter's and a link's rows are in port_map_guess_roles.cpp, a per-virtual-channel sender's
// flit rows in port_map_guess_array.cpp. Not for use outside the port_map_guess files.
#pragma once

#include <string>
#include <vector>

namespace creditloop::port_map_detail {

// One bit, more, or either; in a module of channels, of one channel's slice.
enum class Width { one, wide, any };

struct Pattern {
    const char* role;
    const char* dir;
    Width width;
    std::vector<const char*> all_of, none_of;   // word classes
    int score;
    const char* why;   // "a one-bit input named like a clock"
};

// A kind's roles in the map's order, and which of them a map must have.
struct RoleList {
    std::vector<std::string> roles, required;
};

// A name in lower case without its '_' ("NUM_VCS" is "numvcs"), as the parameter patterns take it.
std::string lower_flat(const std::string& name);

// A per-virtual-channel sender's own rows (its pushes, its arbiter ports, its flit out; the
// counter's rows give the rest) and its roles.
const std::vector<Pattern>& vc_sender_rows();
const RoleList& vc_sender_roles();

}  // namespace creditloop::port_map_detail
