// Verilated configurations of the multi-channel link (channel_link), built on first use in
// channel banks (channel_bank.h) under <build>/duts/channels_<stamp>/dut.so and cached: a
// configuration is found again by its key and the stamp of its RTL set (the files' contents, the
// plugin's sources, the trace format). One lock file serialises builds between processes, as
// for credit_link's banks (dut_library.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "channel_config.h"
#include "channel_dut.h"
#include "dut_library.h"

namespace creditloop {

// The RTL set of the multi-channel link: its testbench top (generated, observed_tops.h), the link and its
// blocks (rtl/*.sv) and the probe bound into it (rtl/observe/credit_link_probe.sv);
// `replacement` (a mutant, or your own file) takes the place of the file of the same role.
std::vector<std::string> channel_rtl_files(const DutSources& sources, const std::string& replacement = "",
                                           const std::string& replaces = "credit_link.sv");

struct ChannelWanted {
    ChannelLinkConfig config;
    std::vector<std::string> rtl;   // empty: channel_rtl_files(sources)
};

class ChannelLibrary : public BankPlugin {
public:
    // Build if needed, then load; nullptr and one line in `error` on failure.
    static std::unique_ptr<ChannelLibrary> load(const ChannelWanted& wanted, const DutSources& sources, std::string& error);
    // `plusargs`: +NAME=VALUE for the RTL's $value$plusargs (a generated mutant's selector, say).
    std::unique_ptr<ChannelDut> create(const std::vector<std::string>& plusargs = {}) const;
    // Where its signals sit in its waves ("channel_bank.creditloop_channel_bank.c3").
    std::string trace_scope() const { return "channel_bank.creditloop_channel_bank.c" + std::to_string(index_); }

private:
    ChannelLibrary() = default;
    ChannelCreateFn create_ = nullptr;
};

// Build every configuration not in a current channel bank, as one bank (split by RTL set if
// that fails). One error line per configuration that could not be built (empty: all ready).
std::vector<std::string> build_channel_duts(const std::vector<ChannelWanted>& wanted, const DutSources& sources,
                                            const BuildStatus& status = {});

// The credit_link banks of `links` and the channel bank of `channels` at once: each kind holds a
// build lock of its own, so one's Verilator run (one core) overlaps the other's compile, and the
// steps a build runs alone (configure, precompiled headers, link) leave no core idle. The errors
// of both, the links' first; `status` shows what each is doing.
std::vector<std::string> build_link_and_channel_duts(const std::vector<DutBuild>& links, int jobs,
                                                     const std::vector<ChannelWanted>& channels,
                                                     const DutSources& sources, const BuildStatus& status = {});

// The SystemC harness of `config` (the multi-channel link verilated with --sc, an executable under
// <build>/duts/channels_<key>_sc/), built if needed; "" and `error` on failure.
std::string channel_systemc_harness(const ChannelLinkConfig& config, DutSources sources, std::string& error,
                                    const BuildStatus& status = {});

}  // namespace creditloop
