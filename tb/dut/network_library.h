// Verilated credit networks (rtl/noc/, docs/network.md), built on first use in network banks
// (network_bank.h) under <build>/duts/noc_<stamp>/dut.so and cached like the link's banks: a
// configuration is found again by its key and the stamp of its RTL set. One lock file
// serialises builds between processes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dut_library.h"
#include "noc_dut.h"
#include "noc_model.h"

namespace creditloop {

// The network's RTL set: noc_port (tb/network/), rtl/noc/*.sv and the link's blocks it is built
// from. `replacement` (a mutant) takes the place of the file named `replaces` ("noc_route.sv").
std::vector<std::string> network_rtl_files(const DutSources& sources, const std::string& replacement = "",
                                           const std::string& replaces = "");

struct NetworkWanted {
    NocConfig config;
    std::vector<std::string> rtl;   // empty: network_rtl_files(sources)
};

class NetworkLibrary : public BankPlugin {
public:
    // Build if needed, then load; nullptr and one line in `error` on failure.
    static std::unique_ptr<NetworkLibrary> load(const NetworkWanted& wanted, const DutSources& sources, std::string& error);
    std::unique_ptr<NocDut> create(const std::vector<std::string>& plusargs = {}) const;
    // Where its signals sit in its waves ("noc_bank.creditloop_noc_bank.n3").
    std::string trace_scope() const { return "noc_bank.creditloop_noc_bank.n" + std::to_string(index_); }

private:
    NetworkLibrary() = default;
    NocCreateFn create_ = nullptr;
};

// Build every configuration not in a current network bank, as one bank. One error line per
// configuration that could not be built (empty: all ready).
std::vector<std::string> build_network_duts(const std::vector<NetworkWanted>& wanted, const DutSources& sources,
                                            const BuildStatus& status = {});

}  // namespace creditloop

namespace creditloop {

// The network's RTL set with a mutant (a patch of one of its files, its `replaces=` naming the
// file) applied to today's file; empty and `error` when it does not apply.
std::vector<std::string> network_mutant_rtl(const std::string& mutant, const DutSources& sources, std::string& error);

}  // namespace creditloop
