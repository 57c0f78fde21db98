// A port map's JSON read and checked before any of your RTL is (port_map_detail.h): the keys, the
// sources and that their files exist, the parameters, the roles' shape, ties and lockstep names,
// for each kind of map; check_map_text (port_map.h) runs these alone. Nothing runs, nothing is written.
#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

#include "map_expression.h"
#include "map_json.h"
#include "observation.h"
#include "port_map.h"
#include "port_map_detail.h"

namespace creditloop::port_map_detail {

namespace {

// A role left as "?" (creditloop map could not place it): one line saying so.
std::string unplaced(const std::string& who, const std::string& role) {
    return who + ": role " + role + " is \"?\" (creditloop map could not place it): name the port that plays it";
}

// The map's text parsed, or one line saying why not. `//` and `/* */` comments are allowed: a
// map written by `creditloop map` says in them where each guess came from.
std::string parse_map(const std::string& text, const std::string& where, json& map) {
    try {
        map = json::parse(text, nullptr, true, /*ignore_comments=*/true);
    } catch (const json::exception& e) {
        return where + " is not JSON (" + std::string(e.what()) + ")";
    }
    return "";
}

std::string read_sources(const json& src, const fs::path& base, const std::string& where, UserSources& out) {
    const auto listed = [&](const char* key) { return src.contains(key) && !src[key].empty(); };
    if (!listed("files") && !listed("file_lists"))
        return where + ": no \"sources\": {\"files\": [...]} or {\"file_lists\": [...]} naming your RTL";
    for (const auto& [key, value] : src.items())
        if (key != "files" && key != "incdirs" && key != "defines" && key != "file_lists" && key != "top")
            return where + ": sources: unknown key '" + key + "' (files, incdirs, defines, file_lists, top)";
    out.args = {"-Wno-fatal"};
    const std::string at = where + ": sources";
    std::string error;
    const auto incdirs = texts_at(src, "incdirs", at, error, "a list of folders, [\"include\"]");
    const auto lists = texts_at(src, "file_lists", at, error, "a list of file lists, [\"rtl.f\"]");
    const auto files = texts_at(src, "files", at, error, "a list of files, [\"my_counter.sv\"]");
    const json defines = object_at(src, "defines", at, error, "an object of defines, {\"NAME\": \"value\"}");
    out.top = text_at(src, "top", at, error, "the top module's name");
    if (!error.empty()) return error;
    // The error_code forms: a path the system refuses (a name too long, a loop of links) is one
    // not found, where the throwing forms would end the program (found by fuzz_port_map).
    std::error_code ec;
    // Every path as written, resolved from the map's folder and printed clean (no "a/../b").
    for (const auto& dir : incdirs) {
        const fs::path d = (base / dir).lexically_normal();
        if (!fs::is_directory(d, ec)) return where + ": include directory " + d.string() + " not found";
        out.args.push_back("+incdir+" + d.string());
    }
    for (const auto& [name, value] : defines.items())
        out.args.push_back("+define+" + name + (value.is_null() ? "" : "=" + (value.is_string() ? value.get<std::string>() : value.dump())));
    // A list's own relative paths resolve from the list's folder, as everything a map names
    // resolves from where it is written: Verilator's -F (its -f would take the current folder).
    for (const auto& list : lists) {
        const fs::path f = (base / list).lexically_normal();
        if (!fs::is_regular_file(f, ec)) return where + ": file list " + f.string() + " not found";
        out.args.insert(out.args.end(), {"-F", f.string()});
    }
    for (const auto& file : files) {
        const fs::path f = (base / file).lexically_normal();
        if (!fs::is_regular_file(f, ec)) return where + ": RTL file " + f.string() + " not found";
        out.files.push_back(f.string());
    }
    return "";
}

std::string read_side(const json& j, const char* side, const std::vector<std::string>& required,
                      const std::vector<std::string>& optional, const std::string& where, Side& out) {
    const std::string who = where + ": " + side;
    if (!j.contains(side) || !j[side].is_object()) return who + " is not described (module, parameters, ports)";
    const json& s = j[side];
    std::string error;
    out.module = text_at(s, "module", who, error, "the module's name");
    const json params = object_at(s, "parameters", who, error, "an object, {\"DEPTH\": \"B\"}");
    const json ports = object_at(s, "ports", who, error, "an object of roles, {\"clock\": \"clk\", ...}");
    const json probes = object_at(s, "probes", who, error, "an object, {\"occupancy\": \"count_q\"}");
    if (!error.empty()) return error;
    if (out.module.empty()) return who + ": name its \"module\"";
    for (const auto& [name, value] : params.items()) {
        std::string error;
        out.parameters.push_back({name, map_value(value, kLinkNames, who + ": parameters: " + name, error)});
        if (!error.empty()) return error;
    }
    for (const auto& [role, value] : ports.items()) {
        if (std::find(required.begin(), required.end(), role) == required.end() &&
            std::find(optional.begin(), optional.end(), role) == optional.end()) {
            std::string known;
            for (const auto& r : required) known += (known.empty() ? "" : ", ") + r;
            for (const auto& r : optional) known += ", " + r;
            return who + ": unknown role '" + role + "' (roles: " + known + ")";
        }
        if (value.is_string()) {
            out.ports[role] = value.get<std::string>();
        } else if (role == "init" && value.is_object()) {
            // The credits a sender starts with as an input ({"port", "value": "B"}), or a soft
            // re-initialise held off ({"port", "tie": 0}): the port held at the value.
            const std::string at = who + ": role init";
            for (const auto& [k, v] : value.items())
                if (k != "port" && k != "value" && k != "tie") return at + ": unknown key '" + k + "' (port, value, tie)";
            out.ports[role] = text_at(value, "port", at, error);
            if (!error.empty()) return error;
            if (out.ports[role].empty()) return at + " names no port";
            const char* held = value.contains("value") ? "value" : "tie";
            if (!value.contains(held)) return at + ": give the value it is held at ({\"port\": ..., \"value\": \"B\"})";
            out.ties[out.ports[role]] = map_value(value[held], kLinkNames, at + ": " + held, error);
            if (!error.empty()) return error;
        } else if (role == "reset" && value.is_object()) {
            const std::string at = who + ": role reset";
            out.ports[role] = text_at(value, "port", at, error);
            out.reset["active"] = value.contains("active") ? text_at(value, "active", at, error, "\"low\" or \"high\"") : "low";
            out.reset["kind"] = value.contains("kind") ? text_at(value, "kind", at, error, "\"async\" or \"sync\"") : "async";
            if (!error.empty()) return error;
        } else {
            return who + ": role " + role + ": give a port name";
        }
        if (out.ports[role] == "?") return unplaced(who, role);
    }
    for (const auto& role : required)
        if (!out.ports.count(role)) return who + ": role " + role + " is not mapped";
    if (auto e = read_ties(s.value("ties", json::object()), kLinkNames, who, out.ties); !e.empty()) return e;
    // Optional internal terms, read from inside the module by name (the testbench top reaches
    // in; the module grows no port): the receiver's occupancy and credits held for return.
    for (const auto& [term, signal] : probes.items()) {
        if (std::string(side) != "receiver" || (term != "occupancy" && term != "pending_returns"))
            return who + ": probes: '" + term + "' is not a term creditloop reads (receiver: occupancy, pending_returns)";
        const std::string name = text_at(probes, term.c_str(), who + ": probes", error, "a signal's name inside the module");
        if (!error.empty()) return error;
        if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.[]") !=
                                std::string::npos)
            return who + ": probes: '" + name + "' is not a signal name";
        out.probes[term] = name;
    }
    return "";
}

}  // namespace

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string load_map(const std::string& path, const std::string& where, json& map) {
    std::ifstream in(path);
    if (!in) return where + ": cannot read the map file (does it exist?)";
    return parse_map(read_text(path), where, map);
}

