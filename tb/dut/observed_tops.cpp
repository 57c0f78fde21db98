#include "observed_tops.h"

#include <cctype>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "channel_observation.h"
#include "observation.h"

namespace creditloop {

namespace {

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// The header's declarations, split at its top-level commas.
std::vector<std::string> declarations(const std::string& header) {
    std::vector<std::string> out(1);
    int depth = 0;
    for (char c : header) {
        if (c == '(' || c == '{' || c == '[') ++depth;
        if (c == ')' || c == '}' || c == ']') --depth;
        if (c == ',' && depth == 0)
            out.emplace_back();
        else
            out.back() += c;
    }
    return out;
}

// The parameters a top passes down (those not local), by name: ".L(L), .W(W), ...".
std::string pass_down(const std::string& header) {
    std::string out;
    bool local = false;
    for (const std::string& d : declarations(header)) {
        std::istringstream words(d);
        std::string first;
        words >> first;
        if (first == "localparam") local = true;
        if (first == "parameter") local = false;   // a declaration without a keyword keeps the last one's
        const size_t equals = d.find('=');
        if (local || equals == std::string::npos) continue;
        size_t end = equals;
        while (end > 0 && std::isspace(static_cast<unsigned char>(d[end - 1]))) --end;
        size_t begin = end;
        while (begin > 0 && identifier_char(d[begin - 1])) --begin;
        const std::string name = d.substr(begin, end - begin);
        const std::string item = "." + name + "(" + name + ")";
        const size_t line = out.size() - std::min(out.size(), out.rfind('\n') + 1);
        out += out.empty() ? item : (line + item.size() > 96 ? ",\n      " : ", ") + item;
    }
    return out;
}

std::string range(const std::string& msb) { return msb.empty() ? std::string() : "[" + msb + ":0] "; }

// The SystemVerilog width of a one-channel port by its rule (signal_bits says the same in C++).
std::string one_channel_msb(WidthRule rule) {
    switch (rule) {
        case WidthRule::one_bit: return "";
        case WidthRule::count: return "$clog2(B+1)-1";
        case WidthRule::flits: return "$clog2(L+1)-1";
        case WidthRule::payload: return "W-1";
        case WidthRule::total: return "(($clog2(B+1) > $clog2(L+1)) ? $clog2(B+1) : $clog2(L+1)) + 2";
        case WidthRule::fault: return "15";
    }
    return "";
}

std::string module_head(const char* name, const std::string& header) {
    return std::string("module ") + name + " #(" + header + "\n) (\n";
}

// credit_link's output ports as wires of the top (dut_<name>), and their connections: the top
// connects every output the contract (the checkout's credit_link) declares, so a design that
// lacks one is refused by name; an observed signal that is an output is read from its wire.
std::string output_wires(const std::vector<LinkPort>& outputs) {
    std::string text = "  /* verilator lint_off UNUSEDSIGNAL */\n";
    for (const LinkPort& o : outputs) text += "  logic " + (o.range.empty() ? "" : o.range + " ") + "dut_" + o.name + ";\n";
    return text + "  /* verilator lint_on UNUSEDSIGNAL */\n";
}
std::string output_connections(const std::vector<LinkPort>& outputs) {
    std::string text;
    for (const LinkPort& o : outputs) text += ",\n    ." + o.name + " (dut_" + o.name + ")";
    return text;
}
std::string read_from(const std::vector<LinkPort>& outputs, const std::string& name) {
    for (const LinkPort& o : outputs)
        if (o.name == name) return "dut_" + name;
    return "dut." + name;
}

}  // namespace

namespace {

// `text` from `open` (a '(') to its matching ')', both excluded; npos-safe: "" when unmatched.
std::string group(const std::string& text, size_t open, size_t& close) {
    int depth = 0;
    for (size_t q = open; q < text.size(); ++q) {
        if (text[q] == '(') ++depth;
        if (text[q] == ')' && --depth == 0) {
            close = q;
            return text.substr(open + 1, q - open - 1);
        }
    }
    close = std::string::npos;
    return "";
}

// The output ports of an ANSI port list: each one's range ("[NLANE-1:0]" or "") and name.
std::vector<LinkPort> outputs_of(const std::string& ports) {
    std::vector<LinkPort> out;
    std::string direction, range;
    for (const std::string& d : declarations(ports)) {
        std::istringstream words(d);
        std::string first;
        words >> first;
        const bool declared = first == "input" || first == "output" || first == "inout";
        if (declared) {
            direction = first;
            range.clear();
        }
        size_t end = d.size();
        while (end > 0 && !identifier_char(d[end - 1])) --end;
        size_t begin = end;
        while (begin > 0 && identifier_char(d[begin - 1])) --begin;
        if (direction != "output" || begin == end) continue;
        // A name after a comma keeps the declaration's type: "output logic [3:0] a, b".
        const size_t open = d.find('[');
        if (open != std::string::npos && open < begin) range = d.substr(open, d.rfind(']', begin) - open + 1);
        out.push_back({range, d.substr(begin, end - begin)});
    }
    return out;
}

}  // namespace

LinkDeclaration credit_link_declaration(const std::vector<std::string>& files) {
    for (const std::string& file : files) {
        std::ifstream in(file);
        std::stringstream raw;
        raw << in.rdbuf();
        // Comments dropped: // to the end of a line, /* ... */ anywhere.
        std::string text;
        const std::string all = raw.str();
        for (size_t i = 0; i < all.size(); ++i) {
            if (all.compare(i, 2, "//") == 0) {
                i = all.find('\n', i);
                if (i == std::string::npos) break;
                text += '\n';
            } else if (all.compare(i, 2, "/*") == 0) {
                i = all.find("*/", i);
                if (i == std::string::npos) break;
                ++i;
            } else {
                text += all[i];
            }
        }
        size_t at = 0;
        while ((at = text.find("module", at)) != std::string::npos) {
            size_t p = at + 6;
            at = p;
            if ((at > 6 && identifier_char(text[at - 7])) || (p < text.size() && identifier_char(text[p]))) continue;
            while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
            if (text.compare(p, 11, "credit_link") != 0 || identifier_char(text[p + 11])) continue;
            LinkDeclaration link;
            p += 11;
            while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
            if (text.compare(p, 1, "#") != 0) return link;
            size_t close = 0;
            link.parameters = group(text, text.find('(', p), close);
            while (!link.parameters.empty() && std::isspace(static_cast<unsigned char>(link.parameters.back())))
                link.parameters.pop_back();
            if (close == std::string::npos) return {};
            link.outputs = outputs_of(group(text, text.find('(', close + 1), close));
            return link;
        }
    }
    return {};
}

std::string observed_top_interface(const std::string& header) {
    std::ostringstream sv;
    sv << module_head("credit_link_observed", header);
    std::vector<std::string> ports;
#define CREDITLOOP_CLOCK(port) ports.push_back("input  logic " #port);
#define CREDITLOOP_RESET(port) ports.push_back("input  logic " #port);
#define CREDITLOOP_STIMULUS(port, width) ports.push_back("input  logic " + range(one_channel_msb(WidthRule::width)) + #port);
#include "driven_ports.def"
    for (const SignalInfo& s : kObservedSignals)
        if (s.source == SignalSource::rtl_output) ports.push_back("output logic " + range(one_channel_msb(s.width)) + s.field);
    for (size_t i = 0; i < ports.size(); ++i) sv << "  " << ports[i] << (i + 1 < ports.size() ? ",\n" : "\n");
    sv << ");\n";
    return sv.str();
}

std::string observed_top_sv(const std::string& header, const std::vector<LinkPort>& outputs) {
    std::ostringstream sv;
    sv << "// Generated by creditloop (tb/dut/observed_tops.cpp): credit_link_observed, the testbench top\n"
          "// the harness drives for one channel. It passes credit_link's parameters down, drives its\n"
          "// channel 0 with one-flit packets of one credit (tag = tx_payload; fault_corrupt held high,\n"
          "// so fault_add alone says how much a fault adds), and brings out pool 0's and lane 0's\n"
          "// observation (cpp_models/observed_signals.def) from credit_link's internal signals of the\n"
          "// same names, the conservation total from the probe bound into it (credit_link_probe.sv).\n"
          "/* verilator lint_off UNUSEDPARAM */\n"
       << observed_top_interface(header)
       << "  localparam int CW = $clog2(B + 1);\n"
          "  localparam int FLW = $clog2(L + 1);\n"
          "  localparam int TW = ((CW > FLW) ? CW : FLW) + 3;\n"
       << output_wires(outputs)
       << "  credit_link #(" << pass_down(header) << ") dut (\n"
       << "    .clk, .rst_tx_n, .rst_rx_n, .have (want_send), .bytes (16'd1), .tag (tx_payload), .fault_corrupt (1'b1)";
#define CREDITLOOP_STIMULUS(port, width) \
    if (std::string(#port) != "want_send" && std::string(#port) != "tx_payload") sv << ", ." #port;
#include "driven_ports.def"
    sv << output_connections(outputs) << ");\n"
          "  // Pool 0 and lane 0: the low bits of credit_link's per-pool (16-bit) and per-lane signals.\n"
          "  // A netlist written by yosys (scripts/mutation.py) declares a one-bit wire without a\n"
          "  // range, so a one-bit signal is read whole into a [0:0] first.\n";
    for (const SignalInfo& s : kObservedSignals) {
        if (s.source != SignalSource::rtl_output) continue;
        const std::string field = s.field;
        const std::string from = s.group == SignalGroup::loop ? "dut.u_probe." + field : read_from(outputs, field);
        switch (s.width) {
            case WidthRule::one_bit:
                sv << "  logic [0:0] " << field << "_n;\n  assign " << field << "_n = " << from << ";\n  assign " << field
                   << " = " << field << "_n[0];\n";
                break;
            case WidthRule::count: sv << "  assign " << field << " = CW'(" << from << "[15:0]);\n"; break;
            case WidthRule::flits: sv << "  assign " << field << " = FLW'(" << from << "[15:0]);\n"; break;
            case WidthRule::payload: sv << "  assign " << field << " = " << from << "[W-1:0];\n"; break;
            case WidthRule::total: sv << "  assign " << field << " = TW'(" << from << "[17:0]);   // the probe's 18-bit sums\n"; break;
            case WidthRule::fault: sv << "  assign " << field << " = " << from << "[15:0];\n"; break;
        }
    }
    sv << "endmodule\n";
    return sv.str();
}

std::string channel_top_sv(const std::string& header, const std::vector<LinkPort>& outputs) {
    std::ostringstream sv;
    sv << "// Generated by creditloop (tb/dut/observed_tops.cpp): channel_link_observed, the testbench top\n"
          "// the harness drives for the multi-channel link. Its ports have fixed widths (" << kMaxChannels
       << " channels, " << kMaxLanes << " lanes,\n// " << kMaxPools
       << " pools), so one port list (cpp_models/channel_inputs.def, channel_signals.def) serves every\n"
          "// configuration: an input reaches credit_link cut to the width credit_link declares (its\n"
          "// low NCH, NLANE, NPOOL or NRET entries), and each observed signal is credit_link's internal\n"
          "// signal of the same name, its entries past NCH, NLANE and NPOOL 0.\n"
          "/* verilator lint_off UNUSEDPARAM */\n"
       << module_head("channel_link_observed", header);
    const auto bits = [](int width) { return range(width > 1 ? std::to_string(width - 1) : ""); };
    sv << "  input  logic clk,\n  input  logic rst_tx_n,\n  input  logic rst_rx_n,\n"
          "  // Entries past this configuration's NCH, NPOOL or NRET are not read.\n"
          "  /* verilator lint_off UNUSEDSIGNAL */\n";
    for (const ChannelInputInfo& s : kChannelInputs) sv << "  input  logic " << bits(port_width(s.shape, s.width)) << s.field << ",\n";
    sv << "  /* verilator lint_on UNUSEDSIGNAL */\n";
    const char* separator = "";
    for (const ChannelSignalInfo& s : kChannelSignals) {
        sv << separator << "  output logic " << bits(port_width(s.shape, s.width)) << s.field;
        separator = ",\n";
    }
    sv << "\n);\n" << output_wires(outputs)
       << "  // The fixed-width inputs are cut to credit_link's widths (their low entries).\n"
          "  /* verilator lint_off WIDTH */\n"
       << "  credit_link #(" << pass_down(header) << ") dut (\n    .clk, .rst_tx_n, .rst_rx_n";
    for (const ChannelInputInfo& s : kChannelInputs) sv << ", ." << s.field << " (" << s.field << ")";
    sv << output_connections(outputs) << ");\n";
    for (const ChannelSignalInfo& s : kChannelSignals)
        sv << "  assign " << s.field << " = " << port_width(s.shape, s.width) << "'(" << read_from(outputs, s.field) << ");\n";
    sv << "  /* verilator lint_on WIDTH */\nendmodule\n";
    return sv.str();
}

std::string write_if_changed(const std::string& path, const std::string& text) {
    {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream old;
        old << in.rdbuf();
        if (in && old.str() == text) return "";
    }
    // A temporary of this writer's own: two runs writing the same top at once (two regressions
    // sharing a build folder) each rename a whole file into place, and either one is right.
    static std::atomic<unsigned> writes{0};
    const std::string temporary = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(writes++);
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out) {
            std::remove(temporary.c_str());
            return "cannot write " + temporary;
        }
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        std::remove(temporary.c_str());
        return "cannot write " + path;
    }
    return "";
}

}  // namespace creditloop
