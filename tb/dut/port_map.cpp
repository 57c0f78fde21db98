#include "port_map.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "observation.h"
#include "process.h"

namespace fs = std::filesystem;

namespace creditloop {

namespace {

using nlohmann::json;

struct UserPort {
    std::string direction;
    int width = 1;
};

struct UserModule {
    std::string name;
    std::set<std::string> parameters;
    std::map<std::string, UserPort> ports;
};

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

int clog2_plus1(int value) {
    int bits = 0;
    while ((1LL << bits) < static_cast<long long>(value) + 1) ++bits;
    return bits;
}

// Verilator's %Warning lines (the first line of each), and its first %Error line.
void scan_log(const std::string& log, std::vector<std::string>& warnings, std::string& error) {
    std::istringstream lines(read_text(log));
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("%Warning", 0) == 0 && line.find("Exiting due to") == std::string::npos) warnings.push_back(line);
        if (error.empty() && line.rfind("%Error", 0) == 0) error = line;
    }
}

// One role of the contract as the map gives it: a port name, or an object with "port" and more.
struct Role {
    std::string port;
    std::string valid;          // send / credit_return: the valid that goes with a count
    std::string active = "low"; // reset
    std::string kind = "async"; // reset
    std::optional<long> tie;    // init / withhold: held at this value
    std::string value;          // init: the value given at reset ("B" or a number)
};

std::string parameter_expression(const json& value, const std::string& where, std::string& error) {
    if (value.is_number_integer()) return std::to_string(value.get<long>());
    if (value.is_string()) {
        const std::string v = value.get<std::string>();
        if (v == "B") return "MAXC";
        error = where + ": '" + v + "' is not a contract parameter (B) or a number";
        return "";
    }
    error = where + ": give B or a number";
    return "";
}

// The map's text parsed, or one line saying why not.
std::string parse_map(const std::string& text, const std::string& where, json& map) {
    try {
        map = json::parse(text);
    } catch (const json::exception& e) {
        return where + " is not JSON (" + std::string(e.what()) + ")";
    }
    return "";
}

