#include "dut_library.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "dut_bank.h"
#include "parallel.h"
#include "process.h"

#ifndef CREDITLOOP_SOURCE_DIR
#define CREDITLOOP_SOURCE_DIR "."
#endif
#ifndef CREDITLOOP_BINARY_DIR
#define CREDITLOOP_BINARY_DIR "build"
#endif

namespace fs = std::filesystem;

namespace creditloop {

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// FNV-1a, 64 bits: a content stamp, not a security boundary.
uint64_t fnv1a(const std::string& text, uint64_t hash = 0xcbf29ce484222325ull) {
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 0x100000001b3ull;
    }
    return hash;
}

std::vector<std::string> sv_files_in(const fs::path& rtl) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(rtl, ec)) {
        if (entry.is_regular_file() && entry.path().extension() == ".sv")
            files.push_back(entry.path().string());
    }
    // The top first, the rest in a fixed order: the same inputs give the same build.
    std::sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
        const bool a_top = fs::path(a).filename() == "credit_link.sv";
        const bool b_top = fs::path(b).filename() == "credit_link.sv";
        if (a_top != b_top) return a_top;
        return a < b;
    });
    return files;
}

std::vector<std::string> rtl_files(const DutSources& sources) {
    if (!sources.rtl_files.empty()) return sources.rtl_files;
    return sv_files_in(fs::path(sources.source_root) / "rtl");
}

std::string runtime_library(const DutSources& sources) {
    return (fs::path(sources.build_root) / "libcreditloop_vlrt.so").string();
}

std::string core_library(const DutSources& sources) {
    return (fs::path(sources.build_root) / "libcreditloop_core.a").string();
}

