#include "channel_gtkw.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "channel_observation.h"
#include "channel_scoreboards.h"
#include "gtkw.h"

namespace fs = std::filesystem;

namespace creditloop {

std::string channel_trace_scope(int bank_index) {
    return "channel_bank.creditloop_channel_bank.c" + std::to_string(bank_index);
}

namespace {

// Entry `i` of `width` bits of the packed port `port`, as GTKWave's bit-combining alias.
std::string slice(const std::string& scope, const std::string& port, int total_bits, int i, int width,
                  const std::string& alias) {
    if (total_bits == 1) return scope + "." + port;
    std::ostringstream out;
    out << "#{" << alias << "}";
    for (int bit = (i + 1) * width - 1; bit >= i * width; --bit) out << " " << scope << "." << port << "[" << bit << "]";
    return out.str();
}

}  // namespace

std::string write_channel_gtkw(const std::string& waves_path, const ChannelLinkConfig& config, const std::string& scope,
                               const Violation* first_violation) {
    const ChannelLayout l = layout(config);
    const fs::path waves = fs::absolute(waves_path);
    fs::path save = waves;
    save.replace_extension(".gtkw");
    std::ostringstream out;
    out << "[*] creditloop: " << config.key()
        << (first_violation ? ", first violation at cycle " + std::to_string(first_violation->cycle) + " (" +
                                  first_violation->check + ")"
                            : "")
        << "\n[dumpfile] \"" << waves.string() << "\"\n[savefile] \"" << save.string() << "\"\n";
    const uint64_t marker = first_violation ? first_violation->cycle : 0;
    out << "[timestart] " << trace_time_of(marker > 40 ? marker - 40 : 0) << "\n[size] 1600 900\n[pos] -1 -1\n";
    out << "*-6.000000 " << (first_violation ? std::to_string(trace_time_of(marker)) : "-1");
    for (int named = 0; named < 26; ++named) out << " -1";
    out << "\n";
    for (size_t dot = scope.find('.');; dot = scope.find('.', dot + 1)) {
        out << "[treeopen] " << scope.substr(0, dot) << ".\n";
        if (dot == std::string::npos) break;
    }
    out << "[sst_width] 220\n[signals_width] 300\n";
    const auto group = [&](const std::string& name, const std::vector<std::pair<const char*, std::string>>& rows) {
        out << "@800200\n-" << name << "\n";
        for (const auto& [format, signal] : rows) out << format << "\n" << signal << "\n";
        out << "@1000200\n-" << name << "\n";
    };
    group("link", {{"@28", scope + ".clk"},
                   {"@28", scope + ".rst_n"},
                   {"@22", scope + ".have[7:0]"},
                   {"@22", scope + ".eligible[7:0]"},
                   {"@22", scope + ".grant[7:0]"},
                   {"@28", scope + ".send"},
                   {"@24", scope + ".send_lane[7:0]"},
                   {"@22", scope + ".send_payload[31:0]"},
                   {"@28", scope + ".arrive"},
                   {"@24", scope + ".arrive_lane[7:0]"}});
    for (int c = 0; c < l.channels; ++c) {
        std::vector<std::pair<const char*, std::string>> rows;
        for (int lane = 0; lane < l.lanes; ++lane) {
            if (l.lane_channel[lane] != c) continue;
            const std::string name = lane_name(config, l, lane);
            rows.push_back({"@28", scope + ".pop[" + std::to_string(lane) + "]"});
            rows.push_back({"@22", slice(scope, "pop_payload", kMaxLanes * 32, lane, 32, name + ".pop_payload")});
            rows.push_back({"@24", slice(scope, "occupancy", kMaxLanes * 16, lane, 16, name + ".occupancy")});
        }
        for (int p = 0; p < l.pools; ++p) {
            if (l.pool_channel[p] != c && !(l.pool_channel[p] < 0 && c == 0)) continue;
            const std::string name = pool_name(config, l, p);
            for (const ChannelSignalInfo& s : kChannelSignals) {
                if (s.shape == ChannelShape::pool)
                    rows.push_back({"@24", slice(scope, s.field, kMaxPools * 16, p, 16, name + "." + s.field)});
                if (s.shape == ChannelShape::pool_bits)
                    rows.push_back({"@28", scope + "." + s.field + "[" + std::to_string(p) + "]"});
            }
        }
        group(config.channels[c].name, rows);
    }
    std::ofstream file(save, std::ios::trunc);
    file << out.str();
    fs::path shown = waves_path;
    shown.replace_extension(".gtkw");
    return file ? shown.string() : "";
}

}  // namespace creditloop
