// A bank: many configurations of credit_link verilated and compiled together, as one plugin.
//
// The cost of a verilated configuration is mostly fixed (a CMake configure, the Verilator
// runtime headers parsed by every generated file, a link), so the regression's forty-odd
// configurations are built as one generated top, `creditloop_bank`, that instantiates each of
// them with its own ports (`link_<key>_<port>`); the harness drives one instance and leaves the
// others idle (their clocks never move, so their sequential logic never runs).
//
// Several RTL sets (the checkout's rtl/ and its mutants) can share a bank: every set after the
// first is copied with its module names suffixed (`credit_link__v2`, `credit_counter__v2`), so
// the sets do not collide in one Verilator run.
//
// This file only generates text; dut_library.cpp builds, caches and loads banks.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "link_config.h"

namespace creditloop {

// One RTL set in a bank: its files (the top, module credit_link, first) and the suffix its
// module names get ("" for the first set).
struct BankVariant {
    std::vector<std::string> files;
    std::string suffix;
};

struct BankInstance {
    LinkConfig config;
    int variant = 0;            // index into the bank's variants
    std::string name;           // the instance name, unique in the bank ("link_L4_B12_K1_W32")
};

// credit_link's Verilog parameters for `config`, in the order of its header ("L", 4), ...
std::vector<std::pair<const char*, int>> link_parameters(const LinkConfig& config);

// The instance name of `config` in variant `variant`.
std::string bank_instance_name(const LinkConfig& config, int variant);

// The generated SystemVerilog top that instantiates every instance (one file).
std::string bank_top_sv(const std::vector<BankInstance>& instances, const std::vector<BankVariant>& variants);

// The generated C++ header the plugin compiles: the instances' configurations and a function
// that fills a BankPorts (pointers into the verilated top) for instance `index`.
std::string bank_ports_header(const std::vector<BankInstance>& instances);

// The port list of instance `instance` in a bank's top, each of its ports connected to the
// bank's port of the same name with the instance's prefix ("\n    .clk(c0_clk)", ...).
template <class Ports>
std::string instance_connections(const std::string& instance, const Ports& ports) {
    std::string out;
    for (const auto& port : ports) {
        out += out.empty() ? "\n    ." : ",\n    .";
        out += std::string(port.name) + "(" + instance + "_" + port.name + ")";
    }
    return out;
}

// The body of a generated switch over a bank's instances: for each, "case i: return {&top.<name>_<port>,
// ...};" with its ports in the order of `ports`.
template <class Instances, class Ports>
std::string port_pointer_cases(const Instances& instances, const Ports& ports) {
    std::string out;
    for (size_t i = 0; i < instances.size(); ++i) {
        out += "    case " + std::to_string(i) + ": return {";
        const char* separator = "";
        for (const auto& port : ports) {
            out += separator + std::string("&top.") + instances[i].name + "_" + port.name;
            separator = ", ";
        }
        out += "};\n";
    }
    return out;
}

// The modules `files` declare (`module NAME`), in order.
std::vector<std::string> declared_modules(const std::vector<std::string>& files);
// The modules SystemVerilog text declares, in order (repeats kept).
std::vector<std::string> modules_declared_in(const std::string& text);

// `text` with every whole-word occurrence of a name in `modules` suffixed with `suffix`, outside
// strings and comments.
std::string rename_modules(const std::string& text, const std::vector<std::string>& modules,
                           const std::string& suffix);

// The ports of credit_link that the bank connects, in the order of the top's header: the drive
// side (driven_ports.def) and the RTL outputs among the observed signals (observed_signals.def).
struct BankPort {
    const char* name;
    bool input;
    bool one_bit;   // clock and resets: a 1-bit port of the bank (CData); others are 32 bits (IData)
};
const std::vector<BankPort>& bank_ports();

}  // namespace creditloop
