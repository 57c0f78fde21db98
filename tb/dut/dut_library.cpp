#include "dut_library.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "dut_detail.h"
#include "observed_tops.h"
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

using namespace dut_detail;

namespace {

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value && *value ? value : "";
}

// The user's cache folder for an installed creditloop's builds.
std::string user_cache() {
    if (auto xdg = environment("XDG_CACHE_HOME"); !xdg.empty()) return (fs::path(xdg) / "creditloop").string();
    if (auto home = environment("HOME"); !home.empty()) return (fs::path(home) / ".cache" / "creditloop").string();
    return (fs::current_path() / ".creditloop-cache").string();
}

}  // namespace

DutSources DutSources::from_environment() {
    DutSources sources;
    sources.source_root = CREDITLOOP_SOURCE_DIR;
    sources.build_root = CREDITLOOP_BINARY_DIR;
    std::error_code ec;
    const fs::path prefix = fs::read_symlink("/proc/self/exe", ec).parent_path().parent_path();
    if (!ec && fs::is_regular_file(prefix / "share" / "creditloop" / "cmake" / "dut" / "CMakeLists.txt")) {
        sources.source_root = (prefix / "share" / "creditloop").string();   // installed: bin/, share/, lib/
        sources.runtime_dir = (prefix / "lib" / "creditloop").string();
        sources.build_root = user_cache();
    }
    if (auto root = environment("CREDITLOOP_ROOT"); !root.empty()) sources.source_root = root;
    if (auto build = environment("CREDITLOOP_BUILD"); !build.empty()) sources.build_root = build;
    return sources;
}


std::string use_rtl_directory(DutSources& sources, const std::string& dir) {
    if (!fs::is_directory(dir)) return "--rtl " + dir + " is not a directory: give the folder holding your .sv files";
    auto files = sv_files_in(fs::absolute(dir));
    if (files.empty() || fs::path(files.front()).filename() != "credit_link.sv")
        return "--rtl " + dir + " has no credit_link.sv: the top must be module credit_link in credit_link.sv";
    sources.rtl_files = std::move(files);
    return "";
}


std::string use_rtl_directory(DutSources& sources, const std::string& dir, const RtlOptions& options) {
    if (auto problem = use_rtl_directory(sources, dir); !problem.empty()) return problem;
    if (!options.any()) return "";
    std::vector<std::string> argv = {"verilator", "-E"};
    for (const auto& d : options.incdirs) {
        if (!fs::is_directory(d)) return "--incdir " + d + " is not a directory";
        argv.push_back("+incdir+" + fs::absolute(d).string());
    }
    for (const auto& d : options.defines) argv.push_back("+define+" + d);
    for (const auto& f : options.file_lists) {
        if (!fs::is_regular_file(f)) return "--file-list " + f + " not found";
        argv.insert(argv.end(), {"-f", fs::absolute(f).string()});
    }
    argv.insert(argv.end(), sources.rtl_files.begin(), sources.rtl_files.end());
    std::string text;
    const fs::path blocks = fs::path(sources.build_root) / "blocks";
    std::error_code ec;
    fs::create_directories(blocks, ec);
    if (run_capture(argv, text) != 0) {
        const fs::path log = blocks / ("rtl." + std::to_string(::getpid()) + ".log");
        run_to_log(argv, log.string());
        return "Verilator cannot read your RTL (--rtl " + dir + "): " + first_error_line(log.string());
    }
    const fs::path out = blocks / ("rtl_" + hex(fnv1a(text)));
    fs::create_directories(out, ec);
    if (auto e = write_if_changed((out / "credit_link.sv").string(), text); !e.empty()) return e;
    sources.rtl_files = {(out / "credit_link.sv").string()};
    return "";
}

BankPlugin::~BankPlugin() {
    if (handle_) dlclose(handle_);
}

bool BankPlugin::open(const std::string& plugin, int index, const char* const (&names)[4], void* (&entries)[4],
                      const std::string& not_ours, std::string& error) {
    path_ = plugin;
    index_ = index;
    handle_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        error = "cannot load " + path_ + ": " + dlerror();
        return false;
    }
    bool complete = true;
    for (int i = 0; i < 4; ++i) complete = (entries[i] = dlsym(handle_, names[i])) != nullptr && complete;
    if (!complete) error = path_ + " " + not_ours;
    return complete;
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
    const std::string not_ours = "is not a plugin for this creditloop (ABI " + std::to_string(kDutAbiVersion) +
                                 "): run make build, or delete " + duts_root(sources) + " and rerun";
    void* entries[4];
    if (!lib->open(found->plugin, found->index,
                   {"creditloop_dut_abi_version", "creditloop_bank_size", "creditloop_bank_describe", "creditloop_bank_create"},
                   entries, not_ours, error))
        return nullptr;
    auto version = reinterpret_cast<DutAbiVersionFn>(entries[0]);
    auto size = reinterpret_cast<DutBankSizeFn>(entries[1]);
    auto describe = reinterpret_cast<DutDescribeFn>(entries[2]);
    lib->create_ = reinterpret_cast<DutCreateFn>(entries[3]);
    if (version() != kDutAbiVersion || lib->index_ >= size()) {
        error = lib->path_ + " " + not_ours;
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

std::unique_ptr<LinkDut> DutLibrary::create(const std::vector<std::string>& plusargs) const {
    return create_dut<LinkDut>(create_, index_, plusargs);
}

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
