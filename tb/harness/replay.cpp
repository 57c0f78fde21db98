#include "replay.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <utility>

namespace creditloop {

namespace {

// Reads the table into rows of Row, each column's value set by its setter; "" on success.
template <class Row>
std::string read_table(const std::string& path, const std::vector<std::pair<std::string, std::function<void(Row&, uint64_t)>>>& known,
                       std::vector<Row>& rows) {
    std::ifstream in(path);
    if (!in) return "--replay " + path + ": cannot read the file (give the replay file creditloop prove wrote)";
    using Setter = std::function<void(Row&, uint64_t)>;
    std::vector<const Setter*> columns;   // nullptr: the cycle column
    bool header = false;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const auto hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        std::istringstream words(line);
        std::vector<std::string> cells;
        for (std::string w; words >> w;) cells.push_back(w);
        if (cells.empty()) continue;
        const std::string where = "--replay " + path + ":" + std::to_string(number) + ": ";
        if (!header) {
            if (cells[0] != "cycle") return where + "the first line is the header, starting with 'cycle' (cycle want_send payload ...)";
            header = true;
            columns.push_back(nullptr);
            for (size_t c = 1; c < cells.size(); ++c) {
                const Setter* setter = nullptr;
                for (const auto& [name, set] : known)
                    if (name == cells[c]) setter = &set;
                if (!setter) {
                    std::string names;
                    for (const auto& k : known) names += (names.empty() ? "" : ", ") + k.first;
                    return where + "unknown column '" + cells[c] + "' (columns: cycle, " + names + ")";
                }
                columns.push_back(setter);
            }
            continue;
        }
        if (cells.size() != columns.size())
            return where + std::to_string(cells.size()) + " values for " + std::to_string(columns.size()) +
                   " columns: give one value a column";
        Row row{};
        for (size_t c = 0; c < cells.size(); ++c) {
            char* end = nullptr;
            errno = 0;
            const uint64_t v = std::strtoull(cells[c].c_str(), &end, 0);
            if (cells[c][0] == '-' || !end || *end != '\0' || errno == ERANGE)
                return where + "'" + cells[c] + "' is not a whole number (decimal, or 0x.. hex)";
            if (!columns[c] && v != rows.size())
                return where + "cycle " + cells[c] + " where cycle " + std::to_string(rows.size()) +
                       " comes next: one row a cycle, in order from 0";
            if (columns[c]) (*columns[c])(row, v);
        }
        rows.push_back(row);
    }
    if (rows.empty()) return "--replay " + path + ": no cycles in the file (a header line, then one row a cycle)";
    return "";
}

}  // namespace

std::optional<std::vector<LinkInputs>> read_replay(const std::string& path, std::string& error) {
    using R = LinkInputs;
    const std::vector<std::pair<std::string, std::function<void(R&, uint64_t)>>> known = {
        {"want_send", [](R& i, uint64_t v) { i.want_send = v != 0; }},
        {"payload", [](R& i, uint64_t v) { i.payload = static_cast<uint32_t>(v); }},
        {"drain", [](R& i, uint64_t v) { i.drain = v != 0; }},
        {"flush", [](R& i, uint64_t v) { i.flush = v != 0; }},
        {"return_busy", [](R& i, uint64_t v) { i.return_busy = v != 0; }},
        {"fault_drop", [](R& i, uint64_t v) { i.fault_drop = v != 0; }},
        {"reset_tx", [](R& i, uint64_t v) { i.reset_tx = v != 0; }},
        {"reset_rx", [](R& i, uint64_t v) { i.reset_rx = v != 0; }},
    };
    std::vector<R> rows;
    error = read_table(path, known, rows);
    if (!error.empty()) return std::nullopt;
    return rows;
}

std::optional<std::vector<ChannelInputs>> read_channel_replay(const std::string& path, std::string& error) {
    using R = ChannelInputs;
    const auto mask = [](uint64_t v) { return static_cast<uint32_t>(v); };
    std::vector<std::pair<std::string, std::function<void(R&, uint64_t)>>> known = {
        {"have", [mask](R& i, uint64_t v) { i.have = mask(v); }},
        {"drain", [mask](R& i, uint64_t v) { i.drain = mask(v); }},
        {"flush", [mask](R& i, uint64_t v) { i.flush = mask(v); }},
        {"return_busy", [mask](R& i, uint64_t v) { i.return_busy = mask(v); }},
        {"fault_drop", [mask](R& i, uint64_t v) { i.fault_drop = mask(v); }},
        {"reset_tx", [](R& i, uint64_t v) { i.reset_tx = v != 0; }},
        {"reset_rx", [](R& i, uint64_t v) { i.reset_rx = v != 0; }},
    };
    for (int c = 0; c < kMaxChannels; ++c) {
        known.push_back({"bytes." + std::to_string(c), [c](R& i, uint64_t v) { i.bytes[c] = static_cast<uint32_t>(v); }});
        known.push_back({"tag." + std::to_string(c), [c](R& i, uint64_t v) { i.tag[c] = static_cast<uint32_t>(v); }});
    }
    std::vector<R> rows;
    error = read_table(path, known, rows);
    if (!error.empty()) return std::nullopt;
    return rows;
}

}  // namespace creditloop
