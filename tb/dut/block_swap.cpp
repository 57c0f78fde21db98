#include "block_swap.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include <pugixml.hpp>

#include <fmt/format.h>

#include "dut_bank.h"
#include "observed_tops.h"
#include "port_map.h"
#include "process.h"

namespace fs = std::filesystem;

namespace creditloop {

namespace {

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

struct Port {
    std::string direction;
    int width = 1;
};

struct ModuleShape {
    std::string name;
    std::vector<std::string> parameters;
    std::map<std::string, Port> ports;
};

// The first module in `file`, elaborated by Verilator with the given parameter values: its
// parameters and ports, from Verilator's XML (--xml-only).
std::string inspect(const std::string& file, const std::vector<std::pair<std::string, int>>& parameters,
                    const fs::path& work, ModuleShape& shape) {
    // Line comments out, then the first declaration. By hand, not with std::regex, whose matcher
    // recurses once per character: a long comment line overflowed the stack (dut_bank.h).
    const std::string source = read_text(file);
    std::string text;
    for (size_t at = 0; at < source.size();) {
        if (source.compare(at, 2, "//") == 0) {
            at = source.find('\n', at);
            if (at == std::string::npos) break;
        } else {
            text += source[at++];
        }
    }
    const std::vector<std::string> modules = modules_declared_in(text);
    if (modules.empty()) return file + " declares no module";
    shape.name = modules.front();
    fs::create_directories(work);
    const fs::path xml = work / "shape.xml";
    const fs::path log = work / "shape.log";
    std::vector<std::string> argv = {"verilator", "--xml-only", "--xml-output", xml.string(), "--top-module", shape.name};
    for (const auto& [name, value] : parameters) argv.push_back("-G" + name + "=" + std::to_string(value));
    argv.push_back(file);
    std::ofstream(log, std::ios::trunc).close();
    if (run_to_log(argv, log.string()) != 0) {
        std::istringstream lines(read_text(log));
        std::string line, first;
        while (std::getline(lines, line))
            if (line.rfind("%Error", 0) == 0 || line.rfind("%Warning", 0) == 0) {
                first = line;
                break;
            }
        if (first.find("Parameters from the command line were not found") != std::string::npos)
            return file + " (module " + shape.name + ") lacks a parameter the contract needs: " + first.substr(first.rfind(':') + 2);
        return "Verilator cannot read " + file + ": " + first;
    }
    pugi::xml_document doc;
    if (!doc.load_file(xml.c_str())) return "Verilator wrote no readable XML for " + file + " (" + xml.string() + ")";
    std::map<std::string, int> widths;   // dtype id -> bits
    for (const auto& node : doc.select_nodes("//typetable/basicdtype")) {
        const auto dtype = node.node();
        const auto left = dtype.attribute("left"), right = dtype.attribute("right");
        widths[dtype.attribute("id").value()] = left ? std::abs(left.as_int() - right.as_int()) + 1 : 1;
    }
    // The top module's own variables only (not those of the modules it instantiates).
    const auto top = doc.select_node("//netlist/module[@topModule='1']").node();
    if (!top) return "Verilator's XML for " + file + " names no top module (" + xml.string() + ")";
    for (const auto var : top.children("var")) {
        const std::string name = var.attribute("name").value();
        if (var.attribute("param").as_bool()) shape.parameters.push_back(name);
        const std::string dir = var.attribute("dir").value();
        const auto width = widths.find(var.attribute("dtype_id").value());
        if (!dir.empty()) shape.ports[name] = Port{dir, width != widths.end() ? width->second : 1};
    }
    return "";
}

int clog2_plus1(int value) {   // $clog2(value + 1)
    int bits = 0;
    while ((1LL << bits) < static_cast<long long>(value) + 1) ++bits;
    return bits;
}

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

struct Expected {
    const char* name;
    const char* direction;
    int width;   // 0: one bit or the count width (credit_return only)
};

std::string check_ports(const std::string& file, const ModuleShape& shape, const std::vector<Expected>& contract,
                        const std::string& contract_name) {
    std::vector<std::string> missing, wrong, extra;
    for (const auto& e : contract) {
        const auto it = shape.ports.find(e.name);
        if (it == shape.ports.end()) {
            missing.push_back(e.name);
            continue;
        }
        if (it->second.direction != e.direction) wrong.push_back(std::string(e.name) + " is " + it->second.direction + ", not " + e.direction);
        else if (e.width > 0 && it->second.width != e.width)
            wrong.push_back(std::string(e.name) + " is " + std::to_string(it->second.width) + " bits, not " + std::to_string(e.width));
    }
    for (const auto& [name, port] : shape.ports) {
        // A structured binding is captured by its own name: clang before 16 (the sanitizer build's)
        // cannot capture one (a C++20 rule).
        const bool known = std::any_of(contract.begin(), contract.end(), [&name = name](const Expected& e) { return name == e.name; });
        if (!known) extra.push_back(name);
    }
    std::string problem;
    if (!missing.empty()) problem += "missing port(s) " + join(missing);
    if (!wrong.empty()) problem += std::string(problem.empty() ? "" : "; ") + join(wrong);
    if (!extra.empty()) problem += std::string(problem.empty() ? "" : "; ") + "unknown port(s) " + join(extra);
    if (problem.empty()) return "";
    return file + " (module " + shape.name + ") does not fit the " + contract_name + " contract: " + problem +
           " (see docs/own-rtl.md)";
}

}  // namespace

std::string swap_block(DutSources& sources, const std::string& block, const std::string& user_file, int buffer_slots,
                       SwappedBlock& swapped, const std::string& mutant) {
    if (block == "credit_counter.sv" && fs::path(user_file).extension() == ".json")
        return swap_mapped_counter(sources, user_file, buffer_slots, sources.werror, swapped, mutant);
    if (!mutant.empty())
        return user_file + ": --mutant " + mutant + " patches a file of a port map: give a .json map of your RTL";
    std::error_code ec;   // a path the system refuses (too long) is not found, not an exception
    if (!fs::is_regular_file(user_file, ec)) return user_file + " not found: give the path of your .sv file";
    const std::string absolute = fs::absolute(user_file).string();
    const fs::path work = fs::path(sources.build_root) / "blocks" / (block + "." + std::to_string(::getpid()));
    ModuleShape shape;
    const int count = clog2_plus1(buffer_slots);
    std::string wrapper;
    if (block == "credit_counter.sv") {
        if (auto error = inspect(absolute, {{"MAXC", buffer_slots}}, work, shape); !error.empty()) return error;
        if (std::find(shape.parameters.begin(), shape.parameters.end(), "MAXC") == shape.parameters.end())
            return absolute + " (module " + shape.name + ") has no parameter MAXC: the counter contract is seed 002's chi_credit_counter";
        const bool has_cw = std::find(shape.parameters.begin(), shape.parameters.end(), "CW") != shape.parameters.end();
        if (has_cw) {   // a count width parameter (seed 002's Verilog-2001 counter): set it as it will be
            shape = ModuleShape{};
            if (auto error = inspect(absolute, {{"MAXC", buffer_slots}, {"CW", count}}, work, shape); !error.empty())
                return error;
        }
        if (auto error = check_ports(absolute, shape,
                                     {{"clk", "input", 1}, {"rst_n", "input", 1}, {"credit_return", "input", 0},
                                      {"want_send", "input", 1}, {"init_credits", "input", count},
                                      {"can_send", "output", 1}, {"do_send", "output", 1},
                                      {"credits", "output", count}},
                                     "credit counter");
            !error.empty())
            return error;
        const int return_width = shape.ports["credit_return"].width;
        if (return_width != 1 && return_width != count)
            return absolute + ": credit_return is " + std::to_string(return_width) + " bits; the contract is 1 bit or a count of $clog2(MAXC+1) = " +
                   std::to_string(count) + " bits";
        swapped.single_credit_return = return_width == 1;
        swapped.single_credit_send = true;   // want_send is one bit: one credit a packet
        std::ostringstream w;
        w << "// Generated by creditloop: credit_link's credit_counter, implemented by " << shape.name << "\n"
          << "// from " << absolute << ", unchanged.\n"
          << "module credit_counter #(\n  parameter int MAXC = 8,\n  parameter int RETURN_WIDTH = $clog2(MAXC + 1),\n"
          << "  parameter int TAKE_WIDTH = 1   // one credit a packet: the only want_send your counter takes\n) (\n"
          << "  input  logic clk, rst_n,\n  input  logic [RETURN_WIDTH-1:0] credit_return,\n"
          << "  /* verilator lint_off UNUSEDSIGNAL */\n  input  logic [TAKE_WIDTH-1:0] want_send,\n"
          << "  /* verilator lint_on UNUSEDSIGNAL */\n"
          << "  input  logic [$clog2(MAXC+1)-1:0] init_credits,\n  output logic can_send, do_send,\n"
          << "  output logic [$clog2(MAXC+1)-1:0] credits\n);\n"
          << "  " << shape.name << " #(.MAXC(MAXC)" << (has_cw ? ", .CW($clog2(MAXC + 1))" : "") << ") u_dut (\n"
          << "    .clk, .rst_n,\n"
          << "    .credit_return (" << (swapped.single_credit_return ? "credit_return[0]" : "credit_return") << "),\n"
          << "    .want_send (want_send[0]), .init_credits, .can_send, .do_send, .credits\n  );\n"
          << (swapped.single_credit_return ? "  // A one-bit credit_return takes one credit per cycle: the regression runs only the\n"
                                             "  // configurations that never return more (K = 1, no flush).\n" : "")
          << "endmodule\n";
        wrapper = w.str();
    } else if (block == "credit_return.sv") {
        if (auto error = inspect(absolute, {{"B", buffer_slots}, {"K", 1}}, work, shape); !error.empty()) return error;
        for (const char* p : {"B", "K"})
            if (std::find(shape.parameters.begin(), shape.parameters.end(), p) == shape.parameters.end())
                return absolute + " (module " + shape.name + ") has no parameter " + p + ": the return-logic contract has B and K";
        if (auto error = check_ports(absolute, shape,
                                     {{"clk", "input", 1}, {"rst_n", "input", 1}, {"freed", "input", 1},
                                      {"flush", "input", 1}, {"returned", "output", count}, {"pending", "output", count}},
                                     "return logic");
            !error.empty())
            return error;
        std::ostringstream w;
        w << "// Generated by creditloop: credit_link's credit_return, implemented by " << shape.name << "\n"
          << "// from " << absolute << ", unchanged.\n"
          << "module credit_return #(\n  parameter int B = 4,\n  parameter int K = 1,\n"
          << "  parameter int FREED_WIDTH = 1   // one lane a pool: at most one slot freed a cycle\n) (\n"
          << "  input  logic clk, rst_n,\n  /* verilator lint_off UNUSEDSIGNAL */\n  input  logic [FREED_WIDTH-1:0] freed,\n"
          << "  /* verilator lint_on UNUSEDSIGNAL */\n  input  logic flush,\n"
          << "  output logic [$clog2(B+1)-1:0] returned,\n  output logic [$clog2(B+1)-1:0] pending\n);\n"
          << "  " << shape.name << " #(.B(B), .K(K)) u_dut (.clk, .rst_n, .freed (freed[0]), .flush, .returned, .pending);\n"
          << "endmodule\n";
        wrapper = w.str();
    } else {
        return "no contract for a replacement of " + block;
    }
    swapped.module = shape.name;
    if (shape.name == "credit_counter" || shape.name == "credit_return")
        return absolute + ": rename the module (it is called " + shape.name +
               ", which is the wrapper's name); any other name works";

    // The wrapper's name is the block's, so it lives in a directory of its own, keyed by content.
    uint64_t hash = 0xcbf29ce484222325ull;
    for (unsigned char c : wrapper + absolute) hash = (hash ^ c) * 0x100000001b3ull;
    const fs::path dir = fs::path(sources.build_root) / "blocks" / fmt::format("{:016x}", hash);
    fs::create_directories(dir);
    // Written whole and only when it differs: another run may be reading it for its stamp.
    if (auto e = write_if_changed((dir / block).string(), wrapper); !e.empty()) return e;
    fs::remove_all(work);

    if (sources.rtl_files.empty()) {
        for (const auto& entry : fs::directory_iterator(fs::path(sources.source_root) / "rtl"))
            if (entry.path().extension() == ".sv") sources.rtl_files.push_back(entry.path().string());
    }
    for (auto& file : sources.rtl_files)
        if (fs::path(file).filename() == block) file = (dir / block).string();
    sources.rtl_files.push_back(absolute);
    std::sort(sources.rtl_files.begin(), sources.rtl_files.end(), [](const std::string& a, const std::string& b) {
        const bool a_top = fs::path(a).filename() == "credit_link.sv";
        const bool b_top = fs::path(b).filename() == "credit_link.sv";
        return a_top != b_top ? a_top : a < b;
    });
    return "";
}

}  // namespace creditloop