// The map file parsed, or one line saying why not.
std::string load_map(const std::string& path, const std::string& where, json& map) {
    std::ifstream in(path);
    if (!in) return where + ": cannot read the map file (does it exist?)";
    return parse_map(read_text(path), where, map);
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

// The RTL a map names, as Verilator takes it: files, include directories, defines, file lists.
struct UserSources {
    std::vector<std::string> files;
    std::vector<std::string> args;   // -Wno-fatal, +incdir+, +define+, -f
    std::string top;
};

std::string read_sources(const json& src, const fs::path& base, const std::string& where, UserSources& out) {
    if (!src.contains("files") || src["files"].empty()) return where + ": no \"sources\": {\"files\": [...]} naming your RTL";
    for (const auto& [key, value] : src.items())
        if (key != "files" && key != "incdirs" && key != "defines" && key != "file_lists" && key != "top")
            return where + ": sources: unknown key '" + key + "' (files, incdirs, defines, file_lists, top)";
    out.args = {"-Wno-fatal"};
    // The error_code forms: a path the system refuses (a name too long, a loop of links) is one
    // not found, where the throwing forms would end the program (found by fuzz_port_map).
    std::error_code ec;
    const json incdirs = src.value("incdirs", json::array()), defines = src.value("defines", json::object()),
               lists = src.value("file_lists", json::array());
    for (const auto& dir : incdirs) {
        const fs::path d = base / dir.get<std::string>();
        if (!fs::is_directory(d, ec)) return where + ": include directory " + d.string() + " not found";
        out.args.push_back("+incdir+" + d.string());
    }
    for (const auto& [name, value] : defines.items())
        out.args.push_back("+define+" + name + (value.is_null() ? "" : "=" + (value.is_string() ? value.get<std::string>() : value.dump())));
    for (const auto& list : lists) {
        const fs::path f = base / list.get<std::string>();
        if (!fs::is_regular_file(f, ec)) return where + ": file list " + f.string() + " not found";
        out.args.insert(out.args.end(), {"-f", f.string()});
    }
    for (const auto& file : src["files"]) {
        const fs::path f = base / file.get<std::string>();
        if (!fs::is_regular_file(f, ec)) return where + ": RTL file " + f.string() + " not found";
        out.files.push_back(f.string());
    }
    out.top = src.value("top", "");
    return "";
}

// Preprocess the sources once (`text`: includes and defines resolved, `line directives kept so
// messages name the user's files), then read module `top` (empty: the one module nobody
// instantiates) with its parameters set: its ports and parameters. Verilator's warnings go to
// `warnings`; "" or one error line.
std::string read_module(const DutSources& sources, const UserSources& user_sources, const std::string& top,
                        const std::map<std::string, std::string>& parameters, bool werror, const std::string& where,
                        std::string& text, UserModule& user, std::vector<std::string>& warnings) {
    const fs::path work = fs::path(sources.build_root) / "blocks" / ("map." + std::to_string(::getpid()));
    fs::remove_all(work);
    fs::create_directories(work);
    const fs::path flat = work / "user.sv";
    std::vector<std::string> pre = {"verilator", "-E"};
    pre.insert(pre.end(), user_sources.args.begin(), user_sources.args.end());
    pre.insert(pre.end(), user_sources.files.begin(), user_sources.files.end());
    text.clear();   // run_capture appends
    if (run_capture(pre, text) != 0) {
        // Again with its messages kept: Verilator's first error, as it says it.
        std::vector<std::string> w;
        std::string e;
        const fs::path log = work / "pre.log";
        run_to_log(pre, log.string());
        scan_log(log.string(), w, e);
        return "Verilator cannot read your RTL: " + (e.empty() ? std::string("see ") + log.string() : e);
    }
    std::ofstream(flat) << text;
    const fs::path xml = work / "shape.xml", log = work / "shape.log";
    std::vector<std::string> argv = {"verilator", "--xml-only", "-Wno-fatal", "--xml-output", xml.string()};
    if (!top.empty()) argv.insert(argv.end(), {"--top-module", top});
    for (const auto& [name, value] : parameters) argv.push_back("-G" + name + "=" + value);
    argv.push_back(flat.string());
    std::ofstream(log, std::ios::trunc).close();
    const int status = run_to_log(argv, log.string());
    std::string first_error;
    std::vector<std::string> found;
    scan_log(log.string(), found, first_error);
    for (const auto& w : found)
        if (std::find(warnings.begin(), warnings.end(), w) == warnings.end()) warnings.push_back(w);
    if (status != 0) {
        if (first_error.find("Parameters from the command line were not found") != std::string::npos)
            return where + ": unknown parameter: " + first_error.substr(first_error.rfind(':') + 2) +
                   " (the module has no parameter of that name; fix \"parameters\")";
        if (first_error.find("Multiple top level modules") != std::string::npos)
            return where + ": your files have several top modules: name yours with \"sources\": {\"top\": \"NAME\"}";
        return "Verilator cannot read your RTL: " + first_error;
    }
    if (werror && !warnings.empty()) return "your RTL has warnings and --werror is set: " + warnings.front();
    pugi::xml_document doc;
    if (!doc.load_file(xml.c_str())) return "Verilator wrote no readable XML for your RTL (" + xml.string() + ")";
    std::map<std::string, int> widths;
    for (const auto& node : doc.select_nodes("//typetable/basicdtype")) {
        const auto dtype = node.node();
        const auto left = dtype.attribute("left"), right = dtype.attribute("right");
        widths[dtype.attribute("id").value()] = left ? std::abs(left.as_int() - right.as_int()) + 1 : 1;
    }
    // The top: the one Verilator marks, else the one module nobody instantiates.
    pugi::xml_node top_node = doc.select_node("//netlist/module[@topModule='1']").node();
    if (!top_node) {
        std::set<std::string> instantiated;
        for (const auto& i : doc.select_nodes("//instance")) instantiated.insert(i.node().attribute("defName").value());
        std::vector<pugi::xml_node> tops;
        for (const auto& m : doc.select_nodes("//netlist/module"))
            if (!instantiated.count(m.node().attribute("name").value())) tops.push_back(m.node());
        if (tops.size() != 1)
            return where + ": your files have " + std::to_string(tops.size()) +
                   " modules nobody instantiates: name yours with \"sources\": {\"top\": \"NAME\"}";
        top_node = tops.front();
    }
    user.name = top_node.attribute("name").value();
    for (const auto var : top_node.children("var")) {
        const std::string name = var.attribute("name").value();
        if (var.attribute("param").as_bool()) user.parameters.insert(name);
        const std::string dir = var.attribute("dir").value();
        const auto width = widths.find(var.attribute("dtype_id").value());
        if (!dir.empty()) user.ports[name] = UserPort{dir, width != widths.end() ? width->second : 1};
    }
    fs::remove_all(work);
    return "";
}

}  // namespace