std::string read_counter_map(const json& map, const fs::path& base, const std::string& where, CounterMap& out) {
    try {
        for (const auto& [key, value] : map.items())
            if (key != "block" && key != "sources" && key != "parameters" && key != "ports" && key != "ties")
                return where + ": unknown key '" + key + "' (known: block, sources, parameters, ports, ties)";
        std::string error;
        const std::string block = map.contains("block") ? text_at(map, "block", where, error, "\"credit_counter\"") : "credit_counter";
        if (!error.empty()) return error;
        if (block != "credit_counter" && block != "credit_counters")
            return where + ": block '" + block + "': a counter map's block is credit_counter (one counter, in every pool's place) "
                   "or credit_counters (one module holding every pool's counter)";
        out.array = block == "credit_counters";
        const auto& names = out.array ? kArrayNames : kCounterNames;
        if (!map.contains("sources")) return where + ": no \"sources\" naming your RTL";

        // ---- sources, as Verilator takes them
        if (auto e = read_sources(map["sources"], base, where, out.sources); !e.empty()) return e;

        // ---- parameters
        const json params = object_at(map, "parameters", where, error, "an object, {\"NumCredits\": \"B\"}");
        for (const auto& [name, value] : params.items()) {
            out.parameters.push_back({name, map_value(value, names, where + ": parameters: " + name, error)});
            if (!error.empty()) return error;
        }

        // ---- the roles, as the map gives them (the module's ports are checked once it is read)
        static const std::vector<std::string> kRoles = {"clock", "reset", "send", "credit_return", "can_send",
                                                        "credits", "init", "withhold"};
        if (!map.contains("ports") || !map["ports"].is_object()) return where + ": no \"ports\" object mapping the roles";
        for (const auto& [role, value] : map["ports"].items()) {
            const bool sender_role = std::find(kVcSenderRoles.begin(), kVcSenderRoles.end(), role) != kVcSenderRoles.end();
            if (sender_role && !out.array)
                return where + ": role " + role + " is a per-channel sender's: its map's block is credit_counters";
            if (std::find(kRoles.begin(), kRoles.end(), role) == kRoles.end() && !sender_role)
                return where + ": unknown role '" + role + "' (roles: clock, reset, send, credit_return, can_send, credits, init, withhold" +
                       (out.array ? "; a sender's: push_valid, push_ready, push_data, request, can_grant, grant, out_valid, out_vc, out_data)" : ")");
            Role r;
            if (value.is_string()) {
                r.port = value.get<std::string>();
            } else if (value.is_object()) {
                for (const auto& [k, v] : value.items())
                    if (k != "port" && k != "valid" && k != "active" && k != "kind" && k != "tie" && k != "value")
                        return where + ": role " + role + ": unknown key '" + k + "' (port, valid, active, kind, tie, value)";
                const std::string at = where + ": role " + role;
                r.port = text_at(value, "port", at, error);
                r.valid = text_at(value, "valid", at, error);
                if (value.contains("active")) r.active = text_at(value, "active", at, error, "\"low\" or \"high\"");
                if (value.contains("kind")) r.kind = text_at(value, "kind", at, error, "\"async\" or \"sync\"");
                if (!error.empty()) return error;
                for (const char* held : {"tie", "value"}) {
                    if (!value.contains(held)) continue;
                    std::string e;
                    r.value = map_value(value[held], names, where + ": role " + role + ": " + held, e);
                    if (!e.empty()) return e;
                }
            } else {
                return where + ": role " + role + ": give a port name or {\"port\": ...}";
            }
            if (r.port == "?" || r.valid == "?") return unplaced(where, role);
            if (r.port.empty()) return where + ": role " + role + " names no port";
            if ((r.active != "low" && r.active != "high") || (r.kind != "async" && r.kind != "sync"))
                return where + ": role reset: active is low or high, kind is async or sync";
            out.roles[role] = r;
        }
        // A sender that owns the flit mux pushes per channel and launches the flit; a counter is sent to.
        out.sender = out.roles.count("push_valid") > 0;
        const std::vector<std::string> needed =
            out.sender ? std::vector<std::string>{"clock", "reset", "credit_return", "push_ready", "push_data", "out_valid", "out_vc", "out_data"}
                       : std::vector<std::string>{"clock", "reset", "send", "credit_return"};
        for (const auto& role : needed)
            if (!out.roles.count(role))
                return where + ": role " + role + " is not mapped" + (out.sender ? " (a sender that takes push_valid launches its own flits)" : "");
        if (out.sender && out.roles.count("send"))
            return where + ": role send is a counter's: a sender takes its flits through push_valid, push_ready and push_data";
        if (out.roles.count("grant") != out.roles.count("request"))
            return where + ": roles request and grant go together: the arbiter grants what the sender requests";
        if (!out.roles.count("credits"))
            return where + ": role credits is not mapped: the checks need the counter's count (a port wide enough for B)";

        // ---- the ties' values (their ports are checked once the module is read)
        if (auto e = read_ties(map.value("ties", json::object()), names, where, out.ties); !e.empty()) return e;
    } catch (const json::exception& e) {
        return where + ": a value has the wrong type (" + std::string(e.what()) + ")";
    }
    return "";
}

