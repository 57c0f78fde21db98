#include "port_map.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

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

}  // namespace

std::string swap_mapped_counter(DutSources& sources, const std::string& map_path, int buffer_slots, bool werror,
                                SwappedBlock& swapped) {
    const std::string where = "--counter " + map_path;
    std::ifstream in(map_path);
    if (!in) return where + ": cannot read the map file (does it exist?)";
    json map;
    try {
        map = json::parse(in);
    } catch (const json::exception& e) {
        return where + " is not JSON (" + std::string(e.what()) + ")";
    }
    const fs::path base = fs::absolute(map_path).parent_path();
    const int count = clog2_plus1(buffer_slots);
    try {
        for (const auto& [key, value] : map.items())
            if (key != "block" && key != "sources" && key != "parameters" && key != "ports" && key != "ties")
                return where + ": unknown key '" + key + "' (known: block, sources, parameters, ports, ties)";
        if (map.value("block", "credit_counter") != "credit_counter")
            return where + ": block '" + map.value("block", "") + "': only credit_counter takes a map for now";
        if (!map.contains("sources") || !map["sources"].contains("files") || map["sources"]["files"].empty())
            return where + ": no \"sources\": {\"files\": [...]} naming your RTL";

        // ---- sources, as Verilator takes them
        const json& src = map["sources"];
        std::vector<std::string> args = {"-Wno-fatal"};
        const json incdirs = src.value("incdirs", json::array()), defines = src.value("defines", json::object()),
                   lists = src.value("file_lists", json::array());
        for (const auto& dir : incdirs) {
            const fs::path d = base / dir.get<std::string>();
            if (!fs::is_directory(d)) return where + ": include directory " + d.string() + " not found";
            args.push_back("+incdir+" + d.string());
        }
        for (const auto& [name, value] : defines.items())
            args.push_back("+define+" + name + (value.is_null() ? "" : "=" + (value.is_string() ? value.get<std::string>() : value.dump())));
        for (const auto& list : lists) {
            const fs::path f = base / list.get<std::string>();
            if (!fs::is_regular_file(f)) return where + ": file list " + f.string() + " not found";
            args.insert(args.end(), {"-f", f.string()});
        }
        std::vector<std::string> files;
        for (const auto& file : src["files"]) {
            const fs::path f = base / file.get<std::string>();
            if (!fs::is_regular_file(f)) return where + ": RTL file " + f.string() + " not found";
            files.push_back(f.string());
        }
        const std::string top = src.value("top", "");

        // ---- parameters
        std::vector<std::pair<std::string, std::string>> parameters;   // user name, expression
        std::string error;
        const json params = map.value("parameters", json::object());
        for (const auto& [name, value] : params.items()) {
            parameters.push_back({name, parameter_expression(value, where + " parameter " + name, error)});
            if (!error.empty()) return error;
        }

        // ---- read the module: preprocess once, then its ports at this B
        const fs::path work = fs::path(sources.build_root) / "blocks" / ("map." + std::to_string(::getpid()));
        fs::remove_all(work);
        fs::create_directories(work);
        const fs::path flat = work / "user.sv";
        std::vector<std::string> pre = {"verilator", "-E"};
        pre.insert(pre.end(), args.begin(), args.end());
        pre.insert(pre.end(), files.begin(), files.end());
        std::string text;
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
        for (const auto& [name, expr] : parameters)
            argv.push_back("-G" + name + "=" + (expr == "MAXC" ? std::to_string(buffer_slots) : expr));
        argv.push_back(flat.string());
        std::ofstream(log, std::ios::trunc).close();
        const int status = run_to_log(argv, log.string());
        std::string first_error;
        scan_log(log.string(), swapped.warnings, first_error);
        if (status != 0) {
            if (first_error.find("Parameters from the command line were not found") != std::string::npos)
                return where + ": unknown parameter: " + first_error.substr(first_error.rfind(':') + 2) +
                       " (the module has no parameter of that name; fix \"parameters\")";
            if (first_error.find("Multiple top level modules") != std::string::npos)
                return where + ": your files have several top modules: name yours with \"sources\": {\"top\": \"NAME\"}";
            return "Verilator cannot read your RTL: " + first_error;
        }
        if (werror && !swapped.warnings.empty())
            return "your RTL has warnings and --werror is set: " + swapped.warnings.front();
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
        UserModule user;
        user.name = top_node.attribute("name").value();
        for (const auto var : top_node.children("var")) {
            const std::string name = var.attribute("name").value();
            if (var.attribute("param").as_bool()) user.parameters.insert(name);
            const std::string dir = var.attribute("dir").value();
            const auto width = widths.find(var.attribute("dtype_id").value());
            if (!dir.empty()) user.ports[name] = UserPort{dir, width != widths.end() ? width->second : 1};
        }
        fs::remove_all(work);

        // ---- the roles
        static const std::vector<std::string> kRoles = {"clock", "reset", "send", "credit_return", "can_send",
                                                        "credits", "init", "withhold"};
        std::map<std::string, Role> roles;
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
                if (value.contains("tie")) r.tie = value["tie"].get<long>();
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
            std::string problem;
            const bool output = role == "can_send" || role == "credits";
            claim(r.port, role, output ? "output" : "input", problem);
            if (problem.empty() && !r.valid.empty()) claim(r.valid, role + ".valid", "input", problem);
            if (!problem.empty()) return problem;
            roles[role] = r;
        }
        for (const char* needed : {"clock", "reset", "send", "credit_return"})
            if (!roles.count(needed)) return where + ": role " + std::string(needed) + " is not mapped";
        if (!roles.count("credits") && !roles.count("can_send"))
            return where + ": map credits (the count) or can_send (at least one credit), or both";

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
        const json tie_map = map.value("ties", json::object());
        for (const auto& [name, value] : tie_map.items()) {
            if (!user.ports.count(name) || user.ports[name].direction != "input")
                return where + ": ties: " + name + " is not an input of " + user.name;
            if (used.count(name)) return where + ": ties: " + name + " is already mapped to " + used[name];
            ties[name] = value.get<long>();
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
          << "module credit_counter #(\n  parameter int MAXC = 8,\n  parameter int RETURN_WIDTH = $clog2(MAXC + 1)\n) (\n"
          << "  input  logic clk, rst_n,\n  input  logic [RETURN_WIDTH-1:0] credit_return,\n  input  logic want_send,\n"
          << "  /* verilator lint_off UNUSEDSIGNAL */\n  input  logic [$clog2(MAXC+1)-1:0] init_credits,\n"
          << "  /* verilator lint_on UNUSEDSIGNAL */\n  output logic can_send, do_send,\n"
          << "  output logic [$clog2(MAXC+1)-1:0] credits\n);\n"
          << "  // The user's ports are as wide as their parameters make them at each B: every connection\n"
          << "  // here is unsized, and Verilator widens or narrows it (WIDTH is expected, not a finding).\n"
          << "  /* verilator lint_off WIDTH */\n";
        const std::string can = roles.count("can_send") ? "user_can_send" : "(credits != '0)";
        if (roles.count("can_send")) w << "  logic user_can_send;\n";
        if (roles.count("credits")) w << "  logic [31:0] user_credits;\n";
        w << "  assign can_send = " << can << ";\n  assign do_send = want_send && can_send;\n";
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