std::string hex(uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

// Run argv with its output appended to `log` (process.h); while it runs, `status` hears how far
// the build is ("compiling: 40 %", from CMake's "[ 40%]" lines).
int run_logged(const std::vector<std::string>& argv, const std::string& log, const BuildStatus& status = {},
               const std::string& phase = "") {
    if (!status) return run_to_log(argv, log);
    return run_to_log(argv, log, [&] {
        const std::string text = read_file(log);
        const auto at = text.rfind("%]");
        if (at == std::string::npos || at < 3) return;
        const auto open = text.rfind('[', at);
        if (open != std::string::npos) status(phase + ": " + text.substr(open + 1, at - open - 1) + " %");
    });
}

// The first line of the build log that says what went wrong. A port the harness needs but the
// RTL top lacks shows up as a pin the generated bank cannot connect (or, for the SystemC
// harness, as a C++ error on the verilated class); say it in RTL terms.
std::string first_error_line(const std::string& log) {
    std::istringstream in(read_file(log));
    std::string line;
    const auto quoted_after = [](const std::string& rest) {
        // g++ and Verilator quote a name as 'name' or with UTF-8 quotes; keep what lies between.
        std::string name;
        bool inside = false;
        for (size_t i = 0; i < rest.size(); ++i) {
            const bool quote = rest[i] == '\'' || (static_cast<unsigned char>(rest[i]) == 0xe2 && i + 2 < rest.size());
            if (quote) {
                if (inside) break;
                inside = true;
                if (rest[i] != '\'') i += 2;
                continue;
            }
            if (inside) name += rest[i];
        }
        return name;
    };
    const auto no_port = [](const std::string& port) {
        return "the RTL top credit_link has no port '" + port +
               "'; its ports must match rtl/credit_link.sv (see docs/own-rtl.md)";
    };
    while (std::getline(in, line)) {
        // Verilator: "Pin not found: 'x'", or "Pin is not an in/out/inout/...: 'x'" when the
        // name is an internal signal.
        for (const char* pin_error : {"Pin not found:", "Pin is not an in/out"}) {
            const auto pin = line.find(pin_error);
            if (pin != std::string::npos && line.rfind("%Error", 0) == 0) return no_port(quoted_after(line.substr(pin)));
        }
        const auto member = line.find("has no member named");
        if (member != std::string::npos && line.find("Vcredit_link") != std::string::npos)
            return no_port(quoted_after(line.substr(member + 19)));
        if (line.rfind("%Error", 0) == 0 || line.rfind("%Warning", 0) == 0 ||
            line.find("error:") != std::string::npos || line.find("CMake Error") != std::string::npos)
            return line;
    }
    return "";
}

// The port a "no port" error names, or "" when the error is about something else.
bool missing_port(const std::string& error) { return error.find("has no port '") != std::string::npos; }

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
constexpr const char* kDutContractFiles[] = {"tb/link_dut.h", "tb/driven_ports.def", "cpp_models/link_config.h",
                                             "cpp_models/link_inputs.h", "cpp_models/observation.h",
                                             "cpp_models/observed_signals.def", "cmake/dut/CMakeLists.txt"};

// ---- the SystemC harness: one executable per configuration, as before banks

std::string systemc_stamp(const LinkConfig& config, const DutSources& sources, const std::vector<std::string>& rtl) {
    uint64_t hash = fnv1a(config.key() + "systemc");
    const fs::path root(sources.source_root);
    // The harness links the main build's library: a change there relinks it.
    for (const char* file : kDutContractFiles) hash = fnv1a(read_file((root / file).string()), hash);
    for (const char* file : {"tb/systemc/sc_main.cpp", "tb/systemc/systemc_link.h", "tb/compiled_config.h"})
        hash = fnv1a(read_file((root / file).string()), hash);
    hash = fnv1a(read_file(core_library(sources)), hash);
    for (const auto& file : rtl) hash = fnv1a(file + "\n" + read_file(file), hash);
    return hex(hash);
}

std::string ensure_systemc_built(const LinkConfig& config, const DutSources& sources, const BuildStatus& status) {
    const fs::path dir = systemc_directory(config, sources);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return "cannot create " + dir.string() + ": " + ec.message();
    FileLock lock((dir / ".lock").string());

    const auto rtl = rtl_files(sources);
    if (rtl.empty()) return "no RTL files found under " + sources.source_root + "/rtl";
    for (const auto& file : rtl) {
        if (!fs::exists(file)) return "RTL file " + file + " not found";
    }
    if (!fs::exists(core_library(sources)))
        return core_library(sources) + " not found: build the project first (make build)";

    const std::string stamp = systemc_stamp(config, sources, rtl);
    const fs::path stamp_file = dir / "stamp";
    const fs::path harness = dir / "creditloop_sc";
    if (fs::exists(harness) && read_file(stamp_file.string()) == stamp) return "";

    fs::remove(stamp_file, ec);
    const std::string log = (dir / "build.log").string();
    { std::ofstream truncate(log, std::ios::trunc); }
    std::string rtl_list;
    for (const auto& file : rtl) rtl_list += (rtl_list.empty() ? "" : ";") + file;
    const std::vector<std::string> configure = {
        "cmake", "-S", (fs::path(sources.source_root) / "cmake" / "dut").string(),
        "-B", dir.string(),
        "-DCL_L=" + std::to_string(config.stages),
        "-DCL_B=" + std::to_string(config.buffer_slots),
        "-DCL_K=" + std::to_string(config.batch),
        "-DCL_W=" + std::to_string(config.payload_bits),
        "-DCL_SYNC=" + std::to_string(config.sync_stages),
        "-DCL_FREE_DELAY=" + std::to_string(config.free_delay),
        std::string("-DCL_FULL_RATE=") + (config.rtl_full_rate ? "1" : "0"),
        "-DCL_POLICY=" + std::to_string(static_cast<int>(config.policy)),
        "-DCL_LOW=" + std::to_string(config.low_credits),
        "-DCL_IDLE=" + std::to_string(config.idle_cycles),
        "-DCL_TIMEOUT=" + std::to_string(config.flush_timeout),
        "-DCL_RTL_SOURCES=" + rtl_list,
        "-DCL_SOURCE_ROOT=" + sources.source_root,
        "-DCL_SYSTEMC=ON",
        "-DCL_CORE_LIB=" + core_library(sources)};
    const std::string what = "verilating " + config.key() + " for SystemC failed";
    const std::string phase = "SystemC " + config.key();
    if (status) status(phase + ": configuring");
    if (run_logged(configure, log) != 0) return what + " (" + first_error_line(log) + "); full log: " + log;
    if (run_logged({"cmake", "--build", dir.string(), "--", "-j2"}, log, status, phase) != 0)
        return what + " (" + first_error_line(log) + "); full log: " + log;
    std::ofstream(stamp_file) << stamp;
    return "";
}

// ---- banks

// The files whose contents every bank's plugin depends on besides the RTL and the contract
// files: what it compiles and what generates its sources.
constexpr const char* kBankHarnessFiles[] = {"tb/verilated_link.cpp", "tb/dut_bank.cpp", "tb/dut_bank.h"};

// An RTL set's stamp: its files and their contents, the harness sources, the trace format and
// the optimisation; equal stamps build equal code.
std::string variant_stamp(const std::vector<std::string>& rtl, bool fst, bool solo, const std::string& source_root) {
    uint64_t hash = fnv1a(std::string(fst ? "fst" : "vcd") + (solo ? " solo" : ""));
    for (const char* file : kDutContractFiles) hash = fnv1a(read_file((fs::path(source_root) / file).string()), hash);
    for (const char* file : kBankHarnessFiles) hash = fnv1a(read_file((fs::path(source_root) / file).string()), hash);
    for (const auto& file : rtl) hash = fnv1a(file + "\n" + read_file(file), hash);
    return hex(hash);
}

std::string duts_root(const DutSources& sources) { return (fs::path(sources.build_root) / "duts").string(); }

// A bank as its manifest describes it.
struct Manifest {
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
};

constexpr const char* kManifest = "manifest.txt";

std::string manifest_text(const Manifest& m) {
    std::ostringstream out;
    out << "creditloop-bank 1\nkind " << (m.fst ? "fst" : "vcd") << (m.solo ? " solo" : "") << "\n";
    for (const auto& v : m.variants) {
        out << "variant " << v.stamp << "\n";
        for (const auto& f : v.files) out << "file " << f << "\n";
    }
    for (const auto& i : m.instances) out << "instance " << i.variant << " " << i.key << "\n";
    return out.str();
}

std::optional<Manifest> read_manifest(const fs::path& dir) {
    std::istringstream in(read_file((dir / kManifest).string()));
    std::string line;
    if (!std::getline(in, line) || line != "creditloop-bank 1") return std::nullopt;
    Manifest m;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string word;
        words >> word;
        if (word == "kind") {
            std::string format, solo;
            words >> format >> solo;
            m.fst = format == "fst";
            m.solo = solo == "solo";
        } else if (word == "variant") {
            m.variants.emplace_back();
            words >> m.variants.back().stamp;
        } else if (word == "file" && !m.variants.empty()) {
            m.variants.back().files.push_back(line.substr(5));
        } else if (word == "instance") {
            Manifest::Instance i;
            words >> i.variant >> i.key;
            m.instances.push_back(i);
        }
    }
    return m;
}

