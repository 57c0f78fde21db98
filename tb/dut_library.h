// Verilated configurations of credit_link, built on first use and cached.
//
// Each (L, B, K, W, trace format, RTL files) is verilated once into a plugin under
// <build>/duts/<key>/dut.so (through cmake/dut, Verilator's own verilate()) and loaded with
// dlopen, so any configuration runs in one command and the next run starts at once. A stamp
// of the RTL's and the plugin's source contents decides when a cached plugin is stale.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "link_config.h"
#include "link_dut.h"

namespace creditloop {

struct DutSources {
    std::string source_root;               // the creditloop checkout (rtl/, cmake/dut, tb/)
    std::string build_root;                // the main build (libcreditloop_vlrt.so, duts/)
    std::vector<std::string> rtl_files;    // empty: every rtl/*.sv of the checkout
    bool fst = false;                      // FST waves instead of VCD
    bool systemc = false;                  // the SystemC harness executable instead of the plugin

    // From the CREDITLOOP_ROOT / CREDITLOOP_BUILD environment, else where this was compiled.
    static DutSources from_environment();
};

class DutLibrary {
public:
    ~DutLibrary();
    DutLibrary(const DutLibrary&) = delete;
    DutLibrary& operator=(const DutLibrary&) = delete;

    // Build if needed, then load. On failure returns nullptr and one line in `error`.
    static std::unique_ptr<DutLibrary> load(const LinkConfig& config, const DutSources& sources,
                                            std::string& error);

    std::unique_ptr<LinkDut> create() const;
    const LinkConfig& config() const { return config_; }
    const std::string& path() const { return path_; }
    const std::string& trace_format() const { return trace_format_; }

private:
    DutLibrary() = default;

    void* handle_ = nullptr;
    DutCreateFn create_ = nullptr;
    LinkConfig config_;
    std::string path_;
    std::string trace_format_;
};

// Build (or find cached) plugins for several configurations, `jobs` at a time. Returns one
// error line per configuration that failed (empty when all are ready).
std::vector<std::string> build_duts(const std::vector<LinkConfig>& configs, const DutSources& sources,
                                    int jobs);
// The same for configurations of different RTL sets.
struct DutBuild {
    LinkConfig config;
    DutSources sources;
};
std::vector<std::string> build_duts(const std::vector<DutBuild>& builds, int jobs);

// Take the RTL from `dir` (every *.sv in it; the top module credit_link in credit_link.sv)
// instead of the checkout's rtl/. "" or one error line naming the problem and the fix.
std::string use_rtl_directory(DutSources& sources, const std::string& dir);

// Build (or find cached) the SystemC harness for `config` (verilator --sc, sc_main); its path,
// or "" and one line in `error`.
std::string systemc_harness(const LinkConfig& config, DutSources sources, std::string& error);

// The directory a configuration's plugin lives in.
std::string dut_directory(const LinkConfig& config, const DutSources& sources);

}  // namespace creditloop
