// creditloop map on a module holding every channel's counters (port_map_detail.h): a parameter
// named like a count of channels (NumChannels, NUM_VCS, NPOOL) is tried by reading the module at
// two values of it; the ports whose width grows with it, a slice per channel, are its per-channel
// ports. Then the roles are the counter's, each a slice (an array of counters, port_map_array.cpp
// reads its map), or a per-virtual-channel sender's when a channel's flit comes in and one flit
// goes out: per channel pushes and arbiter ports, one flit out with its VC.
#include <algorithm>
#include <regex>

#include "port_map_detail.h"
#include "port_map_guess_table.h"

namespace creditloop::port_map_detail {

namespace {

// The two channel counts a module is read at: odd and apart, so that a slice that grows with the
// count is told from a width that only happens to divide by it (and from $clog2 of the count).
constexpr int kFewChannels = 3, kMoreChannels = 5;

// A count of channels, virtual channels, lanes or pools, as parameters name it (lower case, no '_').
const std::regex kChannelCountName(
    "^(n|num|number|nb|no|nof|count|cnt|max|total)?(of)?"
    "(channel|channels|chan|chans|ch|chs|chnl|chnls|vc|vcs|virtualchannels?|vl|vls|virtuallanes?|lane|lanes|pool|pools|"
    "queue|queues|class|classes|tc|tcs)(count|cnt|num|number)?$");

const std::vector<Pattern> kVcSenderRows = {
    {"push_valid", "input", Width::one, {"valid"}, {"credit", "take", "give", "grant"}, 6, "the valid of a channel's flit in"},
    {"push_ready", "output", Width::one, {"ready"}, {"credit", "take", "give"}, 6, "the ready of a channel's flit in"},
    {"push_data", "input", Width::wide, {"data"}, {"credit"}, 6, "the data of a channel's flit in"},
    {"request", "output", Width::one, {"request"}, {"credit"}, 6, "a channel's request to the arbiter"},
    {"can_grant", "input", Width::one, {"can", "grant"}, {}, 7, "the arbiter's may-grant to a channel"},
    {"grant", "input", Width::one, {"grant"}, {"can"}, 6, "the arbiter's grant to a channel"},
    {"out_valid", "output", Width::one, {"valid"}, {"credit"}, 6, "the valid of the one flit out"},
    {"out_vc", "output", Width::any, {"vc"}, {"credit", "valid", "data"}, 6, "the virtual channel of the flit out"},
    {"out_data", "output", Width::wide, {"data"}, {"credit"}, 6, "the data of the one flit out"},
};

// The sender's roles (kVcSenderRoles, as its map reader knows them) between the clock and reset
// and the counter's; request, can_grant and grant are optional, as are the counter's extras.
RoleList vc_roles() {
    RoleList list;
    list.roles = {"clock", "reset"};
    list.roles.insert(list.roles.end(), kVcSenderRoles.begin(), kVcSenderRoles.end());
    list.roles.insert(list.roles.end(), {"credit_return", "init", "withhold", "credits", "can_send"});
    for (const auto& role : list.roles)
        if (role != "request" && role != "can_grant" && role != "grant" && role != "init" && role != "withhold" && role != "can_send")
            list.required.push_back(role);
    return list;
}

// The port a side's role was placed on, or "".
std::string placed_port(const GuessedSide& side, const std::string& role) {
    for (const auto& e : side.ports)
        if (e.key == role && !(e.value.is_string() && e.value == "?"))
            return e.value.is_object() ? e.value.value("port", "") : e.value.get<std::string>();
    return "";
}

// `m`'s ports with their slices when `count` sets the number of channels: a port is N slices
// when its width at both channel counts is that many times one slice. "" or why not.
std::string slices_by(const DutSources& sources, const UserSources& user, const UserModule& m, const std::string& count,
                      UserModule& out, std::vector<std::string>& per_channel) {
    UserModule at[2];
    const int channels[2] = {kFewChannels, kMoreChannels};
    for (int i = 0; i < 2; ++i) {
        std::string text;
        std::vector<std::string> warnings;   // the first reading's were kept
        if (auto e = read_module(sources, user, m.name, {{count, std::to_string(channels[i])}}, false, "map", text, at[i], warnings);
            !e.empty())
            return e;
    }
    out = m;
    per_channel.clear();
    for (const auto& name : m.port_order) {
        const int few = at[0].ports.count(name) ? at[0].ports.at(name).width : 0;
        const int more = at[1].ports.count(name) ? at[1].ports.at(name).width : 0;
        if (few == 0 || few % kFewChannels != 0 || more % kMoreChannels != 0 || few / kFewChannels != more / kMoreChannels) continue;
        out.ports[name].slice = few / kFewChannels;
        per_channel.push_back(name);
    }
    return "";
}

std::string listed(const std::vector<std::string>& names, size_t most) {
    std::string out;
    for (size_t i = 0; i < names.size() && i < most; ++i) out += (i ? ", " : "") + names[i];
    return out + (names.size() > most ? ", ..." : "");
}

}  // namespace

const std::vector<Pattern>& vc_sender_rows() { return kVcSenderRows; }
const RoleList& vc_sender_roles() {
    static const RoleList list = vc_roles();
    return list;
}

std::string guess_counters(const DutSources& sources, const UserSources& user, const UserModule& m,
                           const std::string& requested_kind, GuessedMap& out) {
    if (requested_kind == "counter") return "";
    const bool forced = requested_kind == "counters";
    // Parameters named like a count of channels first; forced, every other parameter after them.
    std::vector<std::string> tried;
    for (const auto& p : m.parameters)
        if (std::regex_match(lower_flat(p), kChannelCountName)) tried.push_back(p);
    const size_t named = tried.size();
    if (forced)
        for (const auto& p : m.parameters)
            if (!std::regex_match(lower_flat(p), kChannelCountName)) tried.push_back(p);
    // Two per-channel ports at the least: a counter's return and its count.
    UserModule view;
    std::vector<std::string> per_channel;
    std::string count;
    for (const auto& p : tried)
        if (slices_by(sources, user, m, p, view, per_channel).empty() && per_channel.size() >= 2) {
            count = p;
            break;
        }
    if (count.empty()) {
        if (!forced) return "";
        return "map: --kind counters: no parameter of " + m.name +
               " sizes its ports a slice per channel (logic [N-1:0][W-1:0], N a parameter): a module fixed at its "
               "channel count is not taken; map it as one counter with --kind counter";
    }
    const bool by_name = std::find(tried.begin(), tried.begin() + static_cast<long>(named), count) != tried.begin() + static_cast<long>(named);
    const std::string sizes =
        count + " sizes " + std::to_string(per_channel.size()) + " of its ports a slice per channel: " + listed(per_channel, 3);

    // A channel's flit in and one flit out: a sender; else the counters alone.
    GuessedSide side = guess_side(view, GuessKind::vc_sender);
    const std::string push = placed_port(side, "push_data"), launch = placed_port(side, "out_data");
    const bool sender = !push.empty() && !launch.empty() && !placed_port(side, "push_valid").empty();
    if (!sender) side = guess_side(view, GuessKind::counters);
    out.kind = "counters";
    out.vc_sender = sender;
    out.kind_why += "; " + sizes +
                   (sender ? "; " + push + " is a channel's flit in and " + launch + " the one flit out, a counter a channel" : "");

    // N: the count of channels, in the map's first place.
    const auto is_count = [&](const GuessedEntry& e) { return e.key == count; };
    side.parameters.erase(std::remove_if(side.parameters.begin(), side.parameters.end(), is_count), side.parameters.end());
    side.parameters_left.erase(std::remove(side.parameters_left.begin(), side.parameters_left.end(), count), side.parameters_left.end());
    side.parameters.insert(side.parameters.begin(),
                           {count, "N", std::string(by_name ? "named like a count of channels, and it" : "it") +
                                            " sizes the per-channel ports (their widths grow with it, read at " + count + " = " +
                                            std::to_string(kFewChannels) + " and " + std::to_string(kMoreChannels) +
                                            "): N, the number of pools (confirm)"});
    out.sides = {side};
    return "";
}

}  // namespace creditloop::port_map_detail