struct Found {
    std::string plugin;
    int index = 0;
};

// A current bank that holds `config` of the RTL set with stamp `stamp`.
std::optional<Found> find_in_banks(const std::string& root, const std::string& stamp, const std::string& key) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
        if (!entry.is_directory() || entry.path().filename().string().rfind("bank_", 0) != 0) continue;
        const auto m = read_manifest(entry.path());
        if (!m || !fs::exists(entry.path() / "dut.so")) continue;
        for (size_t i = 0; i < m->instances.size(); ++i) {
            const auto& inst = m->instances[i];
            if (inst.key == key && inst.variant >= 0 && static_cast<size_t>(inst.variant) < m->variants.size() &&
                m->variants[inst.variant].stamp == stamp)
                return Found{(entry.path() / "dut.so").string(), static_cast<int>(i)};
        }
    }
    return std::nullopt;
}

// One configuration of one RTL set, on its way into a bank.
struct Wanted {
    LinkConfig config;
    DutSources sources;
    std::vector<std::string> rtl;
    std::string stamp;
    std::string error;   // set when it could not be built
};

// Verilate and compile `wanted` (all of one trace format and optimisation) as one bank; ""
// or the error line.
std::string build_bank(std::vector<Wanted*>& wanted, const std::string& root, const BuildStatus& status) {
    Manifest m;
    m.fst = wanted.front()->sources.fst;
    m.solo = wanted.front()->sources.solo;
    std::vector<BankVariant> variants;
    std::vector<BankInstance> instances;
    for (Wanted* w : wanted) {
        int variant = -1;
        for (size_t v = 0; v < m.variants.size(); ++v)
            if (m.variants[v].stamp == w->stamp) variant = static_cast<int>(v);
        if (variant < 0) {
            variant = static_cast<int>(m.variants.size());
            m.variants.push_back({w->stamp, w->rtl});
            variants.push_back({w->rtl, variant == 0 ? "" : "__v" + std::to_string(variant)});
        }
        m.instances.push_back({variant, w->config.key()});
        instances.push_back({w->config, variant, bank_instance_name(w->config, variant)});
    }
    const std::string text = manifest_text(m);
    const fs::path dir = fs::path(root) / ("bank_" + hex(fnv1a(text)));
    std::error_code ec;
    fs::remove_all(dir, ec);   // a build that died half-way
    fs::create_directories(dir, ec);
    if (ec) return "cannot create " + dir.string() + ": " + ec.message();

    // Every RTL set after the first is copied with its module names suffixed.
    std::vector<std::string> sources;
    for (size_t v = 0; v < variants.size(); ++v) {
        if (v == 0) {
            sources.insert(sources.end(), variants[v].files.begin(), variants[v].files.end());
            continue;
        }
        const auto modules = declared_modules(variants[v].files);
        const fs::path copies = dir / ("v" + std::to_string(v));
        fs::create_directories(copies, ec);
        for (size_t f = 0; f < variants[v].files.size(); ++f) {
            const fs::path copy = copies / (std::to_string(f) + "_" + fs::path(variants[v].files[f]).filename().string());
            std::ofstream(copy) << rename_modules(read_file(variants[v].files[f]), modules, variants[v].suffix);
            sources.push_back(copy.string());
        }
    }
    std::ofstream(dir / "bank.sv") << bank_top_sv(instances, variants);
    std::ofstream(dir / "bank_ports.h") << bank_ports_header(instances);

    const DutSources& first = wanted.front()->sources;
    const std::string log = (dir / "build.log").string();
    std::string rtl_list;
    for (const auto& file : sources) rtl_list += (rtl_list.empty() ? "" : ";") + file;
    const std::vector<std::string> configure = {
        "cmake", "-S", (fs::path(first.source_root) / "cmake" / "dut").string(),
        "-B", (dir / "build").string(),
        "-DCL_BANK_DIR=" + dir.string(),
        std::string("-DCL_TRACE_FST=") + (m.fst ? "ON" : "OFF"),
        std::string("-DCL_OPT=") + (m.solo ? "-O2" : "-O1"),
        "-DCL_RTL_SOURCES=" + rtl_list,
        "-DCL_SOURCE_ROOT=" + first.source_root,
        "-DCL_RUNTIME_LIB=" + runtime_library(first)};
    const std::string count = std::to_string(instances.size()) + " configuration" + (instances.size() == 1 ? "" : "s");
    const std::string what = "verilating " + (instances.size() == 1 ? instances.front().config.key() : count) + " failed";
    if (status) status("verilating " + count);
    if (run_logged(configure, log) != 0) return what + " (" + first_error_line(log) + "); full log: " + log;
    if (run_logged({"cmake", "--build", (dir / "build").string(), "--", "-j2"}, log, status, "compiling " + count) != 0)
        return what + " (" + first_error_line(log) + "); full log: " + log;
    fs::rename(dir / "build" / "dut.so", dir / "dut.so", ec);
    if (ec) return what + " (no dut.so: " + ec.message() + "); full log: " + log;
    // The manifest last, written whole: a bank with a manifest is complete.
    {
        std::ofstream out(dir / (std::string(kManifest) + ".tmp"));
        out << text;
    }
    fs::rename(dir / (std::string(kManifest) + ".tmp"), dir / kManifest, ec);
    // The generated code is not needed once the plugin is linked (a bank of forty is ~40 MB).
    fs::remove_all(dir / "build", ec);
    return ec ? "cannot finish " + dir.string() + ": " + ec.message() : "";
}

