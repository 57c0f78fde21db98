#include "gtkw.h"

#include <filesystem>
#include <fstream>
#include <vector>
#include <sstream>

namespace fs = std::filesystem;

namespace creditloop {

namespace {

int bits_for(int max_value) {   // $clog2(max_value + 1)
    int bits = 0;
    while ((1LL << bits) < static_cast<long long>(max_value) + 1) ++bits;
    return bits;
}

// GTKWave trace flags: right-justified binary, hex and decimal; group begin and end markers.
constexpr const char* kBinary = "@28";
constexpr const char* kHex = "@22";
constexpr const char* kDecimal = "@24";
constexpr const char* kGroupBegin = "@800200";
constexpr const char* kGroupEnd = "@1000200";
// The same, collapsed to one row (the clock and resets: there when needed, out of the way).
constexpr const char* kCollapsedBegin = "@c00200";
constexpr const char* kCollapsedEnd = "@1401200";

}  // namespace

std::string write_gtkw(const std::string& waves_path, const LinkConfig& config, const std::string& scope,
                       std::optional<uint64_t> marker_cycle, uint64_t first_cycle) {
    const int count_bits = bits_for(config.buffer_slots);
    const int flits_bits = bits_for(config.stages);
    const int total_bits = std::max(count_bits, flits_bits) + 3;
    const std::string prefix = scope + ".";
    auto bus = [&prefix](const char* name, int bits) {
        return prefix + name + (bits > 1 ? "[" + std::to_string(bits - 1) + ":0]" : "");
    };
    auto bit = [&prefix](const char* name) { return prefix + name; };

    struct Row {
        const char* format;
        std::string signal;
    };
    struct Group {
        const char* name;
        std::vector<Row> rows;
        bool collapsed = false;
    };
    const std::vector<Group> groups = {
        {"clock and resets", {{kBinary, bit("clk")}, {kBinary, bit("rst_tx_n")}, {kBinary, bit("rst_rx_n")}}, true},
        {"sender credits",
         {{kBinary, bit("want_send")}, {kDecimal, bus("credits", count_bits)}, {kBinary, bit("can_send")},
          {kBinary, bit("send")}, {kHex, bus("send_payload", config.payload_bits)},
          {kDecimal, bus("credits_arriving", count_bits)}}},
        {"forward pipe", {{kDecimal, bus("fwd_flits", flits_bits)}, {kBinary, bit("arrive")}}},
        {"receiver occupancy",
         {{kDecimal, bus("occupancy", count_bits)}, {kBinary, bit("drain")}, {kBinary, bit("pop")},
          {kHex, bus("pop_payload", config.payload_bits)}, {kBinary, bit("overflow")},
          {kDecimal, bus("slots_freeing", count_bits)}}},
        {"pending returns",
         {{kDecimal, bus("pending_returns", count_bits)}, {kBinary, bit("flush")}, {kBinary, bit("policy_flush")},
          {kBinary, bit("return_busy")}, {kDecimal, bus("return_waiting", count_bits)},
          {kDecimal, bus("credits_returned", count_bits)}}},
        {"return pipe", {{kDecimal, bus("return_flight", count_bits)}}},
        {"conservation total (must stay B)", {{kDecimal, bus("credit_total", total_bits)}}},
    };

    const fs::path waves = fs::absolute(waves_path);
    fs::path save = waves;
    save.replace_extension(".gtkw");
    const uint64_t marker = marker_cycle ? trace_time_of(*marker_cycle) : 0;
    // Open about 40 cycles before the marker (or at the start of the trace).
    const uint64_t start_cycle = marker_cycle && *marker_cycle > first_cycle + 40 ? *marker_cycle - 40 : first_cycle;

    std::ostringstream out;
    out << "[*] creditloop: " << config.key() << (marker_cycle ? ", first violation at cycle " + std::to_string(*marker_cycle) : "")
        << "\n";
    out << "[dumpfile] \"" << waves.string() << "\"\n";
    out << "[savefile] \"" << save.string() << "\"\n";
    out << "[timestart] " << trace_time_of(start_cycle) << "\n";
    out << "[size] 1600 900\n[pos] -1 -1\n";
    out << "*-6.000000 " << (marker_cycle ? std::to_string(marker) : "-1");
    for (int named = 0; named < 26; ++named) out << " -1";
    out << "\n";
    // Open the scope's tree down to the instance.
    for (size_t dot = scope.find('.'); ; dot = scope.find('.', dot + 1)) {
        out << "[treeopen] " << scope.substr(0, dot) << ".\n";
        if (dot == std::string::npos) break;
    }
    out << "[sst_width] 220\n[signals_width] 300\n";
    for (const Group& g : groups) {
        out << (g.collapsed ? kCollapsedBegin : kGroupBegin) << "\n-" << g.name << "\n";
        for (const Row& r : g.rows) out << r.format << "\n" << r.signal << "\n";
        out << (g.collapsed ? kCollapsedEnd : kGroupEnd) << "\n-" << g.name << "\n";
    }
    std::ofstream file(save, std::ios::trunc);
    file << out.str();
    fs::path shown = waves_path;   // said back the way the caller named the waves
    shown.replace_extension(".gtkw");
    return file ? shown.string() : "";
}

}  // namespace creditloop
