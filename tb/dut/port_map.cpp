// Your own RTL through a port map (port_map.h): a counter behind a generated credit_counter
// wrapper, or a whole link preprocessed into one credit_link.sv, each checked against its
// module's ports and put into the RTL set (a sender and receiver: port_map_link.cpp).
#include "port_map.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "map_expression.h"
#include "mutant_patch.h"
#include "observed_tops.h"
#include "port_map_detail.h"

namespace creditloop {

using namespace port_map_detail;

namespace port_map_detail {

std::vector<std::string> write_block_files(const DutSources& sources, const std::string& prefix,
                                           const std::vector<std::pair<std::string, std::string>>& files) {
    uint64_t hash = 0xcbf29ce484222325ull;
    for (const auto& [name, text] : files)
        for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ull;
    const fs::path dir = fs::path(sources.build_root) / "blocks" / fmt::format("{}{:016x}", prefix, hash);
    fs::create_directories(dir);
    std::vector<std::string> paths;
    for (const auto& [name, text] : files) {
        write_if_changed((dir / name).string(), text);   // whole, and only when it differs: others read it for stamps
        paths.push_back((dir / name).string());
    }
    return paths;
}

std::string patch_mapped_file(const DutSources& sources, const std::string& mutant, const std::string& where,
                              UserSources& user_sources) {
    if (mutant.empty()) return "";
    const std::string what = where + ": --mutant " + mutant;
    std::error_code ec;
    if (!fs::is_regular_file(mutant, ec)) return what + ": no such file: give the path of a .mutant patch of one of the map's files";
    const std::string replaces = mutant_replaces(mutant);
    if (replaces.empty())
        return what + ": no '// creditloop-mutant: replaces=<file>' line: add one naming the map's file it patches";
    std::vector<size_t> named;
    std::string names;
    for (size_t i = 0; i < user_sources.files.size(); ++i) {
        const std::string name = fs::path(user_sources.files[i]).filename().string();
        names += (names.empty() ? "" : ", ") + name;
        if (name == replaces) named.push_back(i);
    }
    if (named.empty())
        return what + ": replaces=" + replaces + " names no file of the map (its files: " + names +
               "): fix replaces=, or give the map of the design the patch is for";
    if (named.size() > 1)
        return what + ": replaces=" + replaces + " names " + std::to_string(named.size()) +
               " of the map's files: rename one of them so the patch says which";
    const fs::path original = user_sources.files[named.front()];
    // Keyed by the patch and the file it patches, so two patches of the same name never share a file.
    uint64_t hash = 0xcbf29ce484222325ull;
    for (unsigned char c : fs::absolute(mutant).string() + "\n" + fs::absolute(original).string())
        hash = (hash ^ c) * 0x100000001b3ull;
    const fs::path dir = fs::path(sources.build_root) / "mutants" / "maps" / fmt::format("{:016x}", hash);
    std::string error;
    if (apply_mutant(mutant, original.parent_path().string(), error).empty())
        return where + ": the patch does not apply: " + error;
    const std::string built = build_mutant(mutant, original.parent_path().string(), dir.string(), error);
    if (built.empty()) return where + ": --mutant " + mutant + ": " + error;
    user_sources.files[named.front()] = built;
    // An `include the original finds beside itself, the patched file finds there too.
    user_sources.args.push_back("+incdir+" + original.parent_path().string());
    return "";
}

std::string claim_roles(const UserModule& user, const std::map<std::string, Role>& roles, const std::string& where,
                        std::map<std::string, std::string>& used) {
    const auto claim = [&](const std::string& port, const std::string& role, const std::string& direction) -> std::string {
        const auto it = user.ports.find(port);
        if (it == user.ports.end())
            return where + ": role " + role + " names port '" + port + "', which module " + user.name + " does not have";
        if (it->second.direction != direction)
            return where + ": role " + role + " needs an " + direction + ", but " + port + " is an " + it->second.direction;
        const auto [at, fresh] = used.insert({port, role});
        return fresh ? "" : where + ": port " + port + " is mapped to both " + at->second + " and " + role;
    };
    for (const auto& [role, r] : roles) {
        if (auto e = claim(r.port, role, output_role(role) ? "output" : "input"); !e.empty()) return e;
        if (!r.valid.empty())
            if (auto e = claim(r.valid, role + ".valid", "input"); !e.empty()) return e;
    }
    return "";
}

std::string claim_ties(const UserModule& user, const std::map<std::string, std::string>& ties, const std::string& where,
                       std::map<std::string, std::string>& used) {
    for (const auto& [name, value] : ties) {
        const auto port = user.ports.find(name);
        if (port == user.ports.end() || port->second.direction != "input")
            return where + ": ties: " + name + " is not an input of " + user.name;
        if (used.count(name)) return where + ": ties: " + name + " is already mapped to " + used[name];
        used[name] = "tie";
    }
    for (const auto& [name, port] : user.ports)
        if (port.direction == "input" && !used.count(name))
            return where + ": input " + name + " of " + user.name + " has no role: map it or tie it (\"ties\": {\"" + name +
                   "\": 0})";
    return "";
}

void put_in_rtl_set(DutSources& sources, const std::vector<std::string>& written) {
    if (sources.rtl_files.empty())
        for (const auto& entry : fs::directory_iterator(fs::path(sources.source_root) / "rtl"))
            if (entry.path().extension() == ".sv") sources.rtl_files.push_back(entry.path().string());
    const std::string replaced = fs::path(written.front()).filename().string();
    for (auto& file : sources.rtl_files)
        if (fs::path(file).filename() == replaced) file = written.front();
    sources.rtl_files.insert(sources.rtl_files.end(), written.begin() + 1, written.end());
    std::sort(sources.rtl_files.begin(), sources.rtl_files.end(), [](const std::string& a, const std::string& b) {
        const bool a_top = fs::path(a).filename() == "credit_link.sv";
        const bool b_top = fs::path(b).filename() == "credit_link.sv";
        return a_top != b_top ? a_top : a < b;
    });
}

}  // namespace port_map_detail

// Inside a counter's wrapper the map's B is the contract's MAXC.
const std::map<std::string, std::string> kMaxc = {{"B", "MAXC"}};

std::string swap_mapped_counter(DutSources& sources, const std::string& map_path, int buffer_slots, bool werror,
                                SwappedBlock& swapped, const std::string& mutant) {
    const std::string where = "--counter " + map_path;
    json map;
    if (auto e = load_map(map_path, where, map); !e.empty()) return e;
    const fs::path base = fs::absolute(map_path).parent_path();
    const int count = clog2_plus1(buffer_slots);
    CounterMap counter_map;
    if (auto e = read_counter_map(map, base, where, counter_map); !e.empty()) return e;
    if (auto e = patch_mapped_file(sources, mutant, where, counter_map.sources); !e.empty()) return e;
    if (counter_map.array) return swap_mapped_array(sources, map_path, counter_map, buffer_slots, werror, swapped);
    const UserSources& user_sources = counter_map.sources;
    const std::string top = user_sources.top;
    const auto& parameters = counter_map.parameters;
    try {
        // ---- read the module: preprocess once, then its ports at this B
        std::string text;
        UserModule user;
        {
            std::map<std::string, std::string> values;
            for (const auto& [name, expr] : parameters) {
                const auto value = evaluate_map_expression(expr, {{"B", buffer_slots}});
                if (!value)
                    return where + ": parameters: " + name + ": '" + expr + "' has no value at B = " +
                           std::to_string(buffer_slots) + " (it divides by zero)";
                values[name] = std::to_string(*value);
            }
            if (auto e = read_module(sources, user_sources, top, values, werror, where, text, user, swapped.warnings); !e.empty())
                return e;
        }

        // ---- the roles against the module's ports
        std::map<std::string, Role>& roles = counter_map.roles;
        std::map<std::string, std::string> used;   // port -> role
        if (auto e = claim_roles(user, roles, where, used); !e.empty()) return e;

        // ---- widths
        const int return_width = user.ports[roles["credit_return"].port].width;
        if (return_width != 1 && return_width < count)
            return where + ": credit_return port " + roles["credit_return"].port + " is " + std::to_string(return_width) +
                   " bits: one bit (a credit a cycle) or a count that can hold B = " + std::to_string(buffer_slots) + " (" +
                   std::to_string(count) + " bits)";
        if (roles.count("credits") && user.ports[roles["credits"].port].width < count)
            return where + ": credits port " + roles["credits"].port + " is " + std::to_string(user.ports[roles["credits"].port].width) +
                   " bits, too narrow for B = " + std::to_string(buffer_slots) + " (needs " + std::to_string(count) + ")";
        swapped.single_credit_return = return_width == 1;
        swapped.synchronous_reset = roles["reset"].kind == "sync";

        // ---- every other input tied
        std::map<std::string, std::string> ties = counter_map.ties;
        if (auto e = claim_ties(user, ties, where, used); !e.empty()) return e;

        // ---- the wrapper: credit_counter's contract on the outside, the user's module inside
        std::ostringstream w;
        w << "// Generated by creditloop from " << fs::absolute(map_path).string() << ": credit_link's credit_counter,\n"
          << "// implemented by " << user.name << " through the roles its map names. Its RTL is unchanged.\n"
          << "module credit_counter #(\n  parameter int MAXC = 8,\n  parameter int RETURN_WIDTH = $clog2(MAXC + 1),\n"
          << "  parameter int TAKE_WIDTH = 1   // > 1: a packet asks its credits at once (the multi-channel link)\n) (\n"
          << "  input  logic clk, rst_n,\n  input  logic [RETURN_WIDTH-1:0] credit_return,\n"
          << "  /* verilator lint_off UNUSEDSIGNAL */\n  input  logic [TAKE_WIDTH-1:0] want_send,\n"
          << "  input  logic [$clog2(MAXC+1)-1:0] init_credits,\n"
          << "  /* verilator lint_on UNUSEDSIGNAL */\n  output logic can_send, do_send,\n"
          << "  output logic [$clog2(MAXC+1)-1:0] credits\n);\n"
          << "  // The user's ports are as wide as their parameters make them at each B: every connection\n"
          << "  // here is unsized, and Verilator widens or narrows it (WIDTH is expected, not a finding).\n"
          << "  /* verilator lint_off WIDTH */\n";
        // want_send asks a packet's credits (one, or TAKE_WIDTH bits of them). A one-bit take
        // sends packets of one credit. A count takes them all at once, sent when the counter is
        // ready for what is asked; a ready of a valid/ready handshake answers only while valid
        // asks (it may depend on it), so with nothing asked, and for a packet of several credits,
        // "can send" is the count's (credits != 0), as credit_counter's.
        const bool count_send = !roles["send"].valid.empty();
        const std::string ready = roles.count("can_send") ? "user_can_send" : "(credits >= want_send)";
        const std::string can = !roles.count("can_send") ? "(credits != '0)"
                                : !count_send            ? "user_can_send"
                                                         : "(want_send == TAKE_WIDTH'(1) ? user_can_send : credits != '0)";
        if (roles.count("can_send")) w << "  logic user_can_send;\n";
        if (roles.count("credits")) w << "  logic [31:0] user_credits;\n";
        w << "  assign can_send = " << can << ";\n  assign do_send = "
          << (count_send ? "want_send != '0 && " + ready : std::string("want_send == TAKE_WIDTH'(1) && can_send")) << ";\n";
        if (roles.count("credits"))
            w << "  assign credits = $clog2(MAXC+1)'(user_credits);\n";
        else
            w << "  assign credits = user_can_send ? $clog2(MAXC+1)'(1) : '0;   // no count mapped: at least one, or none\n";
        w << "  " << user.name;
        if (!parameters.empty()) {
            w << " #(";
            for (size_t i = 0; i < parameters.size(); ++i)
                w << (i ? ", " : "") << "." << parameters[i].first << "(" << map_expression_sv(parameters[i].second, kMaxc) << ")";
            w << ")";
        }
        w << " u_dut (\n";
        std::vector<std::string> connections;
        const Role& reset = roles["reset"];
        connections.push_back("." + roles["clock"].port + "(clk)");
        connections.push_back("." + reset.port + (reset.active == "low" ? "(rst_n)" : "(!rst_n)"));
        const Role& send = roles["send"];
        if (send.valid.empty()) {
            connections.push_back("." + send.port + "(do_send)");
        } else {
            // With a ready (can_send), a valid/ready handshake: valid asks whatever ready says, so a
            // ready that depends on valid makes no loop, and the send is valid && ready. Without
            // one, the valid is the take itself.
            connections.push_back("." + send.valid + (roles.count("can_send") ? "(want_send != '0)" : "(do_send)"));
            connections.push_back("." + send.port + "(want_send)");
        }
        const Role& ret = roles["credit_return"];
        const std::string returned = swapped.single_credit_return ? "credit_return[0]" : "credit_return";
        connections.push_back("." + ret.port + "(" + returned + ")");
        if (!ret.valid.empty()) connections.push_back("." + ret.valid + "(credit_return != '0)");
        if (roles.count("can_send")) connections.push_back("." + roles["can_send"].port + "(user_can_send)");
        if (roles.count("credits")) connections.push_back("." + roles["credits"].port + "(user_credits)");
        for (const char* held : {"init", "withhold"}) {
            if (!roles.count(held)) continue;
            const Role& r = roles[held];
            connections.push_back("." + r.port + "(" + map_expression_sv(r.value.empty() ? "0" : r.value, kMaxc) + ")");
        }
        for (const auto& [name, value] : ties) connections.push_back("." + name + "(" + map_expression_sv(value, kMaxc) + ")");
        for (size_t i = 0; i < connections.size(); ++i) w << "    " << connections[i] << (i + 1 < connections.size() ? ",\n" : "\n");
        w << "  );\n  /* verilator lint_on WIDTH */\nendmodule\n";

        // ---- into the RTL set: the wrapper in place of credit_counter.sv, the preprocessed RTL beside it
        const auto written = write_block_files(sources, "", {{"credit_counter.sv", w.str()}, {user.name + "_preprocessed.sv", text}});
        put_in_rtl_set(sources, written);
        swapped.module = user.name;
        swapped.single_credit_send = !count_send;
    } catch (const json::exception& e) {
        return where + ": a value has the wrong type (" + std::string(e.what()) + ")";
    }
    return "";
}

std::string use_rtl_map(DutSources& sources, const std::string& map_path, bool werror, std::vector<std::string>& warnings,
                        const std::string& mutant) {
    const std::string where = "--rtl " + map_path;
    json map;
    if (auto e = load_map(map_path, where, map); !e.empty()) return e;
    UserSources user_sources;
    if (auto e = read_rtl_map(map, fs::absolute(map_path).parent_path(), where, user_sources); !e.empty()) return e;
    if (auto e = patch_mapped_file(sources, mutant, where, user_sources); !e.empty()) return e;
    try {
        std::string text;
        UserModule top;
        if (auto e = read_module(sources, user_sources, "credit_link", {}, werror, where, text, top, warnings); !e.empty())
            return e;
        sources.rtl_files = write_block_files(sources, "rtl_", {{"credit_link.sv", text}});
    } catch (const json::exception& e) {
        return where + ": a value has the wrong type (" + std::string(e.what()) + ")";
    }
    return "";
}

}  // namespace creditloop
