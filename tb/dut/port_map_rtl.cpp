// Your RTL as a port map names it, read with Verilator (port_map_detail.h): preprocessed once
// (verilator -E), its top module's ports, widths and parameters from --xml-only, Verilator's
// warnings kept with their file and line; and a link side's roles checked against those ports.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>

#include <pugixml.hpp>

#include "map_expression.h"
#include "port_map_detail.h"
#include "process.h"

namespace creditloop::port_map_detail {

int clog2_plus1(int value) {
    int bits = 0;
    while ((1LL << bits) < static_cast<long long>(value) + 1) ++bits;
    return bits;
}

namespace {

// Verilator's %Warning lines (the first line of each), and its first %Error line.
void scan_log(const std::string& log, std::vector<std::string>& warnings, std::string& error) {
    std::istringstream lines(read_text(log));
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("%Warning", 0) == 0 && line.find("Exiting due to") == std::string::npos) warnings.push_back(line);
        if (error.empty() && line.rfind("%Error", 0) == 0) error = line;
    }
}

}  // namespace

namespace {

// The sources preprocessed once (verilator -E) into `text`, then read with --xml-only into `doc`
// (`top` empty: every module, Verilator's MULTITOP a warning). "" or one error line.
std::string read_xml(const fs::path& work, const UserSources& user_sources, const std::string& top,
                     const std::map<std::string, std::string>& parameters, const std::string& where, std::string& text,
                     pugi::xml_document& doc, std::vector<std::string>& warnings) {
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
    if (!doc.load_file(xml.c_str())) return "Verilator wrote no readable XML for your RTL (" + xml.string() + ")";
    return "";
}

// The signal an assignment's left side names (mem for mem[i]).
std::string target(const pugi::xml_node& lhs) {
    if (std::string(lhs.name()) == "varref") return lhs.attribute("name").value();
    return lhs.select_node(".//varref").node().attribute("name").value();
}

// Every module of the XML: its ports at the parameters it was read with, its parameters, whether
// another module instantiates it, and the signals on its flops' edges.
// A constant of Verilator's XML ("32'h2", "32'sh0") as a number.
long xml_constant(const std::string& text) {
    const size_t tick = text.find('\'');
    if (tick == std::string::npos) return std::strtol(text.c_str(), nullptr, 10);
    size_t at = tick + 1;
    if (at < text.size() && (text[at] == 's' || text[at] == 'S')) ++at;
    const char base = at < text.size() ? static_cast<char>(std::tolower(text[at])) : 'd';
    return std::strtol(text.c_str() + at + 1, nullptr, base == 'h' ? 16 : base == 'b' ? 2 : base == 'o' ? 8 : 10);
}

// Each type's width in bits: a vector's, a packed array's (its elements times theirs, so
// `logic [N-1:0][W-1:0]` is N*W), a typedef's. An unpacked array is 0: no port of a map may be one.
std::map<std::string, int> xml_widths(const pugi::xml_document& doc) {
    std::map<std::string, pugi::xml_node> types;
    for (auto node = doc.select_node("//typetable").node().first_child(); node; node = node.next_sibling())
        types[node.attribute("id").value()] = node;
    std::map<std::string, int> widths;
    std::function<int(const std::string&, int)> width = [&](const std::string& id, int depth) -> int {
        if (const auto known = widths.find(id); known != widths.end()) return known->second;
        const auto it = types.find(id);
        if (it == types.end() || depth > 16) return 1;
        const pugi::xml_node dtype = it->second;
        const std::string kind = dtype.name();
        int bits = 1;
        if (kind == "basicdtype") {
            const auto left = dtype.attribute("left"), right = dtype.attribute("right");
            bits = left ? std::abs(left.as_int() - right.as_int()) + 1 : 1;
        } else if (kind == "packarraydtype") {
            const auto bounds = dtype.child("range").children("const");
            std::vector<long> ends;
            for (const auto& c : bounds) ends.push_back(xml_constant(c.attribute("name").value()));
            const long elements = ends.size() == 2 ? std::labs(ends[0] - ends[1]) + 1 : 1;
            bits = static_cast<int>(elements * width(dtype.attribute("sub_dtype_id").value(), depth + 1));
        } else if (kind == "unpackarraydtype") {
            bits = 0;
        } else if (dtype.attribute("sub_dtype_id")) {   // a typedef, an enum
            bits = width(dtype.attribute("sub_dtype_id").value(), depth + 1);
        }
        return widths[id] = bits;
    };
    for (const auto& [id, node] : types) width(id, 0);
    return widths;
}

std::vector<UserModule> xml_modules(const pugi::xml_document& doc) {
    const std::map<std::string, int> widths = xml_widths(doc);
    std::set<std::string> instantiated;
    for (const auto& i : doc.select_nodes("//instance")) instantiated.insert(i.node().attribute("defName").value());
    std::vector<UserModule> modules;
    for (const auto& m : doc.select_nodes("//netlist/module")) {
        UserModule user;
        const auto node = m.node();
        user.name = node.attribute("name").value();
        user.top = node.attribute("topModule").as_bool();
        user.instantiated = instantiated.count(user.name) > 0;
        for (const auto var : node.children("var")) {
            const std::string name = var.attribute("name").value();
            if (var.attribute("param").as_bool()) user.parameters.insert(name);
            const std::string dir = var.attribute("dir").value();
            const auto width = widths.find(var.attribute("dtype_id").value());
            if (!dir.empty()) {
                user.ports[name] = UserPort{dir, width != widths.end() ? width->second : 1};
                user.port_order.push_back(name);
            }
        }
        for (const auto& item : node.select_nodes(".//senitem")) {
            const std::string edge = item.node().attribute("edgeType").value();
            for (const auto& ref : item.node().select_nodes(".//varref"))
                if (edge == "POS" || edge == "NEG") user.edges[ref.node().attribute("name").value()] = edge;
        }
        // What drives what: a continuous assign's right side drives its left; in a block with no
        // edge (always_comb) every signal it reads drives every signal it assigns.
        const auto refs = [](const pugi::xml_node& n, std::set<std::string>& names) {
            for (const auto& r : n.select_nodes(".//varref")) names.insert(r.node().attribute("name").value());
        };
        for (const auto& a : node.select_nodes(".//contassign")) {
            const auto lhs = a.node().last_child();
            std::set<std::string> rhs;
            for (auto c = a.node().first_child(); c && c != lhs; c = c.next_sibling()) refs(c, rhs);
            user.drivers[target(lhs)].insert(rhs.begin(), rhs.end());
        }
        for (const auto& a : node.select_nodes(".//always")) {
            const bool clocked = a.node().child("sentree");
            std::set<std::string> read;
            if (!clocked) refs(a.node(), read);
            else
                for (auto c = a.node().first_child(); c; c = c.next_sibling())
                    if (std::string(c.name()) != "sentree") refs(c, user.clocked_reads);
            for (const auto& assign : a.node().select_nodes(".//assign | .//assigndly")) {
                const std::string lhs = target(assign.node().last_child());
                if (clocked) user.registered.insert(lhs);
                else user.drivers[lhs].insert(read.begin(), read.end());
            }
        }
        modules.push_back(user);
    }
    return modules;
}

}  // namespace

