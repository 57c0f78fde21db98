#include "dut_detail.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>

#include "dut_bank.h"
#include "interrupt.h"
#include "parallel.h"
#include "process.h"


namespace creditloop::dut_detail {

// ---- banks

// The files whose contents every bank's plugin depends on besides the RTL and the contract
// files: what it compiles and what generates its sources.
constexpr const char* kBankHarnessFiles[] = {"tb/dut/verilated_link.cpp", "tb/dut/dut_bank.cpp", "tb/dut/dut_bank.h",
                                             "tb/dut/coverage_file.h", "tb/dut/checked_trace.h",
                                             "tb/dut/verilated_top.h"};

// An RTL set's stamp: its files and their contents, the harness sources, the trace format and
// the optimisation; equal stamps build equal code.
std::string variant_stamp(const std::vector<std::string>& rtl, bool fst, bool solo, const std::string& source_root) {
    uint64_t hash = fnv1a(std::string(fst ? "fst" : "vcd") + (solo ? " solo" : "") + coverage_flavour());
    for (const char* file : kDutContractFiles) hash = fnv1a(read_file((fs::path(source_root) / file).string()), hash);
    for (const char* file : kBankHarnessFiles) hash = fnv1a(read_file((fs::path(source_root) / file).string()), hash);
    for (const auto& file : rtl) hash = fnv1a(file + "\n" + read_file(file), hash);
    return hex(hash);
}

std::string duts_root(const DutSources& sources) { return (fs::path(sources.build_root) / "duts").string(); }

constexpr const char* kManifest = "manifest.txt";

std::string manifest_text(const Manifest& m) {
    std::ostringstream out;
    out << m.magic << "\nkind " << (m.fst ? "fst" : "vcd") << (m.solo ? " solo" : "") << "\n";
    for (const auto& v : m.variants) {
        out << "variant " << v.stamp << "\n";
        for (const auto& f : v.files) out << "file " << f << "\n";
    }
    for (const auto& i : m.instances) out << "instance " << i.variant << " " << i.key << "\n";
    return out.str();
}

std::string library_fingerprint(const fs::path& file) {
    // Its fingerprint is checked on every lookup, so it is remembered per file, size and time.
    static std::mutex mutex;
    static std::map<std::string, std::pair<std::string, std::string>> known;   // path -> (size:time, fingerprint)
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    if (ec) return "";
    const auto time = fs::last_write_time(file, ec).time_since_epoch().count();
    const std::string when = std::to_string(size) + ":" + std::to_string(time);
    {
        std::lock_guard<std::mutex> lock(mutex);
        const auto it = known.find(file.string());
        if (it != known.end() && it->second.first == when) return it->second.second;
    }
    std::ifstream in(file, std::ios::binary);
    uint64_t hash = 0xcbf29ce484222325ull;
    std::vector<char> block(1 << 20);
    uint64_t read = 0;
    while (in) {
        in.read(block.data(), static_cast<std::streamsize>(block.size()));
        const size_t n = static_cast<size_t>(in.gcount());
        read += n;
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {   // FNV-1a a word at a time: a 40 MB plugin in a few ms
            uint64_t word;
            std::memcpy(&word, block.data() + i, 8);
            hash = (hash ^ word) * 0x100000001b3ull;
        }
        for (; i < n; ++i) hash = (hash ^ static_cast<unsigned char>(block[i])) * 0x100000001b3ull;
    }
    if (read != size) return "";
    const std::string fingerprint = std::to_string(size) + " " + hex(hash);
    std::lock_guard<std::mutex> lock(mutex);
    known[file.string()] = {when, fingerprint};
    return fingerprint;
}

std::optional<Manifest> read_manifest(const fs::path& dir, const std::string& magic) {
    std::istringstream in(read_file((dir / kManifest).string()));
    std::string line;
    if (!std::getline(in, line) || line != magic) return std::nullopt;
    Manifest m;
    m.magic = magic;
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
        } else if (word == "library") {
            m.library = line.substr(8);
        } else if (word == "instance") {
            Manifest::Instance i;
            words >> i.variant >> i.key;
            m.instances.push_back(i);
        }
    }
    return m;
}

std::optional<Found> find_bank(const std::string& root, const std::string& prefix, const std::string& magic,
                               const std::string& stamp, const std::string& key) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_directory() || name.rfind(prefix, 0) != 0) continue;
        // A SystemC harness (channels_<key>_sc) is not a bank: it keeps its own stamp.
        if (name.size() > 3 && name.compare(name.size() - 3, 3, "_sc") == 0) continue;
        const auto m = read_manifest(entry.path(), magic);
        // A plugin cut short (a full disk, a killed copy) or replaced is never loaded: the bank
        // is built again in its place.
        if (!m || m->library.empty() || library_fingerprint(entry.path() / "dut.so") != m->library) continue;
        for (size_t i = 0; i < m->instances.size(); ++i) {
            const auto& inst = m->instances[i];
            if (inst.key == key && inst.variant >= 0 && static_cast<size_t>(inst.variant) < m->variants.size() &&
                m->variants[static_cast<size_t>(inst.variant)].stamp == stamp)
                return Found{(entry.path() / "dut.so").string(), static_cast<int>(i)};
        }
    }
    return std::nullopt;
}

// A current bank that holds `config` of the RTL set with stamp `stamp`.
std::optional<Found> find_in_banks(const std::string& root, const std::string& stamp, const std::string& key) {
    return find_bank(root, "bank_", kLinkBankMagic, stamp, key);
}

