#include "dut_detail.h"

#include "channel_bank.h"
#include "channel_library.h"

#include <fstream>
#include <functional>
#include <initializer_list>

#include <fmt/format.h>


namespace creditloop {

using namespace dut_detail;

namespace dut_detail {

// ---- the SystemC harness: one executable per configuration, as before banks

namespace {

// The stamp of a SystemC harness: its configuration, the files it compiles, the main build's
// layers it links (a change there relinks it) and the RTL it verilates.
uint64_t harness_stamp(const std::string& key, const DutSources& sources, const std::vector<std::string>& rtl,
                       std::initializer_list<const char*> harness_files) {
    uint64_t hash = fnv1a(key);
    const fs::path root(sources.source_root);
    for (const char* file : kDutContractFiles) hash = fnv1a(read_file((root / file).string()), hash);
    for (const char* file : harness_files) hash = fnv1a(read_file((root / file).string()), hash);
    for (const auto& library : core_libraries(sources)) hash = fnv1a(read_file(library), hash);
    for (const auto& file : rtl) hash = fnv1a(file + "\n" + read_file(file), hash);
    return hash;
}

// Configure and build a SystemC harness in `dir` (cmake/dut with CL_SYSTEMC) unless the
// executable there carries `stamp`; `write_inputs` writes what the build reads from `dir`.
std::string build_harness(const fs::path& dir, const std::string& executable, const std::string& stamp,
                          const std::vector<std::string>& rtl, const DutSources& sources,
                          std::vector<std::string> options, const std::string& key, const BuildStatus& status,
                          const std::function<void()>& write_inputs = {}) {
    if (rtl.empty()) return "no RTL files found under " + sources.source_root + "/rtl";
    for (const auto& file : rtl)
        if (!fs::exists(file)) return "RTL file " + file + " not found";
    std::string libraries;
    for (const auto& library : core_libraries(sources)) {
        if (!fs::exists(library)) return library + " not found: build the project first (make build)";
        libraries += (libraries.empty() ? "" : ";") + library;
    }
    // The stamp holds the executable's fingerprint too: one cut short or replaced is built again.
    const fs::path stamp_file = dir / "stamp";
    const auto stamped = [&] { return stamp + "\nexecutable " + library_fingerprint(dir / executable) + "\n"; };
    if (fs::exists(dir / executable) && read_file(stamp_file.string()) == stamped()) return "";

    std::error_code ec;
    fs::remove(stamp_file, ec);
    if (write_inputs) write_inputs();
    const std::string log = (dir / "build.log").string();
    { std::ofstream truncate(log, std::ios::trunc); }
    std::string rtl_list;
    for (const auto& file : rtl) rtl_list += (rtl_list.empty() ? "" : ";") + file;
    std::vector<std::string> configure = {"cmake", "-S", (fs::path(sources.source_root) / "cmake" / "dut").string(),
                                          "-B", dir.string()};
    configure.insert(configure.end(), options.begin(), options.end());
    for (const std::string& option : {"-DCL_RTL_SOURCES=" + rtl_list, "-DCL_SOURCE_ROOT=" + sources.source_root,
                                      std::string("-DCL_SYSTEMC=ON"), "-DCL_CORE_LIBS=" + libraries})
        configure.push_back(option);
    const std::string what = "verilating " + key + " for SystemC failed";
    const std::string phase = "SystemC " + key;
    if (status) status(phase + ": configuring");
    if (run_logged(configure, log) != 0) return what + " (" + first_error_line(log) + "); full log: " + log;
    if (run_logged({"cmake", "--build", dir.string(), "--", "-j2"}, log, status, phase) != 0)
        return what + " (" + first_error_line(log) + "); full log: " + log;
    std::ofstream(stamp_file) << stamped();
    return "";
}

}  // namespace

std::string ensure_systemc_built(const LinkConfig& config, const DutSources& sources, const BuildStatus& status) {
    const fs::path dir = systemc_directory(config, sources);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return "cannot create " + dir.string() + ": " + ec.message();
    FileLock lock((dir / ".lock").string());
    const auto rtl = rtl_files(sources);
    const std::vector<std::string> options = {
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
        "-DCL_RECOVERY=" + std::to_string(config.recovery ? 1 : 0),
        "-DCL_TOTAL_BITS=" + std::to_string(config.total_bits),
        "-DCL_RESEND=" + std::to_string(config.resend_period)};
    const std::string stamp =
        hex(harness_stamp(config.key() + "systemc", sources, rtl,
                          {"tb/dut/systemc/sc_main.cpp", "tb/dut/systemc/systemc_link.h", "tb/dut/systemc/sc_harness.h",
                           "tb/dut/compiled_config.h"}));
    return build_harness(dir, "creditloop_sc", stamp, rtl, sources, options, config.key(), status);
}

}  // namespace dut_detail

std::string systemc_directory(const LinkConfig& config, const DutSources& sources) {
    std::string name = config.key() + "_sc";
    if (!sources.rtl_files.empty()) {
        uint64_t hash = 0xcbf29ce484222325ull;
        for (const auto& file : sources.rtl_files) hash = fnv1a(fs::absolute(file).string() + ";", hash);
        name += fmt::format("_rtl{:08x}", hash & 0xffffffffu);
    }
    return (fs::path(sources.build_root) / "duts" / name).string();
}

std::string systemc_harness(const LinkConfig& config, DutSources sources, std::string& error) {
    sources.systemc = true;
    error = ensure_systemc_built(config, sources, {});
    if (!error.empty()) return "";
    return (fs::path(systemc_directory(config, sources)) / "creditloop_sc").string();
}

std::string channel_systemc_harness(const ChannelLinkConfig& config, DutSources sources, std::string& error,
                                    const BuildStatus& status) {
    sources.systemc = true;
    const std::string key = config.key();
    const fs::path dir = fs::path(duts_root(sources)) / ("channels_" + hex(fnv1a(key)) + "_sc");
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        error = "cannot create " + dir.string() + ": " + ec.message();
        return "";
    }
    FileLock lock((dir / ".lock").string());
    const auto rtl = channel_rtl_files(sources);
    const std::string stamp =
        hex(harness_stamp(key + "systemc channels", sources, rtl,
                          {"tb/dut/systemc/sc_main.cpp", "tb/dut/systemc/systemc_channels.h",
                           "tb/dut/systemc/sc_harness.h", "tb/dut/channel_bank.cpp", "tb/harness/channel_dut.h",
                           "cpp_models/channel_signals.def", "cpp_models/channel_observation.h",
                           "cpp_models/channel_config.h", "cpp_models/channel_inputs.def", "tb/dut/port_entries.h"}));
    // The bank of this one configuration (instance c0), as a channel bank's generated top.
    const std::vector<ChannelBankInstance> instances = {{config, 0, "c0"}};
    const auto write_inputs = [&] {
        std::ofstream(dir / "channel_bank.sv") << channel_bank_top_sv(instances, {{rtl, ""}});
        std::ofstream(dir / "channel_bank_ports.h") << channel_bank_header(instances);
    };
    error = build_harness(dir, "creditloop_channels_sc", stamp, rtl, sources,
                          {"-DCL_CHANNELS=ON", "-DCL_BANK_DIR=" + dir.string()}, key, status, write_inputs);
    return error.empty() ? (dir / "creditloop_channels_sc").string() : "";
}

}  // namespace creditloop
