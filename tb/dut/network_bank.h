// A network bank: credit networks (rtl/noc/, docs/network.md) verilated and compiled together as
// one plugin, as dut_bank.h does for credit_link. The generated top, `creditloop_noc_bank`,
// instantiates noc_port (tb/network/noc_port.sv) once per configuration, its ports prefixed by
// the instance name (`n0_inj_flit`); every RTL set after the first (a mutant) is copied with its
// module names suffixed. This file only generates text.
#pragma once

#include <string>
#include <vector>

#include "dut_bank.h"
#include "noc_model.h"

namespace creditloop {

// A configuration's name in banks and reports: "ring4_v2_b2_l1_dateline" (routing_name's words).
std::string noc_key(const NocConfig& config);
// The routing's word: "minimal", "dateline" (rings), "dor", "adaptive" (meshes).
std::string routing_name(const NocConfig& config);

struct NocBankInstance {
    NocConfig config;
    int variant = 0;
    std::string name;   // "n0", "n1", ...
};

struct NocPort {
    const char* name;
    bool input;
    int width;
};
const std::vector<NocPort>& noc_ports();

std::string noc_bank_top_sv(const std::vector<NocBankInstance>& instances, const std::vector<BankVariant>& variants);
std::string noc_bank_header(const std::vector<NocBankInstance>& instances);

}  // namespace creditloop
