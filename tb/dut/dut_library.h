// Verilated configurations of credit_link, built on first use and cached.
//
// Configurations are built in banks (dut_bank.h): every configuration a command asks for that
// no current bank holds is verilated and compiled together in one plugin under
// <build>/duts/bank_<stamp>/dut.so (through cmake/dut, Verilator's own verilate()), loaded with
// dlopen. A configuration is found again by its key and the stamp of its RTL set (the files'
// contents, the harness sources the plugin compiles, the trace format), so a bank is rebuilt
// only when one of its own inputs changed, and a bank no current RTL set matches is removed
// when a new one is built. One lock file serialises builds between processes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "link_config.h"
#include "link_dut.h"

namespace creditloop {

// Runs at least this long get a plugin of their own (DutSources::solo) rather than a bank's instance.
constexpr uint64_t kSoloCycles = 2'000'000;

struct DutSources {
    std::string source_root;               // the creditloop checkout or share/creditloop (rtl/, cmake/dut, tb/)
    std::string build_root;                // the build cache (duts/, blocks/, mutants/)
    std::string runtime_dir;               // libcreditloop_vlrt.so and the static layers; empty: build_root
    std::vector<std::string> rtl_files;    // empty: every rtl/*.sv of the checkout
    bool fst = false;                      // FST waves instead of VCD
    bool systemc = false;                  // the SystemC harness executable instead of the plugin
    bool solo = false;                     // a bank of this configuration alone, at -O2 (speed runs)
    bool werror = false;                   // warnings in the user's own RTL stop the run (--werror)
    bool own_top = false;                  // rtl_files bring their own credit_link_observed (a mapped link)

    // From the CREDITLOOP_ROOT / CREDITLOOP_BUILD environment, else where this program lives: an
    // installed creditloop (bin/ beside share/creditloop) reads its sources from share/creditloop and
    // caches its builds in $XDG_CACHE_HOME/creditloop (~/.cache/creditloop); a build tree's, from
    // the checkout it was compiled from.
    static DutSources from_environment();
};

// A loaded bank plugin of either kind (credit_link's banks, channel banks): the library handle
// (closed with it), its path, the instance's index in it and its trace format.
class BankPlugin {
public:
    BankPlugin(const BankPlugin&) = delete;
    BankPlugin& operator=(const BankPlugin&) = delete;
    const std::string& path() const { return path_; }
    const std::string& trace_format() const { return trace_format_; }

protected:
    BankPlugin() = default;
    ~BankPlugin();
    // Opens `plugin` for instance `index` and looks up its entry points by `names` (the ABI
    // version, the bank's size, the description of an instance, the factory) into `entries`;
    // false and one line in `error` when it cannot be loaded or lacks one (`not_ours` says why
    // it is not a plugin of this build, and what to do).
    bool open(const std::string& plugin, int index, const char* const (&names)[4], void* (&entries)[4],
              const std::string& not_ours, std::string& error);

    void* handle_ = nullptr;
    int index_ = 0;
    std::string path_;
    std::string trace_format_;
};

class DutLibrary : public BankPlugin {
public:
    // Build if needed, then load. On failure returns nullptr and one line in `error`.
    static std::unique_ptr<DutLibrary> load(const LinkConfig& config, const DutSources& sources,
                                            std::string& error);

    // A DUT of this configuration; `plusargs` ("+name=value") are its RTL's command line.
    std::unique_ptr<LinkDut> create(const std::vector<std::string>& plusargs = {}) const;
    const LinkConfig& config() const { return config_; }
    // Where this configuration's signals sit in its waves ("bank.creditloop_bank.link_L4_B12_K1_W32").
    const std::string& trace_scope() const { return trace_scope_; }

private:
    DutLibrary() = default;

    DutCreateFn create_ = nullptr;
    LinkConfig config_;
    std::string trace_scope_;
};

// What a build is doing, for a progress line: a short phrase ("verilating 44 configurations",
// "compiling: 40 %"); called from the building thread.
using BuildStatus = std::function<void(const std::string&)>;

// Build (or find cached) plugins for several configurations, `jobs` at a time. Returns one
// error line per configuration that failed (empty when all are ready).
std::vector<std::string> build_duts(const std::vector<LinkConfig>& configs, const DutSources& sources,
                                    int jobs, const BuildStatus& status = {});
// The same for configurations of different RTL sets.
struct DutBuild {
    LinkConfig config;
    DutSources sources;
};
std::vector<std::string> build_duts(const std::vector<DutBuild>& builds, int jobs, const BuildStatus& status = {});

// Take the RTL from `dir` (every *.sv in it; the top module credit_link in credit_link.sv)
// instead of the checkout's rtl/. "" or one error line naming the problem and the fix.
std::string use_rtl_directory(DutSources& sources, const std::string& dir);

// Verilator's own ways to give sources, for --rtl: include directories (+incdir+), defines
// (+define+NAME[=VALUE]) and file lists (-f). With any of them the directory's files and the
// lists' are preprocessed once (verilator -E, `line directives kept so messages name your files)
// into one credit_link.sv under <build>/blocks/.
struct RtlOptions {
    std::vector<std::string> incdirs;
    std::vector<std::string> defines;
    std::vector<std::string> file_lists;
    bool any() const { return !incdirs.empty() || !defines.empty() || !file_lists.empty(); }
};
std::string use_rtl_directory(DutSources& sources, const std::string& dir, const RtlOptions& options);

// Build (or find cached) the SystemC harness for `config` (verilator --sc, sc_main); its path,
// or "" and one line in `error`.
std::string systemc_harness(const LinkConfig& config, DutSources sources, std::string& error);

// The directory a configuration's SystemC harness lives in.
std::string systemc_directory(const LinkConfig& config, const DutSources& sources);

}  // namespace creditloop
