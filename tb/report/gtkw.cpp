#include "gtkw.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "observation.h"
#include "violation_signals.h"

namespace fs = std::filesystem;

namespace creditloop {

namespace {

// GTKWave trace flags: right-justified binary, hex and decimal; group begin and end markers.
constexpr const char* kBinary = "@28";
constexpr const char* kHex = "@22";
constexpr const char* kDecimal = "@24";
constexpr const char* kGroupBegin = "@800200";
constexpr const char* kGroupEnd = "@1000200";
// The same, collapsed to one row (the clock and resets: there when needed, out of the way).
constexpr const char* kCollapsedBegin = "@c00200";
constexpr const char* kCollapsedEnd = "@1401200";

const char* flag_of(WaveFormat format) {
    switch (format) {
        case WaveFormat::binary: return kBinary;
        case WaveFormat::decimal: return kDecimal;
        case WaveFormat::hex: return kHex;
    }
    return kDecimal;
}

struct Row {
    const char* format;
    std::string signal;
};

struct Group {
    std::string name;
    std::vector<Row> rows;
    bool collapsed = false;
};

// The ports of the drive side the waves show: the clock and resets as their own group, the
// stimulus ports for the echoed inputs of the same name.
struct DrivenPorts {
    std::vector<std::string> clock_and_resets;
    std::set<std::string> stimulus;

    DrivenPorts() {
#define CREDITLOOP_CLOCK(port) clock_and_resets.push_back(#port);
#define CREDITLOOP_RESET(port) clock_and_resets.push_back(#port);
#define CREDITLOOP_STIMULUS(port, width) stimulus.insert(#port);
#include "driven_ports.def"
    }
};

// The story group's title: "first violation: sizing.round_trip at cycle 7".
std::string story_group_title(const Violation& violation) {
    return "first violation: " + violation.check + " at cycle " + std::to_string(violation.cycle);
}

}  // namespace

std::string write_gtkw(const std::string& waves_path, const LinkConfig& config, const std::string& scope,
                       const Violation* first_violation, uint64_t first_cycle) {
    const std::string prefix = scope + ".";
    const DrivenPorts driven;
    // An observed signal is in the waves as an RTL port: an output, or an input the harness drives.
    auto in_waves = [&driven](const SignalInfo& s) {
        return s.source == SignalSource::rtl_output || driven.stimulus.count(s.field) != 0;
    };
    auto row = [&](const SignalInfo& s) {
        const int bits = signal_bits(s.width, config);
        return Row{flag_of(s.waves),
                   prefix + s.field + (bits > 1 ? "[" + std::to_string(bits - 1) + ":0]" : "")};
    };

    std::vector<Group> groups;
    std::vector<Signal> story;
    if (first_violation) {
        Group top{story_group_title(*first_violation), {}};
        for (Signal signal : violation_signals(*first_violation)) {
            if (!in_waves(signal_info(signal))) continue;
            top.rows.push_back(row(signal_info(signal)));
            story.push_back(signal);
        }
        groups.push_back(std::move(top));
    }
    Group clock{"clock and resets", {}, true};
    for (const auto& port : driven.clock_and_resets) clock.rows.push_back({kBinary, prefix + port});
    groups.push_back(std::move(clock));
    for (const SignalGroupInfo& g : kSignalGroups) {
        Group loop{g.wave_title, {}};
        for (const SignalInfo& s : kObservedSignals)
            if (s.group == g.group && in_waves(s) && std::find(story.begin(), story.end(), s.signal) == story.end())
                loop.rows.push_back(row(s));
        if (!loop.rows.empty()) groups.push_back(std::move(loop));
    }

    const fs::path waves = fs::absolute(waves_path);
    fs::path save = waves;
    save.replace_extension(".gtkw");
    const std::optional<uint64_t> marker_cycle =
        first_violation ? std::optional<uint64_t>(first_violation->cycle) : std::nullopt;
    const uint64_t marker = marker_cycle ? trace_time_of(*marker_cycle) : 0;
    // Open about 40 cycles before the marker (or at the start of the trace).
    const uint64_t start_cycle = marker_cycle && *marker_cycle > first_cycle + 40 ? *marker_cycle - 40 : first_cycle;

    std::ostringstream out;
    out << "[*] creditloop: " << config.key()
        << (first_violation ? ", first violation at cycle " + std::to_string(first_violation->cycle) + " (" +
                                  first_violation->check + ")"
                            : "")
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