// Verilate and compile `wanted` (all of one trace format and optimisation) as one bank; ""
// or the error line.
std::string build_bank(std::vector<Wanted*>& wanted, const std::string& root, const BuildStatus& status) {
    std::vector<BankVariant> variants;
    std::vector<BankInstance> instances;
    Manifest m = plan_bank(wanted, kLinkBankMagic, wanted.front()->sources.fst, variants, [&](const Wanted& w, int variant) {
        instances.push_back({w.config, variant, bank_instance_name(w.config, variant)});
    });
    m.solo = wanted.front()->sources.solo;
    const std::string text = manifest_text(m);
    const fs::path dir = fs::path(root) / ("bank_" + hex(fnv1a(text)));
    if (std::string error = fresh_bank_dir(dir); !error.empty()) return error;

    std::ofstream(dir / "bank.sv") << bank_top_sv(instances, variants);
    std::ofstream(dir / "bank_ports.h") << bank_ports_header(instances);
    const std::string count = std::to_string(instances.size()) + " configuration" + (instances.size() == 1 ? "" : "s");
    return compile_bank(dir, wanted.front()->sources, bank_sources(dir, variants),
                        {std::string("-DCL_TRACE_FST=") + (m.fst ? "ON" : "OFF"),
                         std::string("-DCL_OPT=") + (m.solo ? "-O2" : "-O1")},
                        instances.size() == 1 ? instances.front().config.key() : count, text, status);
}

int bank_variant(std::vector<std::string>& stamps, std::vector<BankVariant>& variants, const std::string& stamp,
                 const std::vector<std::string>& rtl) {
    const auto found = std::find(stamps.begin(), stamps.end(), stamp);
    if (found != stamps.end()) return static_cast<int>(found - stamps.begin());
    stamps.push_back(stamp);
    const int variant = static_cast<int>(variants.size());
    variants.push_back({rtl, variant == 0 ? "" : "__v" + std::to_string(variant)});
    return variant;
}

std::string fresh_bank_dir(const fs::path& dir) {
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::create_directories(dir, ec);
    return ec ? "cannot create " + dir.string() + ": " + ec.message() : "";
}

std::vector<std::string> bank_sources(const fs::path& dir, const std::vector<BankVariant>& variants) {
    std::vector<std::string> sources;
    std::error_code ec;
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
    return sources;
}

std::string compile_bank(const fs::path& dir, const DutSources& sources, const std::vector<std::string>& rtl,
                         const std::vector<std::string>& defines, const std::string& what, const std::string& manifest,
                         const BuildStatus& status) {
    const std::string log = (dir / "build.log").string();
    std::string rtl_list;
    for (const auto& file : rtl) rtl_list += (rtl_list.empty() ? "" : ";") + file;
    std::vector<std::string> configure = {"cmake", "-S", (fs::path(sources.source_root) / "cmake" / "dut").string(),
                                          "-B", (dir / "build").string(), "-DCL_BANK_DIR=" + dir.string()};
    configure.insert(configure.end(), defines.begin(), defines.end());
    if (*coverage_flavour()) configure.push_back("-DCL_COVERAGE=ON");   // make coverage's banks
    configure.insert(configure.end(), {"-DCL_RTL_SOURCES=" + rtl_list, "-DCL_SOURCE_ROOT=" + sources.source_root,
                                       "-DCL_RUNTIME_LIB=" + runtime_library(sources)});
    const std::string failed = "verilating " + what + " failed";
    if (status) status("verilating " + what);
    if (run_logged(configure, log) != 0) return failed + " (" + first_error_line(log) + "); full log: " + log;
    if (run_logged({"cmake", "--build", (dir / "build").string(), "--", "-j2"}, log, status, "compiling " + what) != 0)
        return failed + " (" + first_error_line(log) + "); full log: " + log;
    std::error_code ec;
    fs::rename(dir / "build" / "dut.so", dir / "dut.so", ec);
    if (ec) return failed + " (no dut.so: " + ec.message() + "); full log: " + log;
    const std::string fingerprint = library_fingerprint(dir / "dut.so");
    {
        std::ofstream out(dir / (std::string(kManifest) + ".tmp"));
        out << manifest << "library " << fingerprint << "\n";
        out.flush();
        if (fingerprint.empty() || !out) return failed + " (cannot write " + (dir / kManifest).string() + "; is the disk full?)";
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
    // The probe `include`s its list of the link's signals from beside it (link_signals.svh).
    for (const auto& file : w.rtl)
        if (fs::path(file).filename() == "credit_link_probe.sv") argv.push_back("-I" + fs::path(file).parent_path().string());
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
    if (interrupt_requested()) {   // a stop signal ended the build: no configuration is to blame
        for (Wanted* w : wanted) w->error = "interrupted while building";
        return;
    }
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
void prune_banks(const std::string& root, const std::string& prefix, const std::string& magic,
                 const std::function<bool(const Manifest&, const Manifest::Variant&)>& current_variant) {
    std::error_code ec;
    std::vector<fs::path> stale;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_directory() || name.rfind(prefix, 0) != 0) continue;
        // A SystemC harness (channels_<key>_sc) is not a bank: it keeps its own stamp.
        if (name.size() > 3 && name.compare(name.size() - 3, 3, "_sc") == 0) continue;
        const auto m = read_manifest(entry.path(), magic);
        bool current = false;
        if (m)
            for (const auto& v : m->variants) current = current || current_variant(*m, v);
        if (!current) stale.push_back(entry.path());
    }
    for (const auto& dir : stale) fs::remove_all(dir, ec);
}

void prune_stale_banks(const std::string& root, const std::string& source_root) {
    prune_banks(root, "bank_", kLinkBankMagic, [&](const Manifest& m, const Manifest::Variant& v) {
        return variant_stamp(v.files, m.fst, m.solo, source_root) == v.stamp;
    });
}

}  // namespace creditloop::dut_detail
