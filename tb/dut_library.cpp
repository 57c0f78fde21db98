#include "dut_library.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

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

std::string artifact_name(const DutSources& sources) { return sources.systemc ? "creditloop_sc" : "dut.so"; }

std::string stamp_of(const LinkConfig& config, const DutSources& sources,
                     const std::vector<std::string>& rtl) {
    uint64_t hash = fnv1a(config.key() + (sources.systemc ? "systemc" : sources.fst ? "fst" : "vcd"));
    if (sources.systemc) {
        // The harness links the main build's library: a change there relinks it.
        for (const char* file : {"tb/systemc/sc_main.cpp", "tb/systemc/systemc_link.h"})
            hash = fnv1a(read_file((fs::path(sources.source_root) / file).string()), hash);
        hash = fnv1a(read_file(core_library(sources)), hash);
    }
    const fs::path root(sources.source_root);
    for (const char* file : {"tb/verilated_link.cpp", "tb/link_dut.h", "tb/compiled_config.h", "cpp_models/link_config.h",
                             "cpp_models/link_inputs.h", "cpp_models/observation.h",
                             "cmake/dut/CMakeLists.txt"}) {
        hash = fnv1a(read_file((root / file).string()), hash);
    }
    for (const auto& file : rtl) hash = fnv1a(file + "\n" + read_file(file), hash);
    char text[32];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

// Run argv with stdout and stderr appended to `log`; the exit status, or -1.
int run_logged(const std::vector<std::string>& argv, const std::string& log) {
    const pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The first line of the build log that says what went wrong. A port the harness needs but the
// RTL top lacks shows up as a C++ error on the verilated class; say it in RTL terms.
std::string first_error_line(const std::string& log) {
    std::istringstream in(read_file(log));
    std::string line;
    while (std::getline(in, line)) {
        const auto member = line.find("has no member named");
        if (member != std::string::npos && line.find("Vcredit_link") != std::string::npos) {
            // g++ quotes the name as 'name' or with UTF-8 quotes; keep what lies between.
            std::string rest = line.substr(member + 19);
            std::string port;
            bool inside = false;
            for (size_t i = 0; i < rest.size(); ++i) {
                const bool quote = rest[i] == '\'' || (static_cast<unsigned char>(rest[i]) == 0xe2 && i + 2 < rest.size());
                if (quote) {
                    if (inside) break;
                    inside = true;
                    if (rest[i] != '\'') i += 2;
                    continue;
                }
                if (inside) port += rest[i];
            }
            return "the RTL top credit_link has no port '" + port +
                   "'; its ports must match rtl/credit_link.sv (see the README, 'Your own RTL')";
        }
        if (line.rfind("%Error", 0) == 0 || line.rfind("%Warning", 0) == 0 ||
            line.find("error:") != std::string::npos || line.find("CMake Error") != std::string::npos)
            return line;
    }
    return "";
}

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

// Make sure the plugin for `config` exists and is current; "" or the error line.
std::string ensure_built(const LinkConfig& config, const DutSources& sources) {
    const fs::path dir = dut_directory(config, sources);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return "cannot create " + dir.string() + ": " + ec.message();
    FileLock lock((dir / ".lock").string());

    const auto rtl = rtl_files(sources);
    if (rtl.empty()) return "no RTL files found under " + sources.source_root + "/rtl";
    for (const auto& file : rtl) {
        if (!fs::exists(file)) return "RTL file " + file + " not found";
    }
    if (!fs::exists(runtime_library(sources)))
        return runtime_library(sources) + " not found: build the project first (make build)";
    if (sources.systemc && !fs::exists(core_library(sources)))
        return core_library(sources) + " not found: build the project first (make build)";

    const std::string stamp = stamp_of(config, sources, rtl);
    const fs::path stamp_file = dir / "stamp";
    const fs::path plugin = dir / artifact_name(sources);
    if (fs::exists(plugin) && read_file(stamp_file.string()) == stamp) return "";

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
        std::string("-DCL_TRACE_FST=") + (sources.fst ? "ON" : "OFF"),
        "-DCL_RTL_SOURCES=" + rtl_list,
        "-DCL_SOURCE_ROOT=" + sources.source_root,
        "-DCL_RUNTIME_LIB=" + runtime_library(sources),
        std::string("-DCL_SYSTEMC=") + (sources.systemc ? "ON" : "OFF"),
        "-DCL_CORE_LIB=" + core_library(sources)};
    const std::string what = "verilating " + config.key() + (sources.systemc ? " for SystemC" : "") + " failed";
    if (run_logged(configure, log) != 0)
        return what + " (" + first_error_line(log) + "); full log: " + log;
    if (run_logged({"cmake", "--build", dir.string(), "--", "-j2"}, log) != 0)
        return what + " (" + first_error_line(log) + "); full log: " + log;
    std::ofstream(stamp_file) << stamp;
    return "";
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

std::string dut_directory(const LinkConfig& config, const DutSources& sources) {
    std::string name = config.key() + (sources.systemc ? "_sc" : sources.fst ? "_fst" : "_vcd");
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
    error = ensure_built(config, sources);
    if (!error.empty()) return "";
    return (fs::path(dut_directory(config, sources)) / artifact_name(sources)).string();
}

DutLibrary::~DutLibrary() {
    if (handle_) dlclose(handle_);
}

std::unique_ptr<DutLibrary> DutLibrary::load(const LinkConfig& config, const DutSources& sources,
                                             std::string& error) {
    error = ensure_built(config, sources);
    if (!error.empty()) return nullptr;
    std::unique_ptr<DutLibrary> lib(new DutLibrary());
    lib->path_ = (fs::path(dut_directory(config, sources)) / "dut.so").string();
    lib->handle_ = dlopen(lib->path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib->handle_) {
        error = std::string("cannot load ") + lib->path_ + ": " + dlerror();
        return nullptr;
    }
    auto version = reinterpret_cast<DutAbiVersionFn>(dlsym(lib->handle_, "creditloop_dut_abi_version"));
    auto describe = reinterpret_cast<DutDescribeFn>(dlsym(lib->handle_, "creditloop_dut_describe"));
    lib->create_ = reinterpret_cast<DutCreateFn>(dlsym(lib->handle_, "creditloop_dut_create"));
    if (!version || !describe || !lib->create_ || version() != kDutAbiVersion) {
        error = lib->path_ + " is not a plugin for this creditloop (ABI " + std::to_string(kDutAbiVersion) + "): run make build, or delete " +
                dut_directory(config, sources) + " and rerun";
        return nullptr;
    }
    const char* format = "vcd";
    describe(&lib->config_, &format);
    lib->trace_format_ = format;
    if (!(lib->config_ == config)) {
        error = lib->path_ + " was built for " + lib->config_.key() + ", not " + config.key();
        return nullptr;
    }
    return lib;
}

std::unique_ptr<LinkDut> DutLibrary::create() const { return std::unique_ptr<LinkDut>(create_()); }

std::vector<std::string> build_duts(const std::vector<LinkConfig>& configs, const DutSources& sources,
                                    int jobs) {
    std::vector<DutBuild> builds;
    for (const auto& config : configs) builds.push_back({config, sources});
    return build_duts(builds, jobs);
}

std::vector<std::string> build_duts(const std::vector<DutBuild>& builds, int jobs) {
    std::vector<std::string> errors;
    std::mutex errors_mutex;
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i = next++; i < builds.size(); i = next++) {
            std::string error = ensure_built(builds[i].config, builds[i].sources);
            if (!error.empty()) {
                std::lock_guard<std::mutex> guard(errors_mutex);
                errors.push_back(error);
            }
        }
    };
    std::vector<std::thread> workers;
    for (int j = 0; j < std::max(1, jobs); ++j) workers.emplace_back(worker);
    for (auto& w : workers) w.join();
    return errors;
}

}  // namespace creditloop