// Verilator alone (no C++) on `w` as a bank of one, as the build would run it; "" or the
// error line (what Verilator said first, and the log it is in).
std::string lint_alone(const Wanted& w, const fs::path& dir) {
    const std::vector<BankInstance> one = {{w.config, 0, bank_instance_name(w.config, 0)}};
    const fs::path top = dir / (w.config.key() + ".sv");
    const std::string log = (dir / (w.config.key() + ".log")).string();
    std::ofstream(top) << bank_top_sv(one, {{w.rtl, ""}});
    std::vector<std::string> argv = {"verilator", "--lint-only", "--assert", "--top-module", "creditloop_bank",
                                     top.string()};
    argv.insert(argv.end(), w.rtl.begin(), w.rtl.end());
    if (run_logged(argv, log) == 0) return "";
    return "verilating " + w.config.key() + " failed (" + first_error_line(log) + "); full log: " + log;
}

// Build `wanted` as one bank; when that fails, find out which configurations fail (a
// configuration can fail alone, like a FULL_RATE instance whose B is short): RTL sets one by
// one, then each configuration through Verilator alone (no C++: a fraction of a second each);
// the ones that pass are built together again. When every configuration fails alike (a typo, a
// missing port), they all get the bank's one error line.
void build_with_fallback(std::vector<Wanted*> wanted, const std::string& root, const BuildStatus& status) {
    const std::string error = build_bank(wanted, root, status);
    if (error.empty()) return;
    std::vector<std::string> stamps;
    for (Wanted* w : wanted)
        if (std::find(stamps.begin(), stamps.end(), w->stamp) == stamps.end()) stamps.push_back(w->stamp);
    if (stamps.size() > 1) {
        for (const auto& stamp : stamps) {
            std::vector<Wanted*> part;
            for (Wanted* w : wanted)
                if (w->stamp == stamp) part.push_back(w);
            build_with_fallback(part, root, status);
        }
        return;
    }
    std::vector<Wanted*> fine;
    if (wanted.size() > 1 && !missing_port(error)) {
        const fs::path dir = fs::path(root) / "lint";
        std::error_code ec;
        fs::remove_all(dir, ec);
        fs::create_directories(dir, ec);
        if (status) status("finding which of " + std::to_string(wanted.size()) + " configurations fail");
        std::vector<std::string> lint(wanted.size());
        parallel_for(wanted.size(), 2, [&](size_t i) { lint[i] = lint_alone(*wanted[i], dir); });
        for (size_t i = 0; i < wanted.size(); ++i) {
            if (lint[i].empty()) fine.push_back(wanted[i]);
            else wanted[i]->error = lint[i];
        }
        // Alike: the same Verilator message, whichever configuration said it.
        const auto message = [](const std::string& line) {
            const auto open = line.find(" failed (");
            return line.substr(open, line.find("; full log") - open);
        };
        bool alike = fine.empty();
        for (size_t i = 1; alike && i < lint.size(); ++i) alike = message(lint[i]) == message(lint[0]);
        if (!alike && !fine.empty() && fine.size() < wanted.size()) {
            build_with_fallback(fine, root, status);
            return;
        }
        if (!alike && fine.empty()) return;   // each failed on its own terms, named above
    }
    // One cause for all of them (the C++ stage, a typo, a missing port): one line, said once.
    for (Wanted* w : wanted) w->error = error;
}

