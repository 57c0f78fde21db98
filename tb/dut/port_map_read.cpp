// A port map's JSON read and checked before any of your RTL is (port_map_detail.h): the keys, the
// sources and that their files exist, the parameters, the roles' shape, ties and lockstep names,
// for each kind of map; check_map_text (port_map.h) runs these alone. Nothing runs, nothing is written.
#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

#include "map_expression.h"
#include "observation.h"
#include "port_map.h"
#include "port_map_detail.h"

namespace creditloop::port_map_detail {

namespace {

// A value the map gives at `where` (a parameter, a tie, a role's value): a whole number, or an
// expression of `names` ("B", "B-1", "2*L"). Its canonical text, or "" and one line in `error`
// naming where and the form expected.
std::string map_value(const json& value, const std::vector<std::string>& names, const std::string& where, std::string& error) {
    std::string forms;
    for (const auto& n : names) forms += (forms.empty() ? "" : ", ") + n;
    const std::string expected = where + ": give a whole number or an expression of " + forms + " (\"" + names.front() +
                                 "\", \"" + names.front() + "-1\")";
    if (value.is_number_integer()) {
        if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<long>::max())) {
            error = expected + ": " + value.dump() + " is too large";
            return "";
        }
        return std::to_string(value.get<long>());
    }
    if (!value.is_string()) {
        error = expected + ", not " + value.dump();
        return "";
    }
    std::string canonical;
    if (auto problem = check_map_expression(value.get<std::string>(), names, canonical); !problem.empty()) {
        error = expected + ": '" + value.get<std::string>() + "': " + problem;
        return "";
    }
    return canonical;
}

const std::vector<std::string> kCounterNames = {"B"};

// A role left as "?" (creditloop map could not place it): one line saying so.
std::string unplaced(const std::string& who, const std::string& role) {
    return who + ": role " + role + " is \"?\" (creditloop map could not place it): name the port that plays it";
}
const std::vector<std::string> kLinkNames = {"B", "L", "W"};

// A map's "ties" object: each input and the value it is held at.
std::string read_ties(const json& ties, const std::vector<std::string>& names, const std::string& where,
                      std::map<std::string, std::string>& out) {
    if (!ties.is_object()) return where + ": ties: give an object {\"port\": value}";
    for (const auto& [name, value] : ties.items()) {
        std::string error;
        out[name] = map_value(value, names, where + ": ties: " + name, error);
        if (!error.empty()) return error;
    }
    return "";
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

// A whole number the map gives (a tie, a latency): a JSON integer that fits a long. nlohmann
// would convert a float with a plain cast, undefined behaviour beyond long's range (fuzz_port_map
// found "ties": {"x": 1e300}), and a large unsigned one would wrap.
bool whole_value(const json& value, long& out) {
    if (!value.is_number_integer()) return false;
    if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<long>::max()))
        return false;
    out = value.get<long>();
    return true;
}

std::string read_sources(const json& src, const fs::path& base, const std::string& where, UserSources& out) {
    const auto listed = [&](const char* key) { return src.contains(key) && !src[key].empty(); };
    if (!listed("files") && !listed("file_lists"))
        return where + ": no \"sources\": {\"files\": [...]} or {\"file_lists\": [...]} naming your RTL";
    for (const auto& [key, value] : src.items())
        if (key != "files" && key != "incdirs" && key != "defines" && key != "file_lists" && key != "top")
            return where + ": sources: unknown key '" + key + "' (files, incdirs, defines, file_lists, top)";
    out.args = {"-Wno-fatal"};
    // The error_code forms: a path the system refuses (a name too long, a loop of links) is one
    // not found, where the throwing forms would end the program (found by fuzz_port_map).
    std::error_code ec;
    const json incdirs = src.value("incdirs", json::array()), defines = src.value("defines", json::object()),
               lists = src.value("file_lists", json::array());
    // Every path as written, resolved from the map's folder and printed clean (no "a/../b").
    for (const auto& dir : incdirs) {
        const fs::path d = (base / dir.get<std::string>()).lexically_normal();
        if (!fs::is_directory(d, ec)) return where + ": include directory " + d.string() + " not found";
        out.args.push_back("+incdir+" + d.string());
    }
    for (const auto& [name, value] : defines.items())
        out.args.push_back("+define+" + name + (value.is_null() ? "" : "=" + (value.is_string() ? value.get<std::string>() : value.dump())));
    // A list's own relative paths resolve from the list's folder, as everything a map names
    // resolves from where it is written: Verilator's -F (its -f would take the current folder).
    for (const auto& list : lists) {
        const fs::path f = (base / list.get<std::string>()).lexically_normal();
        if (!fs::is_regular_file(f, ec)) return where + ": file list " + f.string() + " not found";
        out.args.insert(out.args.end(), {"-F", f.string()});
    }
    for (const auto& file : src.value("files", json::array())) {
        const fs::path f = (base / file.get<std::string>()).lexically_normal();
        if (!fs::is_regular_file(f, ec)) return where + ": RTL file " + f.string() + " not found";
        out.files.push_back(f.string());
    }
    out.top = src.value("top", "");
    return "";
}