std::string read_link_map(const json& map, const fs::path& base, const std::string& where, LinkMap& out) {
    try {
        for (const auto& [key, value] : map.items())
            if (key != "block" && key != "sources" && key != "sender" && key != "receiver" && key != "return_latency" &&
                key != "credits_on_arrival" && key != "sender_fifo_latency" && key != "lockstep")
                return where + ": unknown key '" + key +
                       "' (block, sources, sender, receiver, return_latency, credits_on_arrival, sender_fifo_latency, lockstep)";
        if (map.contains("lockstep")) {
            const json& l = map["lockstep"];
            if (l.is_boolean() && !l.get<bool>()) {
                out.lockstep_signals = 0u;
            } else if (l.is_array()) {
                uint32_t mask = 0;
                for (const auto& name : l) {
                    if (!name.is_string()) return where + ": lockstep: give signal names in quotes, not " + name.dump();
                    const auto signal = lookup_signal(name.get<std::string>());
                    if (!signal) {
                        // The short names are the Observation's fields ("send", "pop_payload").
                        bool found = false;
                        for (const SignalInfo& info : kObservedSignals)
                            if (name.get<std::string>() == info.field) {
                                mask |= 1u << static_cast<int>(info.signal);
                                found = true;
                            }
                        if (!found)
                            return where + ": lockstep: unknown signal '" + name.get<std::string>() +
                                   "' (observed_signals.def's names: send, pop, credits, ...)";
                    } else {
                        mask |= 1u << static_cast<int>(*signal);
                    }
                }
                out.lockstep_signals = mask;
            } else {
                return where + ": lockstep: give a list of signal names, or false";
            }
        }
        if (!map.value("block", json("link")).is_string() || map.value("block", "link") != "link")
            return where + ": block must be \"link\"";
        if (!map.contains("sources")) return where + ": no \"sources\" naming your RTL";
        if (auto e = read_sources(map["sources"], base, where, out.sources); !e.empty()) return e;
        if (auto e = read_side(map, "sender", {"clock", "reset", "in_valid", "in_ready", "in_data", "out_valid", "out_data",
                                               "credit_count"},
                               {"credit_valid", "credits", "init"}, where, out.tx);
            !e.empty())
            return e;
        if (auto e = read_side(map, "receiver", {"clock", "reset", "in_valid", "credit_count"},
                               {"in_data", "out_valid", "out_ready", "out_data", "credit_valid", "slot_freed"}, where, out.rx);
            !e.empty())
            return e;
        // A receiver with its own buffer hands flits to the consumer (out_valid, out_ready,
        // out_data); one of credit logic only is told when a slot is freed, and creditloop
        // supplies the buffer (fed by what the receiver passes on, else straight from the link).
        const auto& rx = out.rx.ports;
        if (rx.count("out_ready") && rx.count("slot_freed"))
            return where + ": receiver: map out_ready (a receiver with its own buffer) or slot_freed (credit logic only: "
                           "creditloop supplies the buffer), not both";
        if (!rx.count("slot_freed"))
            for (const char* role : {"in_data", "out_valid", "out_ready", "out_data"})
                if (!rx.count(role))
                    return where + ": receiver: role " + role + " is not mapped (a receiver of credit logic only, with no "
                           "buffer, maps slot_freed instead of out_ready: a slot freed downstream, and creditloop supplies the buffer)";
        long latency = 0;
        if (map.contains("return_latency") && !whole_value(map["return_latency"], latency))
            return where + ": return_latency must be 0..64 cycles";
        if (latency < 0 || latency > 64) return where + ": return_latency must be 0..64 cycles";
        out.return_latency = static_cast<int>(latency);
        if (map.contains("credits_on_arrival")) {
            if (!map["credits_on_arrival"].is_boolean())
                return where + ": credits_on_arrival: give true (your sender spends a credit in the cycle it arrives) or false";
            out.credits_on_arrival = map["credits_on_arrival"].get<bool>();
        }
        // A sender with a FIFO of its own in front of its credit check: a flit taken from the
        // source in cycle t can go onto the link from t + latency.
        if (map.contains("sender_fifo_latency")) {
            long fifo = 0;
            if (!whole_value(map["sender_fifo_latency"], fifo) || fifo < 0 || fifo > 8)
                return where + ": sender_fifo_latency must be 0..8 cycles (from a flit taken by your sender's FIFO to the first "
                               "cycle it can go onto the link: 1 for a registered FIFO, 0 for one that falls through)";
            out.sender_fifo_latency = static_cast<int>(fifo);
        }
    } catch (const json::exception& e) {
        return where + ": a value has the wrong type (" + std::string(e.what()) + ")";
    }
    return "";
}

