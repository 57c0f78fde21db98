// A channel bank: configurations of the multi-channel link (docs/channels.md) verilated and
// compiled together as one plugin, as dut_bank.h does for credit_link. The generated top,
// `creditloop_channel_bank`, instantiates channel_link_observed once per configuration, with
// its ports prefixed by the instance name (`c0_credits`); every RTL set after the first (the
// mutants) is copied with its module names suffixed. This file only generates text.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "channel_config.h"
#include "dut_bank.h"

namespace creditloop {

struct ChannelBankInstance {
    ChannelLinkConfig config;
    int variant = 0;
    std::string name;   // "c0", "c1", ...
};

// The ports of channel_link_observed: name, input, width in bits (docs/channels.md).
struct ChannelPort {
    std::string name;
    bool input;
    int width;
};
const std::vector<ChannelPort>& channel_ports();

// The parameters channel_link_observed is given for `config`, each value a Verilog constant
// ("4", "64'h0000000000000302"; a table's entry 0 in its low bits). Those left out keep the
// top's defaults, which are credit_link's too (so a link without them keeps its verilated
// instance, and `creditloop mutation` elaborates credit_link alone from this list).
std::vector<std::pair<std::string, std::string>> channel_parameter_list(const ChannelLinkConfig& config);
// The same as an instance's parameter list ("#(.NCH(4), ...)").
std::string channel_parameters(const ChannelLinkConfig& config);

std::string channel_bank_top_sv(const std::vector<ChannelBankInstance>& instances, const std::vector<BankVariant>& variants);
std::string channel_bank_header(const std::vector<ChannelBankInstance>& instances);

}  // namespace creditloop