// Remove the banks no current RTL set matches any more (their files changed or are gone), and
// the remains of failed builds (kept until the next build, so their logs can be read).
void prune_stale_banks(const std::string& root, const std::string& source_root) {
    std::error_code ec;
    std::vector<fs::path> stale;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
        if (!entry.is_directory() || entry.path().filename().string().rfind("bank_", 0) != 0) continue;
        const auto m = read_manifest(entry.path());
        bool current = false;
        if (m) {
            for (const auto& v : m->variants)
                current = current || variant_stamp(v.files, m->fst, m->solo, source_root) == v.stamp;
        }
        if (!current) stale.push_back(entry.path());
    }
    for (const auto& dir : stale) fs::remove_all(dir, ec);
}

}  // namespace

DutSources DutSources::from_environment() {
    DutSources sources;
    const char* root = std::getenv("CREDITLOOP_ROOT");
    const char* build = std::getenv("CREDITLOOP_BUILD");
    sources.source_root = root && *root ? root : CREDITLOOP_SOURCE_DIR;
    sources.build_root = build && *build ? build : CREDITLOOP_BINARY_DIR;
    return sources;
}

std::string systemc_directory(const LinkConfig& config, const DutSources& sources) {
    std::string name = config.key() + "_sc";
    if (!sources.rtl_files.empty()) {
        uint64_t hash = 0xcbf29ce484222325ull;
        for (const auto& file : sources.rtl_files) hash = fnv1a(fs::absolute(file).string() + ";", hash);
        char suffix[24];
        std::snprintf(suffix, sizeof suffix, "_rtl%08llx", static_cast<unsigned long long>(hash & 0xffffffffu));
        name += suffix;
    }
    return (fs::path(sources.build_root) / "duts" / name).string();
}