std::string read_module(const DutSources& sources, const UserSources& user_sources, const std::string& top,
                        const std::map<std::string, std::string>& parameters, bool werror, const std::string& where,
                        std::string& text, UserModule& user, std::vector<std::string>& warnings) {
    const fs::path work = fs::path(sources.build_root) / "blocks" / ("map." + std::to_string(::getpid()));
    fs::remove_all(work);
    fs::create_directories(work);
    pugi::xml_document doc;
    if (auto e = read_xml(work, user_sources, top, parameters, where, text, doc, warnings); !e.empty()) return e;
    if (werror && !warnings.empty()) return "your RTL has warnings and --werror is set: " + warnings.front();
    // The top: the one Verilator marks, else the one module nobody instantiates.
    const std::vector<UserModule> modules = xml_modules(doc);
    std::vector<const UserModule*> tops;
    for (const auto& m : modules)
        if (m.top) tops = {&m};
    if (tops.empty())
        for (const auto& m : modules)
            if (!m.instantiated) tops.push_back(&m);
    if (tops.size() != 1)
        return where + ": your files have " + std::to_string(tops.size()) +
               " modules nobody instantiates: name yours with \"sources\": {\"top\": \"NAME\"}";
    user = *tops.front();
    fs::remove_all(work);
    return "";
}

std::string read_modules(const DutSources& sources, const UserSources& user_sources, const std::string& where,
                         std::vector<UserModule>& modules, std::vector<std::string>& warnings) {
    const fs::path work = fs::path(sources.build_root) / "blocks" / ("map." + std::to_string(::getpid()));
    fs::remove_all(work);
    fs::create_directories(work);
    pugi::xml_document doc;
    std::string text;
    if (auto e = read_xml(work, user_sources, "", {}, where, text, doc, warnings); !e.empty()) return e;
    modules = xml_modules(doc);
    fs::remove_all(work);
    return "";
}

std::string check_side(const DutSources& sources, const UserSources& user_sources, const Side& side, const char* name,
                       const std::vector<std::string>& outputs, int b, bool werror, const std::string& where,
                       std::string& text, std::vector<std::string>& warnings, int& credit_width, UserModule& user) {
    std::map<std::string, std::string> values;
    for (const auto& [param, expr] : side.parameters) {
        const auto value = evaluate_map_expression(expr, {{"B", b}, {"W", 32}, {"L", 4}});
        if (!value)
            return where + ": " + name + ": parameters: " + param + ": '" + expr + "' has no value at B = " + std::to_string(b) +
                   ", L = 4, W = 32 (it divides by zero)";
        values[param] = std::to_string(*value);
    }
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
        if (role == "credit_count") credit_width = user.ports[port].width;
        // A one-bit credit_count is one credit a cycle; a count must hold B.
        if (user.ports[port].width < need && !(role == "credit_count" && user.ports[port].width == 1))
            return where + ": " + name + " port " + port + " (" + role + ") is " + std::to_string(user.ports[port].width) +
                   " bits, too narrow for B = " + std::to_string(b) + " (needs " + std::to_string(need) + ")";
    }
    for (const auto& [port, p] : user.ports)
        if (p.direction == "input" && !used.count(port) && !side.ties.count(port))
            return where + ": " + name + " input " + port + " of " + side.module + " has no role: map it or tie it (\"ties\": {\"" +
                   port + "\": 0})";
    return "";
}

bool reaches(const UserModule& module, const std::string& from, const std::set<std::string>& sources) {
    std::set<std::string> seen;
    std::vector<std::string> todo = {from};
    while (!todo.empty()) {
        const std::string s = todo.back();
        todo.pop_back();
        if (!seen.insert(s).second) continue;
        if (s != from && sources.count(s)) return true;
        const auto it = module.drivers.find(s);
        if (it != module.drivers.end()) todo.insert(todo.end(), it->second.begin(), it->second.end());
    }
    return false;
}

}  // namespace creditloop::port_map_detail
