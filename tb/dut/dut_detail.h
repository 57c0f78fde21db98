// Inside the cache of verilated configurations (dut_library.h): what its files share.
//   dut_common.cpp   files, stamps, the build log, locking
//   dut_banks.cpp    banks: manifests, lookup, the build and its fallback, pruning
//   dut_systemc.cpp  the SystemC harness, one executable per configuration
//   dut_library.cpp  the public interface: DutLibrary, build_duts
// Not for use outside those files.
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dut_bank.h"
#include "dut_library.h"
#include "observed_tops.h"

namespace creditloop::dut_detail {

namespace fs = std::filesystem;

// ---- dut_common.cpp
std::string read_file(const std::string& path);
// FNV-1a, 64 bits: a content stamp, not a security boundary.
uint64_t fnv1a(const std::string& text, uint64_t hash = 0xcbf29ce484222325ull);
std::string hex(uint64_t value);                          // 16 hex digits
// " coverage" in a code-coverage build (CREDITLOOP_COVERAGE: banks verilated with line, toggle
// and user coverage, make coverage), else "": part of every bank's stamp, so the two never mix.
const char* coverage_flavour();
std::vector<std::string> sv_files_in(const fs::path& rtl);    // *.sv, credit_link.sv first
// The design: rtl/*.sv, or the files --rtl or a map gave (sources.rtl_files).
std::vector<std::string> design_files(const DutSources& sources);
// The design and the testbench top (generated) and the probe (rtl/observe/), unless the design
// brings its own top.
std::vector<std::string> rtl_files(const DutSources& sources);
// What the testbench tops are generated from: credit_link's parameter header from `design` (the
// checkout's when it has no credit_link), the outputs of the checkout's (the contract).
LinkDeclaration top_declaration(const DutSources& sources, const std::vector<std::string>& design);
// Writes a generated top `name` with `text` under the build folder; its path. Throws when it cannot.
std::string generated_top(const DutSources& sources, const std::string& name, const std::string& text);
std::string runtime_dir(const DutSources& sources);       // where the runtime and the static layers are
std::string runtime_library(const DutSources& sources);   // libcreditloop_vlrt.so of the main build
// The main build's static layers the SystemC harness links (libcreditloop_<layer>.a).
std::vector<std::string> core_libraries(const DutSources& sources);
// Run argv with its output appended to `log`; `status` hears the build's progress.
int run_logged(const std::vector<std::string>& argv, const std::string& log, const BuildStatus& status = {},
               const std::string& phase = "");
std::string first_error_line(const std::string& log);     // what went wrong, in RTL terms where possible
bool missing_port(const std::string& error);              // the error names a port the top lacks

class FileLock {
public:
    explicit FileLock(const std::string& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT, 0644)) {
        if (fd_ >= 0) flock(fd_, LOCK_EX);
    }
    ~FileLock() {
        if (fd_ >= 0) {
            flock(fd_, LOCK_UN);
            close(fd_);
        }
    }

private:
    int fd_;
};

// The headers and lists both kinds of verilated build compile besides their own sources (the
// DUT interface, the observed signals and the ports the harness drives), and their CMake project.
inline constexpr const char* kDutContractFiles[] = {
    "tb/harness/link_dut.h",   "tb/harness/driven_ports.def",     "cpp_models/link_config.h",
    "cpp_models/link_inputs.h", "cpp_models/observation.h",       "cpp_models/observed_signals.def",
    "cmake/dut/CMakeLists.txt", "rtl/observe/link_signals.svh"};

// ---- dut_systemc.cpp
std::string ensure_systemc_built(const LinkConfig& config, const DutSources& sources, const BuildStatus& status);

// ---- dut_banks.cpp
std::string duts_root(const DutSources& sources);        // <build>/duts
// An RTL set's stamp: its files and their contents, the harness sources, the trace format and
// the optimisation; equal stamps build equal code.
std::string variant_stamp(const std::vector<std::string>& rtl, bool fst, bool solo, const std::string& source_root);

struct Found {
    std::string plugin;
    int index = 0;
};

std::optional<Found> find_in_banks(const std::string& root, const std::string& stamp, const std::string& key);

// A bank of either kind as its manifest (dir/manifest.txt, written last and whole) describes it:
// its first line (kLinkBankMagic, kChannelBankMagic), its trace format and optimisation, its RTL
// variants and its instances.
constexpr const char* kLinkBankMagic = "creditloop-bank 1";
constexpr const char* kChannelBankMagic = "creditloop-channel-bank 1";
struct Manifest {
    std::string magic;
    bool fst = false;
    bool solo = false;
    struct Variant {
        std::string stamp;
        std::vector<std::string> files;
    };
    std::vector<Variant> variants;
    struct Instance {
        int variant = 0;
        std::string key;
    };
    std::vector<Instance> instances;
    std::string library;   // "SIZE HASH" of dut.so as built (library_fingerprint): a truncated or foreign one is rebuilt
};
std::string manifest_text(const Manifest& m);
// The size and a hash of a built file's whole content, "SIZE HASH"; "" when it cannot be read.
std::string library_fingerprint(const fs::path& file);
std::optional<Manifest> read_manifest(const fs::path& dir, const std::string& magic);
// The complete bank among root's folders whose name starts with `prefix` that holds `key` built
// from the RTL set `stamp`.
std::optional<Found> find_bank(const std::string& root, const std::string& prefix, const std::string& magic,
                               const std::string& stamp, const std::string& key);

// One configuration of one RTL set, on its way into a bank.
struct Wanted {
    LinkConfig config;
    DutSources sources;
    std::vector<std::string> rtl;
    std::string stamp;
    std::string error;   // set when it could not be built
};