std::string use_rtl_directory(DutSources& sources, const std::string& dir) {
    if (!fs::is_directory(dir)) return "--rtl " + dir + " is not a directory: give the folder holding your .sv files";
    auto files = sv_files_in(fs::absolute(dir));
    if (files.empty() || fs::path(files.front()).filename() != "credit_link.sv")
        return "--rtl " + dir + " has no credit_link.sv: the top must be module credit_link in credit_link.sv";
    sources.rtl_files = std::move(files);
    return "";
}

std::string systemc_harness(const LinkConfig& config, DutSources sources, std::string& error) {
    sources.systemc = true;
    error = ensure_systemc_built(config, sources, {});
    if (!error.empty()) return "";
    return (fs::path(systemc_directory(config, sources)) / "creditloop_sc").string();
}

DutLibrary::~DutLibrary() {
    if (handle_) dlclose(handle_);
}

namespace {

// `build` ready to go into a bank, or its error; also whether a current bank holds it.
Wanted prepare(const DutBuild& build, bool& ready) {
    Wanted w{build.config, build.sources, rtl_files(build.sources), "", ""};
    ready = false;
    if (w.rtl.empty()) {
        w.error = "no RTL files found under " + build.sources.source_root + "/rtl";
        return w;
    }
    for (const auto& file : w.rtl) {
        if (!fs::exists(file)) {
            w.error = "RTL file " + file + " not found";
            return w;
        }
    }
    if (!fs::exists(runtime_library(build.sources))) {
        w.error = runtime_library(build.sources) + " not found: build the project first (make build)";
        return w;
    }
    w.stamp = variant_stamp(w.rtl, build.sources.fst, build.sources.solo, build.sources.source_root);
    ready = find_in_banks(duts_root(build.sources), w.stamp, build.config.key()).has_value();
    return w;
}

}  // namespace

