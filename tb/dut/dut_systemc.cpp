#include "dut_detail.h"

#include <fstream>

#include <fmt/format.h>


namespace creditloop {

using namespace dut_detail;

namespace dut_detail {

// ---- the SystemC harness: one executable per configuration, as before banks

std::string systemc_stamp(const LinkConfig& config, const DutSources& sources, const std::vector<std::string>& rtl) {
    uint64_t hash = fnv1a(config.key() + "systemc");
    const fs::path root(sources.source_root);
    // The harness links the main build's library: a change there relinks it.
    for (const char* file : kDutContractFiles) hash = fnv1a(read_file((root / file).string()), hash);
    for (const char* file : {"tb/dut/systemc/sc_main.cpp", "tb/dut/systemc/systemc_link.h", "tb/dut/compiled_config.h"})
        hash = fnv1a(read_file((root / file).string()), hash);
    for (const auto& library : core_libraries(sources)) hash = fnv1a(read_file(library), hash);
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
    std::string libraries;
    for (const auto& library : core_libraries(sources)) {
        if (!fs::exists(library)) return library + " not found: build the project first (make build)";
        libraries += (libraries.empty() ? "" : ";") + library;
    }

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
        "-DCL_RECOVERY=" + std::to_string(config.recovery ? 1 : 0),
        "-DCL_TOTAL_BITS=" + std::to_string(config.total_bits),
        "-DCL_RESEND=" + std::to_string(config.resend_period),
        "-DCL_RTL_SOURCES=" + rtl_list,
        "-DCL_SOURCE_ROOT=" + sources.source_root,
        "-DCL_SYSTEMC=ON",
        "-DCL_CORE_LIBS=" + libraries};
    const std::string what = "verilating " + config.key() + " for SystemC failed";
    const std::string phase = "SystemC " + config.key();
    if (status) status(phase + ": configuring");
    if (run_logged(configure, log) != 0) return what + " (" + first_error_line(log) + "); full log: " + log;
    if (run_logged({"cmake", "--build", dir.string(), "--", "-j2"}, log, status, phase) != 0)
        return what + " (" + first_error_line(log) + "); full log: " + log;
    std::ofstream(stamp_file) << stamp;
    return "";
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

}  // namespace creditloop