// Every variant's files, the first as they are and the others copied under dir/v<N>/ with their
// module names suffixed: the RTL list of one verilated bank.
std::vector<std::string> bank_sources(const fs::path& dir, const std::vector<BankVariant>& variants);
// A bank's RTL sets, one variant per stamp in the order first met: the variant of `stamp`, added
// to `variants` (its files, and "__v<N>" as its copies' module suffix after the first) when new.
int bank_variant(std::vector<std::string>& stamps, std::vector<BankVariant>& variants, const std::string& stamp,
                 const std::vector<std::string>& rtl);
// The manifest of a bank of `items` (either kind: each has a config, an rtl set and its stamp),
// its RTL sets in `variants`; add(item, variant) hears each item's place in the bank.
template <class Item, class Add>
Manifest plan_bank(const std::vector<Item*>& items, const char* magic, bool fst, std::vector<BankVariant>& variants,
                   Add add) {
    Manifest m;
    m.magic = magic;
    m.fst = fst;
    std::vector<std::string> stamps;
    for (Item* item : items) {
        const int variant = bank_variant(stamps, variants, item->stamp, item->rtl);
        if (static_cast<size_t>(variant) == m.variants.size()) m.variants.push_back({item->stamp, item->rtl});
        m.instances.push_back({variant, item->config.key()});
        add(*item, variant);
    }
    return m;
}

// One kind of bank (channel banks, network banks) as build_missing() handles it: its folders'
// prefix under <build>/duts, its manifest's first line, its lock file, and its stamp of an RTL set.
struct BankKind {
    const char* prefix;      // "channels_"
    const char* magic;       // kChannelBankMagic
    const char* lock;        // ".lock-channels": each kind has its own, so kinds never prune each other
    std::function<std::string(const std::vector<std::string>& rtl, bool fst)> stamp;
};

// Builds every wanted configuration (each has .config, with key(), and .rtl, empty for
// default_rtl) that no complete bank of `kind` under `root` holds: the list is made, made again
// under the kind's lock (another process may have built them meanwhile), the stale banks are
// pruned and build(todo) builds the rest, setting each item's error. Item is an aggregate
// {config, rtl, stamp, error}. The distinct error lines, empty when all are ready.
template <class Item, class Wanted, class DefaultRtl, class Build>
std::vector<std::string> build_missing(const std::vector<Wanted>& wanted, const std::string& root, bool fst,
                                       const BankKind& kind, DefaultRtl default_rtl, Build build) {
    std::vector<Item> items;
    const auto missing = [&] {
        items.clear();
        for (const auto& w : wanted) {
            Item item{{w.config}, w.rtl.empty() ? default_rtl() : w.rtl, "", ""};
            for (const auto& f : item.rtl)
                if (!fs::exists(f)) item.error = "RTL file " + f + " not found";
            if (item.error.empty()) {
                item.stamp = kind.stamp(item.rtl, fst);
                if (find_bank(root, kind.prefix, kind.magic, item.stamp, item.config.key())) continue;
            }
            bool twice = false;
            for (const auto& other : items) twice = twice || (other.stamp == item.stamp && other.config.key() == item.config.key());
            if (!twice) items.push_back(item);
        }
    };
    missing();
    std::vector<std::string> errors;
    if (items.empty()) return errors;
    FileLock lock((fs::path(root) / kind.lock).string());
    missing();
    std::vector<Item*> todo;
    for (auto& item : items)
        if (item.error.empty()) todo.push_back(&item);
    if (!todo.empty()) {
        prune_banks(root, kind.prefix, kind.magic,
                    [&](const Manifest& m, const Manifest::Variant& v) { return kind.stamp(v.files, m.fst) == v.stamp; });
        build(todo);
    }
    for (const auto& item : items)
        if (!item.error.empty() && std::find(errors.begin(), errors.end(), item.error) == errors.end())
            errors.push_back(item.error);
    return errors;
}

// A DUT from a plugin's factory, instance `index`, with `plusargs` ("+name=value") as its RTL's
// command line.
template <class Dut, class Create>
std::unique_ptr<Dut> create_dut(Create create, int index, const std::vector<std::string>& plusargs) {
    std::vector<const char*> argv;
    for (const auto& arg : plusargs) argv.push_back(arg.c_str());
    return std::unique_ptr<Dut>(create(index, static_cast<int>(argv.size()), argv.data()));
}
// `dir` emptied (a build that died half-way) and created for a bank: "" or the error line.
std::string fresh_bank_dir(const fs::path& dir);
// Configure cmake/dut in dir/build with `defines` (-D...), compile, move dut.so into dir, write
// `manifest` (as dir/manifest.txt, last and whole: a bank with a manifest is complete) and drop
// the generated code. "" or one error line ("verilating <what> failed (...); full log: ...").
std::string compile_bank(const fs::path& dir, const DutSources& sources, const std::vector<std::string>& rtl,
                         const std::vector<std::string>& defines, const std::string& what, const std::string& manifest,
                         const BuildStatus& status);

void build_with_fallback(std::vector<Wanted*> wanted, const std::string& root, const BuildStatus& status);
// Remove the banks no current RTL set matches any more (their files changed or are gone), and
// the remains of failed builds: the folders under root named prefix* whose manifest (of `magic`)
// is missing or has no variant for which current_variant holds.
void prune_banks(const std::string& root, const std::string& prefix, const std::string& magic,
                 const std::function<bool(const Manifest&, const Manifest::Variant&)>& current_variant);
void prune_stale_banks(const std::string& root, const std::string& source_root);   // credit_link's banks

}  // namespace creditloop::dut_detail