std::unique_ptr<DutLibrary> DutLibrary::load(const LinkConfig& config, const DutSources& sources,
                                             std::string& error) {
    const auto errors = build_duts({DutBuild{config, sources}}, 1);
    if (!errors.empty()) {
        error = errors.front();
        return nullptr;
    }
    const auto rtl = rtl_files(sources);
    const auto found = find_in_banks(duts_root(sources), variant_stamp(rtl, sources.fst, sources.solo, sources.source_root),
                                     config.key());
    if (!found) {
        error = "no bank under " + duts_root(sources) + " holds " + config.key() + " after building it: delete " +
                duts_root(sources) + " and rerun";
        return nullptr;
    }
    std::unique_ptr<DutLibrary> lib(new DutLibrary());
    lib->path_ = found->plugin;
    lib->index_ = found->index;
    lib->handle_ = dlopen(lib->path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib->handle_) {
        error = std::string("cannot load ") + lib->path_ + ": " + dlerror();
        return nullptr;
    }
    auto version = reinterpret_cast<DutAbiVersionFn>(dlsym(lib->handle_, "creditloop_dut_abi_version"));
    auto size = reinterpret_cast<DutBankSizeFn>(dlsym(lib->handle_, "creditloop_bank_size"));
    auto describe = reinterpret_cast<DutDescribeFn>(dlsym(lib->handle_, "creditloop_bank_describe"));
    lib->create_ = reinterpret_cast<DutCreateFn>(dlsym(lib->handle_, "creditloop_bank_create"));
    if (!version || !size || !describe || !lib->create_ || version() != kDutAbiVersion || lib->index_ >= size()) {
        error = lib->path_ + " is not a plugin for this creditloop (ABI " + std::to_string(kDutAbiVersion) +
                "): run make build, or delete " + duts_root(sources) + " and rerun";
        return nullptr;
    }
    const char* format = "vcd";
    const char* scope = "";
    describe(lib->index_, &lib->config_, &format, &scope);
    lib->trace_format_ = format;
    lib->trace_scope_ = scope;
    if (!(lib->config_ == config)) {
        error = lib->path_ + " was built for " + lib->config_.key() + ", not " + config.key();
        return nullptr;
    }
    return lib;
}

std::unique_ptr<LinkDut> DutLibrary::create() const { return std::unique_ptr<LinkDut>(create_(index_)); }

std::vector<std::string> build_duts(const std::vector<LinkConfig>& configs, const DutSources& sources, int jobs,
                                    const BuildStatus& status) {
    std::vector<DutBuild> builds;
    for (const auto& config : configs) builds.push_back({config, sources});
    return build_duts(builds, jobs, status);
}

std::vector<std::string> build_duts(const std::vector<DutBuild>& builds, int jobs, const BuildStatus& status) {
    std::vector<std::string> errors;
    // The SystemC harnesses, one executable per configuration, `jobs` at a time.
    std::vector<const DutBuild*> systemc;
    std::vector<const DutBuild*> plugins;
    for (const auto& b : builds) (b.sources.systemc ? systemc : plugins).push_back(&b);

    if (!plugins.empty()) {
        const std::string root = duts_root(plugins.front()->sources);
        std::error_code ec;
        fs::create_directories(root, ec);
        if (ec) return {"cannot create " + root + ": " + ec.message()};
        std::vector<Wanted> wanted;
        auto missing = [&] {
            wanted.clear();
            for (const DutBuild* b : plugins) {
                bool ready = false;
                Wanted w = prepare(*b, ready);
                bool twice = false;
                for (const auto& other : wanted)
                    twice = twice || (other.stamp == w.stamp && other.config == w.config && w.error.empty());
                if (!ready && !twice) wanted.push_back(std::move(w));
            }
        };
        missing();
        if (!wanted.empty()) {
            // One build at a time per build tree; whoever waited finds the banks it needs ready.
            FileLock lock((fs::path(root) / ".lock").string());
            missing();
            // One bank per trace format and optimisation; a FULL_RATE instance, which refuses
            // to elaborate when B is short, in a bank of its own.
            std::map<std::string, std::vector<Wanted*>> groups;
            for (auto& w : wanted) {
                if (!w.error.empty()) continue;
                std::string group = std::string(w.sources.fst ? "fst" : "vcd") + (w.sources.solo ? " solo" : "");
                if (w.config.rtl_full_rate || w.sources.solo) group += " " + w.config.key() + " " + w.stamp;
                groups[group].push_back(&w);
            }
            prune_stale_banks(root, plugins.front()->sources.source_root);
            for (auto& [name, group] : groups) build_with_fallback(group, root, status);
            for (const auto& w : wanted)
                if (!w.error.empty() && std::find(errors.begin(), errors.end(), w.error) == errors.end())
                    errors.push_back(w.error);
        }
    }

    std::mutex errors_mutex;
    parallel_for(systemc.size(), jobs, [&](size_t i) {
        std::string error = ensure_systemc_built(systemc[i]->config, systemc[i]->sources, status);
        if (!error.empty()) {
            std::lock_guard<std::mutex> guard(errors_mutex);
            errors.push_back(error);
        }
    });
    return errors;
}

}  // namespace creditloop
