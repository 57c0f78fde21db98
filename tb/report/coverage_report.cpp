#include "coverage_report.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace creditloop {

std::string coverage_summary(const CoverageTally& tally) {
    size_t link_hit = 0, channel_hit = 0;
    for (size_t i = 0; i < tally.entries().size(); ++i)
        if (tally.entries()[i].count != 0) ++(i < kLinkBinCount ? link_hit : channel_hit);
    std::ostringstream out;
    out << "functional coverage: " << tally.hit() << " of " << tally.total() << " bins hit (link " << link_hit << " of "
        << kLinkBinCount << ", channels " << channel_hit << " of " << kChannelBinCount << ") over " << tally.runs()
        << (tally.runs() == 1 ? " run" : " runs");
    const auto unhit = tally.unhit();
    if (unhit.empty()) {
        out << ": every bin hit\n";
        return out.str();
    }
    out << "; " << unhit.size() << " never hit:\n";
    for (const auto& e : tally.entries())
        if (e.count == 0) out << "  never hit: " << e.name << " (" << e.meaning << ")\n";
    return out.str();
}

nlohmann::ordered_json coverage_json(const CoverageTally& tally) {
    using nlohmann::ordered_json;
    ordered_json out;
    out["hit"] = tally.hit();
    out["total"] = tally.total();
    out["runs"] = tally.runs();
    out["unhit"] = tally.unhit();
    out["bins"] = ordered_json::array();
    for (const auto& e : tally.entries())
        out["bins"].push_back({{"name", e.name}, {"count", e.count}, {"meaning", e.meaning}});
    return out;
}

bool write_coverage_json(const std::string& path, const CoverageTally& tally) {
    std::error_code ec;
    if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path(), ec);
    const std::string temporary = path + "." + std::to_string(::getpid()) + ".tmp";   // two runs at once: each its own
    {
        std::ofstream out(temporary);
        out << coverage_json(tally).dump(2) << "\n";
        if (!out) return false;
    }
    fs::rename(temporary, path, ec);
    return !ec;
}

std::optional<CoverageTally> read_coverage_json(const std::string& path, std::string& error) {
    std::ifstream in(path);
    if (!in) {
        error = "cannot read " + path;
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parse_coverage_json(text.str(), path, error);
}

namespace {

// A count as creditloop writes it: a JSON integer >= 0. nlohmann's get<uint64_t>() would cast a
// float with a plain cast (undefined behaviour beyond the range: fuzz_coverage_json found a count
// of 8.9e80) and wrap a negative one.
bool count_value(const nlohmann::json& value, uint64_t& out) {
    if (!value.is_number_unsigned()) return false;
    out = value.get<uint64_t>();
    return true;
}

}  // namespace

std::optional<CoverageTally> parse_coverage_json(const std::string& text, const std::string& path, std::string& error) {
    try {
        const nlohmann::json doc = nlohmann::json::parse(text);
        CoverageTally tally;
        for (const auto& bin : doc.at("bins")) {
            const std::string name = bin.at("name").get<std::string>();
            uint64_t count = 0;
            if (!count_value(bin.at("count"), count)) {
                error = path + ": bin '" + name + "' has count " + bin.at("count").dump() + ": a whole number >= 0";
                return std::nullopt;
            }
            if (!tally.add(name, count)) {
                error = path + ": no bin is named '" + name + "'";
                return std::nullopt;
            }
        }
        uint64_t runs = 0;
        if (doc.contains("runs") && !count_value(doc["runs"], runs)) {
            error = path + ": runs is " + doc["runs"].dump() + ": a whole number >= 0";
            return std::nullopt;
        }
        tally.add_runs(runs);
        return tally;
    } catch (const nlohmann::json::exception& e) {
        error = path + ": " + e.what();
        return std::nullopt;
    }
}

std::string coverage_json_path(const std::string& junit_path) {
    fs::path path(junit_path);
    path.replace_extension(".coverage.json");
    return path.string();
}

}  // namespace creditloop