namespace {

// A counter's map as read from its JSON, before any RTL is: its sources, parameters, roles and ties.
struct CounterMap {
    UserSources sources;
    std::vector<std::pair<std::string, std::string>> parameters;   // user name, expression
    std::map<std::string, Role> roles;
    std::map<std::string, long> ties;
};

// The checks that need no RTL (keys, block, sources that exist, parameters, the roles' shape, the
// roles every counter must map, the ties' values): "" or one error line. Nothing runs.
std::string read_counter_map(const json& map, const fs::path& base, const std::string& where, CounterMap& out) {
    try {
        for (const auto& [key, value] : map.items())
            if (key != "block" && key != "sources" && key != "parameters" && key != "ports" && key != "ties")
                return where + ": unknown key '" + key + "' (known: block, sources, parameters, ports, ties)";
        if (map.value("block", "credit_counter") != "credit_counter")
            return where + ": block '" + map.value("block", "") + "': only credit_counter takes a map for now";
        if (!map.contains("sources") || !map["sources"].contains("files") || map["sources"]["files"].empty())
            return where + ": no \"sources\": {\"files\": [...]} naming your RTL";

        // ---- sources, as Verilator takes them
        if (auto e = read_sources(map["sources"], base, where, out.sources); !e.empty()) return e;

        // ---- parameters
        std::string error;
        const json params = map.value("parameters", json::object());
        for (const auto& [name, value] : params.items()) {
            out.parameters.push_back({name, parameter_expression(value, where + " parameter " + name, error)});
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
                if (value.contains("tie")) {
                    long tie = 0;
                    if (!whole_value(value["tie"], tie)) return where + ": role " + role + ": tie is a whole number";
                    r.tie = tie;
                }
                if (value.contains("value")) {
                    std::string e;
                    r.value = parameter_expression(value["value"], where + " role " + role + " value", e);
                    if (!e.empty()) return e;
                }
            } else {
                return where + ": role " + role + ": give a port name or {\"port\": ...}";
            }
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
        const json tie_map = map.value("ties", json::object());
        for (const auto& [name, value] : tie_map.items()) {
            long tie = 0;
            if (!whole_value(value, tie)) return where + ": ties: " + name + " is tied to a whole number";
            out.ties[name] = tie;
        }
    } catch (const json::exception& e) {
        return where + ": a value has the wrong type (" + std::string(e.what()) + ")";
    }
    return "";
}

}  // namespace

