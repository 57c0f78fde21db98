// `creditloop map`'s reading (port_map_guess.h): your files read with Verilator, the kind of map
// and its modules chosen, each module's roles guessed (port_map_guess_roles.cpp), and what the
// logic behind a link's ports says of its loop.
#include "port_map_guess.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "port_map_detail.h"

namespace creditloop {

using namespace port_map_detail;

namespace {

// The port a side's role was placed on, or "".
std::string port_of(const GuessedSide& side, const std::string& role) {
    for (const auto& e : side.ports)
        if (e.key == role) return e.value.is_object() ? e.value.value("port", "") : e.value.get<std::string>();
    return "";
}

std::string relative_to(const std::string& path, const std::string& dir) {
    namespace fs = std::filesystem;
    const fs::path from = fs::absolute(dir).lexically_normal();
    const fs::path rel = fs::absolute(path).lexically_normal().lexically_relative(from);
    return rel.empty() ? fs::absolute(path).lexically_normal().string() : rel.string();
}

}  // namespace

std::string guess_map(const DutSources& sources, const MapRequest& request, GuessedMap& out) {
    namespace fs = std::filesystem;
    std::error_code ec;
    UserSources user;
    user.args = {"-Wno-fatal"};
    nlohmann::ordered_json src;
    for (const auto& f : request.files) {
        if (!fs::is_regular_file(f, ec)) return "map: no such file: " + f + " (give the paths of your RTL files)";
        user.files.push_back(fs::absolute(f).lexically_normal().string());
        src["files"].push_back(relative_to(f, request.map_dir));
    }
    for (const auto& d : request.incdirs) {
        if (!fs::is_directory(d, ec)) return "map: -I " + d + ": no such directory (give an include directory of your RTL)";
        user.args.push_back("+incdir+" + fs::absolute(d).lexically_normal().string());
        src["incdirs"].push_back(relative_to(d, request.map_dir));
    }
    for (const auto& d : request.defines) {
        const auto eq = d.find('=');
        user.args.push_back("+define+" + d);
        if (eq == std::string::npos) src["defines"][d] = nullptr;
        else src["defines"][d.substr(0, eq)] = d.substr(eq + 1);
    }
    for (const auto& l : request.file_lists) {
        if (!fs::is_regular_file(l, ec)) return "map: -f " + l + ": no such file list (give a Verilator file list)";
        // -F: the list's own relative paths from the list's folder, as the map will read it.
        user.args.insert(user.args.end(), {"-F", fs::absolute(l).lexically_normal().string()});
        src["file_lists"].push_back(relative_to(l, request.map_dir));
    }
    if (user.files.empty() && request.file_lists.empty()) return "map: no RTL files: give them (creditloop map FILE.sv...)";
    std::vector<UserModule> modules;
    std::vector<std::string> warnings;
    if (auto e = read_modules(sources, user, "map", modules, warnings); !e.empty()) {
        if (e.find("No top level module") != std::string::npos) modules.clear();
        else return e + " (fix the RTL, or give -I DIR / -D NAME=VALUE / -f LIST as Verilator needs them)";
    }
    for (const auto& w : warnings)
        if (w.find("MULTITOP") == std::string::npos) out.warnings.push_back(w);
    if (modules.empty()) return "map: no module in your files: give the files that hold your counter or link";
    std::string names;
    for (const auto& m : modules) names += (names.empty() ? "" : ", ") + m.name;
    const auto find = [&](const std::string& name) -> const UserModule* {
        for (const auto& m : modules)
            if (m.name == name) return &m;
        return nullptr;
    };
    for (const auto* given : {&request.top, &request.sender, &request.receiver})
        if (!given->empty() && !find(*given)) return "map: no module " + *given + " in your files (modules: " + names + ")";
    std::vector<const UserModule*> tops;
    for (const auto& m : modules)
        if (!m.instantiated) tops.push_back(&m);

    out.kind = request.kind;
    if (!out.kind.empty()) {
        out.kind_why = "--kind " + out.kind;
    } else if (!request.sender.empty() || !request.receiver.empty()) {
        out.kind = "link", out.kind_why = "--sender/--receiver given";
    } else if (!request.top.empty() || tops.size() == 1) {
        out.kind = "counter", out.kind_why = request.top.empty() ? "one top module" : "--top given";
    } else if (tops.size() == 2) {
        out.kind = "link", out.kind_why = "two top modules: a sender and a receiver";
    } else {
        return "map: your files have " + std::to_string(tops.size()) + " modules nobody instantiates (" + names +
               "): name yours with --top NAME (a counter) or --sender NAME --receiver NAME (a link)";
    }
    out.sources = src;
    if (out.kind == "counter" || out.kind == "counters") {
        const UserModule* m = !request.top.empty() ? find(request.top) : tops.size() == 1 ? tops.front() : nullptr;
        if (!m) return "map: which module is your counter? name it with --top NAME (modules: " + names + ")";
        out.sources["top"] = m->name;
        out.default_name = m->name + ".map.json";
        // Every channel's counters in one module, when a parameter sizes its ports per channel.
        if (auto e = guess_counters(sources, user, *m, request.kind, out); !e.empty()) return e;
        if (out.kind == "counter") out.sides = {guess_side(*m, GuessKind::counter)};
        return "";
    }
    const UserModule* tx = request.sender.empty() ? nullptr : find(request.sender);
    const UserModule* rx = request.receiver.empty() ? nullptr : find(request.receiver);
    std::vector<const UserModule*> rest;
    for (const auto* m : tops)
        if (m != tx && m != rx) rest.push_back(m);
    if (!tx && !rx) {
        if (rest.size() != 2)
            return "map: a link is two modules, a sender and a receiver: name them with --sender NAME --receiver NAME (modules: " +
                   names + ")";
        const bool first = sender_evidence(*rest[0]) >= sender_evidence(*rest[1]);
        tx = first ? rest[0] : rest[1];
        rx = first ? rest[1] : rest[0];
        out.sides_why = "sender " + tx->name + ", receiver " + rx->name +
                        ": from their names and which one takes credits in (swap them if it is the other way)";
    } else if (!tx || !rx) {
        if (rest.size() != 1)
            return "map: name both sides of your link: --sender NAME --receiver NAME (modules: " + names + ")";
        (tx ? rx : tx) = rest.front();
        out.sides_why = "sender " + tx->name + ", receiver " + rx->name + ": the other module of your files";
    } else {
        out.sides_why = "sender " + tx->name + ", receiver " + rx->name + ": as given";
    }
    out.sides = {guess_side(*tx, GuessKind::sender), guess_side(*rx, GuessKind::receiver)};
    // What the ports' logic says of the loop: a credit the receiver returns through logic alone
    // from one of its inputs adds no cycle, one that comes from flops adds at least one; a
    // sender's ready that reads the credits coming in spends them in the cycle they arrive.
    const std::string returned = port_of(out.sides[1], "credit_count");
    if (!returned.empty()) {
        std::set<std::string> inputs;
        for (const auto& [name, port] : rx->ports)
            if (port.direction == "input" && !rx->edges.count(name)) inputs.insert(name);
        const bool direct = reaches(*rx, returned, inputs);
        out.return_latency = direct ? 0 : 1;
        out.latency_why = direct ? returned + " is logic of " + rx->name + "'s inputs (no flop between)"
                                 : returned + " comes from a flop of " + rx->name + " (at least one cycle; more if it waits longer)";
    }
    const std::string ready = port_of(out.sides[0], "in_ready");
    std::set<std::string> arriving;
    for (const char* role : {"credit_count", "credit_valid"})
        if (!port_of(out.sides[0], role).empty()) arriving.insert(port_of(out.sides[0], role));
    if (!ready.empty() && !arriving.empty()) {
        out.credits_on_arrival = reaches(*tx, ready, arriving);
        out.arrival_why = ready + (out.credits_on_arrival ? " reads " : " does not read ") + "the credits coming in (" +
                          *arriving.begin() + ") through logic alone";
    }
    // A flit that cannot go onto the link in the cycle the source offers it waits in the sender:
    // a FIFO in front of its credit check.
    const std::string in_valid = port_of(out.sides[0], "in_valid"), out_valid = port_of(out.sides[0], "out_valid");
    if (!in_valid.empty() && !out_valid.empty() && !reaches(*tx, out_valid, {in_valid})) {
        out.sender_fifo = true;
        out.fifo_why = out_valid + " is not logic of " + in_valid + ": the flits " + tx->name + " takes wait in it (a FIFO)";
    }
    out.default_name = tx->name + "_" + rx->name + ".map.json";
    return "";
}

std::vector<std::string> GuessedMap::unplaced() const {
    std::vector<std::string> all;
    for (size_t i = 0; i < sides.size(); ++i)
        for (const auto& role : sides[i].unplaced)
            all.push_back(kind == "link" ? std::string(i == 0 ? "sender." : "receiver.") + role : role);
    return all;
}

}  // namespace creditloop