std::string read_side(const json& j, const char* side, const std::vector<std::string>& required,
                      const std::vector<std::string>& optional, const std::string& where, Side& out) {
    const std::string who = where + ": " + side;
    if (!j.contains(side) || !j[side].is_object()) return who + " is not described (module, parameters, ports)";
    const json& s = j[side];
    out.module = s.value("module", "");
    if (out.module.empty()) return who + ": name its \"module\"";
    const json params = s.value("parameters", json::object());
    for (const auto& [name, value] : params.items()) {
        std::string error;
        out.parameters.push_back({name, map_value(value, kLinkNames, who + ": parameters: " + name, error)});
        if (!error.empty()) return error;
    }
    const json ports = s.value("ports", json::object());
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
        } else if (role == "reset" && value.is_object()) {
            out.ports[role] = value.value("port", "");
            out.reset["active"] = value.value("active", "low");
            out.reset["kind"] = value.value("kind", "async");
        } else {
            return who + ": role " + role + ": give a port name";
        }
        if (out.ports[role] == "?") return unplaced(who, role);
    }
    for (const auto& role : required)
        if (!out.ports.count(role)) return who + ": role " + role + " is not mapped";
    if (auto error = read_ties(s.value("ties", json::object()), kLinkNames, who, out.ties); !error.empty()) return error;
    // Optional internal terms, read from inside the module by name (the testbench top reaches
    // in; the module grows no port): the receiver's occupancy and credits held for return.
    const json probes = s.value("probes", json::object());
    for (const auto& [term, signal] : probes.items()) {
        if (std::string(side) != "receiver" || (term != "occupancy" && term != "pending_returns"))
            return who + ": probes: '" + term + "' is not a term creditloop reads (receiver: occupancy, pending_returns)";
        const std::string name = signal.get<std::string>();
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
        if (map.value("block", "credit_counter") != "credit_counter")
            return where + ": block '" + map.value("block", "") + "': only credit_counter takes a map for now";
        if (!map.contains("sources")) return where + ": no \"sources\" naming your RTL";

        // ---- sources, as Verilator takes them
        if (auto e = read_sources(map["sources"], base, where, out.sources); !e.empty()) return e;

        // ---- parameters
        std::string error;
        const json params = map.value("parameters", json::object());
        for (const auto& [name, value] : params.items()) {
            out.parameters.push_back({name, map_value(value, kCounterNames, where + ": parameters: " + name, error)});
            if (!error.empty()) return error;
        }

        // ---- the roles, as the map gives them (the module's ports are checked once it is read)
        static const std::vector<std::string> kRoles = {"clock", "reset", "send", "credit_return", "can_send",
                                                        "credits", "init", "withhold"};
        if (!map.contains("ports") || !map["ports"].is_object()) return where + ": no \"ports\" object mapping the roles";
        for (const auto& [role, value] : map["ports"].items()) {
            if (std::find(kRoles.begin(), kRoles.end(), role) == kRoles.end())
                return where + ": unknown role '" + role + "' (roles: clock, reset, send, credit_return, can_send, credits, init, withhold)";
            Role r;
            if (value.is_string()) {
                r.port = value.get<std::string>();
            } else if (value.is_object()) {
                for (const auto& [k, v] : value.items())
                    if (k != "port" && k != "valid" && k != "active" && k != "kind" && k != "tie" && k != "value")
                        return where + ": role " + role + ": unknown key '" + k + "' (port, valid, active, kind, tie, value)";
                r.port = value.value("port", "");
                r.valid = value.value("valid", "");
                r.active = value.value("active", "low");
                r.kind = value.value("kind", "async");
                for (const char* held : {"tie", "value"}) {
                    if (!value.contains(held)) continue;
                    std::string e;
                    r.value = map_value(value[held], kCounterNames, where + ": role " + role + ": " + held, e);
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
        for (const char* needed : {"clock", "reset", "send", "credit_return"})
            if (!out.roles.count(needed)) return where + ": role " + std::string(needed) + " is not mapped";
        if (!out.roles.count("credits"))
            return where + ": role credits is not mapped: the checks need the counter's count (a port wide enough for B)";

        // ---- the ties' values (their ports are checked once the module is read)
        if (auto e = read_ties(map.value("ties", json::object()), kCounterNames, where, out.ties); !e.empty()) return e;
    } catch (const json::exception& e) {
        return where + ": a value has the wrong type (" + std::string(e.what()) + ")";
    }
    return "";
}

std::string read_link_map(const json& map, const fs::path& base, const std::string& where, LinkMap& out) {
    try {
        for (const auto& [key, value] : map.items())
            if (key != "block" && key != "sources" && key != "sender" && key != "receiver" && key != "return_latency" &&
                key != "credits_on_arrival" && key != "lockstep")
                return where + ": unknown key '" + key +
                       "' (block, sources, sender, receiver, return_latency, credits_on_arrival, lockstep)";
        if (map.contains("lockstep")) {
            const json& l = map["lockstep"];
            if (l.is_boolean() && !l.get<bool>()) {
                out.lockstep_signals = 0u;
            } else if (l.is_array()) {
                uint32_t mask = 0;
                for (const auto& name : l) {
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
        if (map.value("block", "link") != "link") return where + ": block must be \"link\"";
        if (!map.contains("sources")) return where + ": no \"sources\" naming your RTL";
        if (auto e = read_sources(map["sources"], base, where, out.sources); !e.empty()) return e;
        if (auto e = read_side(map, "sender", {"clock", "reset", "in_valid", "in_ready", "in_data", "out_valid", "out_data",
                                               "credit_count"},
                               {"credit_valid", "credits"}, where, out.tx);
            !e.empty())
            return e;
        if (auto e = read_side(map, "receiver", {"clock", "reset", "in_valid", "in_data", "out_valid", "out_ready", "out_data",
                                                 "credit_count"},
                               {"credit_valid"}, where, out.rx);
            !e.empty())
            return e;
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
    } catch (const json::exception& e) {
        return where + ": a value has the wrong type (" + std::string(e.what()) + ")";
    }
    return "";
}

std::string read_rtl_map(const json& map, const fs::path& base, const std::string& where, UserSources& user_sources) {
    try {
        if (map.value("block", "") != "credit_link")
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