std::string swap_mapped_counter(DutSources& sources, const std::string& map_path, int buffer_slots, bool werror,
                                SwappedBlock& swapped) {
    const std::string where = "--counter " + map_path;
    json map;
    if (auto e = load_map(map_path, where, map); !e.empty()) return e;
    const fs::path base = fs::absolute(map_path).parent_path();
    const int count = clog2_plus1(buffer_slots);
    CounterMap counter_map;
    if (auto e = read_counter_map(map, base, where, counter_map); !e.empty()) return e;
    const UserSources& user_sources = counter_map.sources;
    const std::string top = user_sources.top;
    const auto& parameters = counter_map.parameters;
    try {
        // ---- read the module: preprocess once, then its ports at this B
        std::string text;
        UserModule user;
        {
            std::map<std::string, std::string> values;
            for (const auto& [name, expr] : parameters) values[name] = expr == "MAXC" ? std::to_string(buffer_slots) : expr;
            if (auto e = read_module(sources, user_sources, top, values, werror, where, text, user, swapped.warnings); !e.empty())
                return e;
        }

        // ---- the roles against the module's ports
        std::map<std::string, Role>& roles = counter_map.roles;
        std::map<std::string, std::string> used;   // port -> role
        const auto claim = [&](const std::string& port, const std::string& role, const std::string& direction,
                               std::string& problem) {
            const auto it = user.ports.find(port);
            if (it == user.ports.end()) {
                problem = where + ": role " + role + " names port '" + port + "', which module " + user.name + " does not have";
                return;
            }
            if (it->second.direction != direction) {
                problem = where + ": role " + role + " needs an " + direction + ", but " + port + " is an " + it->second.direction;
                return;
            }
            const auto [at, fresh] = used.insert({port, role});
            if (!fresh) problem = where + ": port " + port + " is mapped to both " + at->second + " and " + role;
        };
        for (const auto& [role, r] : roles) {
            std::string problem;
            const bool output = role == "can_send" || role == "credits";
            claim(r.port, role, output ? "output" : "input", problem);
            if (problem.empty() && !r.valid.empty()) claim(r.valid, role + ".valid", "input", problem);
            if (!problem.empty()) return problem;
        }

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
        std::map<std::string, long> ties;
        for (const auto& [name, value] : counter_map.ties) {
            if (!user.ports.count(name) || user.ports[name].direction != "input")
                return where + ": ties: " + name + " is not an input of " + user.name;
            if (used.count(name)) return where + ": ties: " + name + " is already mapped to " + used[name];
            ties[name] = value;
            used[name] = "tie";
        }
        for (const auto& [name, port] : user.ports)
            if (port.direction == "input" && !used.count(name))
                return where + ": input " + name + " of " + user.name + " has no role: map it or tie it (\"ties\": {\"" + name +
                       "\": 0})";

        // ---- the wrapper: credit_counter's contract on the outside, the user's module inside
        std::ostringstream w;
        w << "// Generated by creditloop from " << fs::absolute(map_path).string() << ": credit_link's credit_counter,\n"
          << "// implemented by " << user.name << " through the roles its map names. Its RTL is unchanged.\n"
          << "module credit_counter #(\n  parameter int MAXC = 8,\n  parameter int RETURN_WIDTH = $clog2(MAXC + 1),\n"
          << "  parameter int TAKE_WIDTH = 1   // one credit a packet: the only want_send your counter takes\n) (\n"
          << "  input  logic clk, rst_n,\n  input  logic [RETURN_WIDTH-1:0] credit_return,\n"
          << "  /* verilator lint_off UNUSEDSIGNAL */\n  input  logic [TAKE_WIDTH-1:0] want_send,\n"
          << "  input  logic [$clog2(MAXC+1)-1:0] init_credits,\n"
          << "  /* verilator lint_on UNUSEDSIGNAL */\n  output logic can_send, do_send,\n"
          << "  output logic [$clog2(MAXC+1)-1:0] credits\n);\n"
          << "  // The user's ports are as wide as their parameters make them at each B: every connection\n"
          << "  // here is unsized, and Verilator widens or narrows it (WIDTH is expected, not a finding).\n"
          << "  /* verilator lint_off WIDTH */\n";
        const std::string can = roles.count("can_send") ? "user_can_send" : "(credits != '0)";
        if (roles.count("can_send")) w << "  logic user_can_send;\n";
        if (roles.count("credits")) w << "  logic [31:0] user_credits;\n";
        w << "  assign can_send = " << can << ";\n  assign do_send = want_send[0] && can_send;\n";
        if (roles.count("credits"))
            w << "  assign credits = $clog2(MAXC+1)'(user_credits);\n";
        else
            w << "  assign credits = user_can_send ? $clog2(MAXC+1)'(1) : '0;   // no count mapped: at least one, or none\n";
        w << "  " << user.name;
        if (!parameters.empty()) {
            w << " #(";
            for (size_t i = 0; i < parameters.size(); ++i)
                w << (i ? ", " : "") << "." << parameters[i].first << "(" << parameters[i].second << ")";
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
            connections.push_back("." + send.valid + "(do_send)");
            connections.push_back("." + send.port + "(1)");
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
            connections.push_back("." + r.port + "(" + (r.value.empty() ? std::to_string(r.tie.value_or(0)) : r.value) + ")");
        }
        for (const auto& [name, value] : ties)
            connections.push_back("." + name + "(" + std::to_string(value) + ")");
        for (size_t i = 0; i < connections.size(); ++i) w << "    " << connections[i] << (i + 1 < connections.size() ? ",\n" : "\n");
        w << "  );\n  /* verilator lint_on WIDTH */\nendmodule\n";

        // ---- into the RTL set: the wrapper in place of credit_counter.sv, the preprocessed RTL beside it
        const std::string wrapper = w.str();
        uint64_t hash = 0xcbf29ce484222325ull;
        for (unsigned char c : wrapper + text) hash = (hash ^ c) * 0x100000001b3ull;
        const fs::path dir = fs::path(sources.build_root) / "blocks" / fmt::format("{:016x}", hash);
        fs::create_directories(dir);
        std::ofstream(dir / "credit_counter.sv") << wrapper;
        std::ofstream(dir / (user.name + "_preprocessed.sv")) << text;
        if (sources.rtl_files.empty())
            for (const auto& entry : fs::directory_iterator(fs::path(sources.source_root) / "rtl"))
                if (entry.path().extension() == ".sv") sources.rtl_files.push_back(entry.path().string());
        for (auto& file : sources.rtl_files)
            if (fs::path(file).filename() == "credit_counter.sv") file = (dir / "credit_counter.sv").string();
        sources.rtl_files.push_back((dir / (user.name + "_preprocessed.sv")).string());
        std::sort(sources.rtl_files.begin(), sources.rtl_files.end(), [](const std::string& a, const std::string& b) {
            const bool a_top = fs::path(a).filename() == "credit_link.sv";
            const bool b_top = fs::path(b).filename() == "credit_link.sv";
            return a_top != b_top ? a_top : a < b;
        });
        swapped.module = user.name;
    } catch (const json::exception& e) {
        return where + ": a value has the wrong type (" + std::string(e.what()) + ")";
    }
    return "";
}

}  // namespace creditloop