std::string read_rtl_map(const json& map, const fs::path& base, const std::string& where, UserSources& user_sources) {
    try {
        if (!map.value("block", json("")).is_string() || map.value("block", "") != "credit_link")
            return where + ": block must be \"credit_link\" (a whole link to creditloop's contract; a sender and a receiver of "
                           "your own take --link)";
        for (const auto& [key, value] : map.items())
            if (key != "block" && key != "sources") return where + ": unknown key '" + key + "' (block, sources)";
        if (!map.contains("sources")) return where + ": no \"sources\" naming your RTL";
        if (auto e = read_sources(map["sources"], base, where, user_sources); !e.empty()) return e;
        if (!user_sources.top.empty() && user_sources.top != "credit_link")
            return where + ": the top must be credit_link (its ports and internal names are creditloop's contract)";
    } catch (const json::exception& e) {
        return where + ": a value has the wrong type (" + std::string(e.what()) + ")";
    }
    return "";
}

}  // namespace creditloop::port_map_detail

namespace creditloop {

using namespace port_map_detail;

std::string check_map_text(MapKind kind, const std::string& text, const std::string& base, const std::string& where) {
    json map;
    if (auto e = parse_map(text, where, map); !e.empty()) return e;
    switch (kind) {
    case MapKind::counter: {
        CounterMap counter;
        return read_counter_map(map, base, where, counter);
    }
    case MapKind::link: {
        LinkMap link;
        return read_link_map(map, base, where, link);
    }
    case MapKind::rtl: {
        UserSources user_sources;
        return read_rtl_map(map, base, where, user_sources);
    }
    }
    return "";
}

}  // namespace creditloop