namespace creditloop {

namespace {

// One side of a mapped link: its module, parameters (name -> expression of B, W or a number)
// and the ports of its roles.
struct Side {
    std::string module;
    std::vector<std::pair<std::string, std::string>> parameters;
    std::map<std::string, std::string> ports;   // role -> port
    std::map<std::string, std::string> reset;   // "active", "kind"
    std::map<std::string, long> ties;
    std::map<std::string, std::string> probes;   // observed term -> signal inside the module
};

std::string read_side(const json& j, const char* side, const std::vector<std::string>& required,
                      const std::vector<std::string>& optional, const std::string& where, Side& out) {
    const std::string who = where + ": " + side;
    if (!j.contains(side) || !j[side].is_object()) return who + " is not described (module, parameters, ports)";
    const json& s = j[side];
    out.module = s.value("module", "");
    if (out.module.empty()) return who + ": name its \"module\"";
    const json params = s.value("parameters", json::object());
    for (const auto& [name, value] : params.items()) {
        if (value.is_number_integer()) out.parameters.push_back({name, std::to_string(value.get<long>())});
        else if (value.is_string() && (value == "B" || value == "W" || value == "L"))
            out.parameters.push_back({name, value.get<std::string>()});
        else return who + " parameter " + name + ": give B, W, L or a number";
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
    }
    for (const auto& role : required)
        if (!out.ports.count(role)) return who + ": role " + role + " is not mapped";
    const json ties = s.value("ties", json::object());
    for (const auto& [name, value] : ties.items()) out.ties[name] = value.get<long>();
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

// The side's module read at B = `b`, W = 32, L = 4, and its roles checked against its ports.
std::string check_side(const DutSources& sources, const UserSources& user_sources, const Side& side, const char* name,
                       const std::vector<std::string>& outputs, int b, bool werror, const std::string& where,
                       std::string& text, std::vector<std::string>& warnings) {
    std::map<std::string, std::string> values;
    for (const auto& [param, expr] : side.parameters)
        values[param] = expr == "B" ? std::to_string(b) : expr == "W" ? "32" : expr == "L" ? "4" : expr;
    UserModule user;
    if (auto e = read_module(sources, user_sources, side.module, values, werror, where, text, user, warnings); !e.empty())
        return e;
    std::map<std::string, std::string> used;
    for (const auto& [role, port] : side.ports) {
        const auto it = user.ports.find(port);
        if (it == user.ports.end())
            return where + ": " + name + " role " + role + " names port '" + port + "', which module " + side.module + " does not have";
        const bool out = std::find(outputs.begin(), outputs.end(), role) != outputs.end();
        if (it->second.direction != (out ? "output" : "input"))
            return where + ": " + name + " role " + role + " needs an " + (out ? "output" : "input") + ", but " + port + " is an " +
                   it->second.direction;
        const auto [at, fresh] = used.insert({port, role});
        if (!fresh) return where + ": " + name + " port " + port + " is mapped to both " + at->second + " and " + role;
    }
    for (const auto& [role, port] : side.ports) {
        if (role != "credit_count" && role != "credits") continue;
        const int need = clog2_plus1(b);
        if (user.ports[port].width < need)
            return where + ": " + name + " port " + port + " (" + role + ") is " + std::to_string(user.ports[port].width) +
                   " bits, too narrow for B = " + std::to_string(b) + " (needs " + std::to_string(need) + ")";
    }
    for (const auto& [port, p] : user.ports)
        if (p.direction == "input" && !used.count(port) && !side.ties.count(port))
            return where + ": " + name + " input " + port + " of " + side.module + " has no role: map it or tie it (\"ties\": {\"" +
                   port + "\": 0})";
    return "";
}

std::string instance(const Side& side, const std::string& inst, const std::vector<std::pair<std::string, std::string>>& wires) {
    std::ostringstream w;
    w << "  " << side.module;
    if (!side.parameters.empty()) {
        w << " #(";
        for (size_t i = 0; i < side.parameters.size(); ++i)
            w << (i ? ", " : "") << "." << side.parameters[i].first << "(" << side.parameters[i].second << ")";
        w << ")";
    }
    w << " " << inst << " (\n";
    std::vector<std::string> c;
    for (const auto& [role, wire] : wires)
        if (side.ports.count(role)) c.push_back("    ." + side.ports.at(role) + "(" + wire + ")");
    for (const auto& [port, value] : side.ties) c.push_back("    ." + port + "(" + std::to_string(value) + ")");
    for (size_t i = 0; i < c.size(); ++i) w << c[i] << (i + 1 < c.size() ? ",\n" : "\n");
    w << "  );\n";
    return w.str();
}

// A link's map as read from its JSON, before any RTL is: its sources, both sides, the return
// latency and what lockstep compares.
struct LinkMap {
    UserSources sources;
    Side tx, rx;
    int return_latency = 0;
    std::optional<uint32_t> lockstep_signals;   // as MappedLink's: set only when the map says
};

// The checks that need no RTL: "" or one error line. Nothing runs.
std::string read_link_map(const json& map, const fs::path& base, const std::string& where, LinkMap& out) {
    try {
        for (const auto& [key, value] : map.items())
            if (key != "block" && key != "sources" && key != "sender" && key != "receiver" && key != "return_latency" &&
                key != "lockstep")
                return where + ": unknown key '" + key + "' (block, sources, sender, receiver, return_latency, lockstep)";
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
    } catch (const json::exception& e) {
        return where + ": a value has the wrong type (" + std::string(e.what()) + ")";
    }
    return "";
}

}  // namespace

std::string swap_mapped_link(DutSources& sources, const std::string& map_path, bool werror, MappedLink& link) {
    const std::string where = "--link " + map_path;
    json map;
    if (auto e = load_map(map_path, where, map); !e.empty()) return e;
    const fs::path base = fs::absolute(map_path).parent_path();
    LinkMap link_map;
    if (auto e = read_link_map(map, base, where, link_map); !e.empty()) return e;
    if (link_map.lockstep_signals) link.lockstep_signals = link_map.lockstep_signals;
    link.return_latency = link_map.return_latency;
    const UserSources& user_sources = link_map.sources;
    const Side& tx = link_map.tx;
    const Side& rx = link_map.rx;
    try {
        std::string text;
        if (auto e = check_side(sources, user_sources, tx, "sender", {"in_ready", "out_valid", "out_data", "credits"}, 12, werror,
                                where, text, link.warnings);
            !e.empty())
            return e;
        if (auto e = check_side(sources, user_sources, rx, "receiver", {"out_valid", "out_data", "credit_valid", "credit_count"},
                                12, werror, where, text, link.warnings);
            !e.empty())
            return e;
        link.exposes_credits = tx.ports.count("credits") > 0;
        const auto reset_of = [](const Side& s, const char* end) {
            return s.reset.count("active") && s.reset.at("active") == "high" ? std::string("!") + end : std::string(end);
        };
        link.synchronous_reset = (tx.reset.count("kind") && tx.reset.at("kind") == "sync") ||
                                 (rx.reset.count("kind") && rx.reset.at("kind") == "sync");

        // ---- the testbench top around them: creditloop's pipelines close the loop, and every
        // observed count is kept here from the interfaces' events (the user's RTL grows no port).
        std::ostringstream t;
        t << "// Generated by creditloop from " << fs::absolute(map_path).string() << ": your sender (" << tx.module
          << ") and receiver\n// (" << rx.module
          << ") closed into a loop by creditloop's pipelines, L stages each way. Every count the\n"
             "// scoreboards read is kept here from the events on their functional ports.\n"
             "/* verilator lint_off WIDTH */\n/* verilator lint_off UNUSEDSIGNAL */\n/* verilator lint_off UNUSEDPARAM */\n"
             "module credit_link_observed #(\n"
             "  parameter int L = 4, parameter int B = 12, parameter int K = 1, parameter int W = 32, parameter int SYNC = 0,\n"
             "  parameter int FREE_DELAY = 0, parameter int FULL_RATE = 0, parameter int POLICY = 0, parameter int LOW = 0,\n"
             "  parameter int IDLE = 1, parameter int TIMEOUT = 0, parameter int RECOVERY = 0, parameter int TOTAL_BITS = 8,\n"
             "  parameter int RESEND = 16\n) (\n"
             "  input  logic clk, rst_tx_n, rst_rx_n, want_send,\n  input  logic [W-1:0] tx_payload,\n"
             "  input  logic drain, flush, return_busy, fault_drop,\n  input  logic [15:0] fault_add,\n"
             "  output logic can_send, send,\n  output logic [W-1:0] send_payload,\n  output logic pop,\n"
             "  output logic [W-1:0] pop_payload,\n"
             "  output logic [$clog2(B+1)-1:0] credits, credits_arriving,\n  output logic [$clog2(L+1)-1:0] fwd_flits,\n"
             "  output logic arrive,\n  output logic [$clog2(B+1)-1:0] occupancy,\n  output logic overflow,\n"
             "  output logic [$clog2(B+1)-1:0] slots_freeing, pending_returns,\n  output logic policy_flush,\n"
             "  output logic [$clog2(B+1)-1:0] return_waiting, credits_returned,\n  output logic return_message, update_refused,\n"
             "  output logic [$clog2(B+1)-1:0] return_flight,\n"
             "  output logic [(($clog2(B+1) > $clog2(L+1)) ? $clog2(B+1) : $clog2(L+1)) + 2:0] credit_total\n);\n"
             "  localparam int CW = $clog2(B + 1);\n"
             "  logic tx_ready, tx_out_valid, rx_in_valid, rx_out_valid, rx_credit_valid;\n"
             "  logic [W-1:0] tx_out_data, rx_in_data, rx_out_data;\n"
             "  logic [31:0] tx_credits, rx_credit_count;\n"
             "  logic [CW-1:0] returned, arriving;\n\n";
        t << instance(tx, "u_sender",
                      {{"clock", "clk"}, {"reset", reset_of(tx, "rst_tx_n")}, {"in_valid", "want_send"}, {"in_ready", "tx_ready"},
                       {"in_data", "tx_payload"}, {"out_valid", "tx_out_valid"}, {"out_data", "tx_out_data"},
                       {"credit_valid", "arriving != '0"}, {"credit_count", "arriving"}, {"credits", "tx_credits"}});
        t << "\n  // link.fwd: L stages of {valid, data}\n  logic [W:0] fwd_out;\n  logic [L*(W+1)-1:0] fwd_stages;\n"
             "  pipeline #(.STAGES(L), .WIDTH(W + 1)) u_fwd (.clk, .rst_n(rst_tx_n), .in({tx_out_valid, tx_out_data}), "
             ".out(fwd_out), .stages(fwd_stages));\n"
             "  assign rx_in_valid = fwd_out[W];\n  assign rx_in_data = fwd_out[W-1:0];\n\n";
        t << instance(rx, "u_receiver",
                      {{"clock", "clk"}, {"reset", reset_of(rx, "rst_rx_n")}, {"in_valid", "rx_in_valid"}, {"in_data", "rx_in_data"},
                       {"out_valid", "rx_out_valid"}, {"out_ready", "drain"}, {"out_data", "rx_out_data"},
                       {"credit_valid", "rx_credit_valid"}, {"credit_count", "rx_credit_count"}});
        t << (rx.ports.count("credit_valid") ? "" : "  assign rx_credit_valid = 1'b1;\n")
          << "  assign returned = rx_credit_valid ? CW'(rx_credit_count) : '0;\n\n"
             "  // link.ret: L stages of a credit count\n  logic [L*CW-1:0] ret_stages;\n"
             "  pipeline #(.STAGES(L), .WIDTH(CW)) u_ret (.clk, .rst_n(rst_rx_n), .in(returned), .out(arriving), "
             ".stages(ret_stages));\n\n"
             "  // The observation, from the interfaces' events.\n"
             "  logic [CW-1:0] shadow_q, occupancy_q, held_q;\n"
             "  assign can_send = tx_ready;\n  assign send = want_send && tx_ready;\n"
             "  assign send_payload = send ? tx_payload : '0;\n"
             "  assign arrive = rx_in_valid;\n  assign pop = rx_out_valid && drain;\n"
             "  assign pop_payload = pop ? rx_out_data : '0;\n"
             "  assign credits_arriving = arriving;\n  assign credits_returned = returned;\n"
             "  assign return_message = returned != '0;\n  assign update_refused = 1'b0;\n"
             "  assign overflow = arrive && !pop && occupancy_q >= CW'(B);\n"
          << (rx.probes.count("occupancy") ? "  assign occupancy = CW'(u_receiver." + rx.probes.at("occupancy") + ");   // the receiver's own count (probe)\n"
                                           : std::string("  assign occupancy = occupancy_q;   // arrived - popped\n"))
          << (rx.probes.count("pending_returns")
                  ? "  assign pending_returns = CW'(u_receiver." + rx.probes.at("pending_returns") + ");   // probe\n"
                  : std::string("  assign pending_returns = held_q;   // taken by the consumer, not yet returned\n"))
          << "  assign slots_freeing = '0;\n  assign return_waiting = '0;\n  assign policy_flush = flush;\n"
             "  // The sender's own count when it shows one, else the count its sends and returns imply.\n"
          << (link.exposes_credits ? "  assign credits = CW'(tx_credits);\n" : "  assign credits = shadow_q;\n")
          << "  always_comb begin\n    fwd_flits = '0;\n    for (int i = 0; i < L; i++) fwd_flits = fwd_flits + fwd_stages[i*(W+1) + W];\n"
             "    return_flight = '0;\n    for (int i = 0; i < L; i++) return_flight = return_flight + ret_stages[i*CW +: CW];\n  end\n"
             "  assign credit_total = credits + fwd_flits + occupancy + pending_returns + return_flight;\n"
             "  always_ff @(posedge clk or negedge rst_tx_n)\n"
             "    if (!rst_tx_n) shadow_q <= CW'(B);\n    else shadow_q <= shadow_q - CW'(send) + arriving;\n"
             "  always_ff @(posedge clk or negedge rst_rx_n)\n"
             "    if (!rst_rx_n) begin\n      occupancy_q <= '0;\n      held_q <= '0;\n    end else begin\n"
             "      occupancy_q <= occupancy_q + CW'(arrive && !overflow) - CW'(pop);\n"
             "      held_q <= held_q + CW'(pop) - returned;\n    end\nendmodule\n";
        const std::string top = t.str();
        uint64_t hash = 0xcbf29ce484222325ull;
        for (unsigned char c : top + text) hash = (hash ^ c) * 0x100000001b3ull;
        const fs::path dir = fs::path(sources.build_root) / "blocks" / fmt::format("link_{:016x}", hash);
        fs::create_directories(dir);
        std::ofstream(dir / "credit_link_observed.sv") << top;
        std::ofstream(dir / "user_link_preprocessed.sv") << text;
        sources.rtl_files = {(dir / "credit_link_observed.sv").string(), (dir / "user_link_preprocessed.sv").string(),
                             (fs::path(sources.source_root) / "rtl" / "pipeline.sv").string()};
        sources.own_top = true;
        link.sender = tx.module;
        link.receiver = rx.module;
    } catch (const json::exception& e) {
        return where + ": a value has the wrong type (" + std::string(e.what()) + ")";
    }
    return "";
}

}  // namespace creditloop

namespace creditloop {

namespace {

// A whole link's map, the checks that need no RTL: "" or one error line. Nothing runs.
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

}  // namespace

std::string use_rtl_map(DutSources& sources, const std::string& map_path, bool werror, std::vector<std::string>& warnings) {
    const std::string where = "--rtl " + map_path;
    json map;
    if (auto e = load_map(map_path, where, map); !e.empty()) return e;
    UserSources user_sources;
    if (auto e = read_rtl_map(map, fs::absolute(map_path).parent_path(), where, user_sources); !e.empty()) return e;
    try {
        std::string text;
        UserModule top;
        if (auto e = read_module(sources, user_sources, "credit_link", {}, werror, where, text, top, warnings); !e.empty())
            return e;
        const fs::path out = fs::path(sources.build_root) / "blocks" / fmt::format("rtl_{:016x}", [&] {
            uint64_t hash = 0xcbf29ce484222325ull;
            for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ull;
            return hash;
        }());
        fs::create_directories(out);
        std::ofstream(out / "credit_link.sv") << text;
        sources.rtl_files = {(out / "credit_link.sv").string()};
    } catch (const json::exception& e) {
        return where + ": a value has the wrong type (" + std::string(e.what()) + ")";
    }
    return "";
}

}  // namespace creditloop

namespace creditloop {

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
