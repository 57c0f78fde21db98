#include "mutant_patch.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;

namespace creditloop {
namespace {

const std::string kTag = "// creditloop-mutant:";

std::vector<std::string> read_lines(const std::string& path, bool& ok) {
    std::ifstream in(path);
    ok = static_cast<bool>(in);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::string trimmed(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

// What follows a line's marker: "- x" is "x", "-" alone is "".
std::string body_text(const std::string& line) { return line.size() > 1 && line[1] == ' ' ? line.substr(2) : line.substr(1); }

struct Hunk {
    size_t number = 0;                                     // its first line in the mutant
    std::vector<std::pair<char, std::string>> match;       // '@' kept, '-' taken out
    std::vector<std::string> added;
    size_t at = 0;                                         // where it matches in the block
};

}  // namespace

std::string apply_mutant(const std::string& mutant_path, const std::string& rtl_dir, std::string& error) {
    bool ok = false;
    const auto lines = read_lines(mutant_path, ok);
    if (!ok) {
        error = mutant_path + ": cannot read it";
        return "";
    }
    std::string replaces;
    std::vector<Hunk> hunks;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        const std::string where = mutant_path + ":" + std::to_string(i + 1) + ": ";
        if (line.rfind(kTag, 0) == 0) {
            const std::string field = trimmed(line.substr(kTag.size()));
            if (field.rfind("replaces=", 0) == 0) replaces = trimmed(field.substr(9));
        }
        if (trimmed(line).empty() || (line.rfind("//", 0) == 0 && hunks.empty())) continue;
        const char kind = line[0];
        if (kind != '@' && kind != '-' && kind != '+') {
            error = where + "a line of the patch starts with '@', '-' or '+' (comments go above it)";
            return "";
        }
        if (kind == '+') {
            if (hunks.empty()) {
                error = where + "a '+' line needs '-' or '@' lines above it to say where it goes";
                return "";
            }
            if (line.find("MUTANT") == std::string::npos) {
                error = where + "an added line must say MUTANT (the marked lines are the whole change)";
                return "";
            }
            hunks.back().added.push_back(body_text(line));
        } else {
            if (hunks.empty() || !hunks.back().added.empty()) hunks.push_back(Hunk{i + 1, {}, {}, 0});
            hunks.back().match.push_back({kind, body_text(line)});
        }
    }
    const fs::path block = fs::path(rtl_dir) / replaces;
    // The block as messages name it: rtl/credit_counter.sv, or link/cbfc_rx.sv for an example's.
    fs::path folder = fs::path(rtl_dir);
    if (folder.filename().empty()) folder = folder.parent_path();
    const std::string dir_name = folder.filename().string();
    std::error_code ec;
    if (replaces.empty() || !fs::is_regular_file(block, ec)) {
        error = mutant_path + ": needs a '" + kTag + " replaces=<file in " + dir_name + "/>' line naming an existing file";
        return "";
    }
    if (hunks.empty()) {
        error = mutant_path + ": no patch: add '-' and '+' lines below the comments";
        return "";
    }
    const auto source = read_lines(block.string(), ok);
    std::vector<std::string> keyed;
    for (const auto& l : source) keyed.push_back(trimmed(l));
    for (auto& h : hunks) {
        const std::string where = mutant_path + ":" + std::to_string(h.number) + ": ";
        const bool changes = !h.added.empty() ||
                             std::any_of(h.match.begin(), h.match.end(), [](const auto& m) { return m.first == '-'; });
        if (!changes) {
            error = where + "this hunk changes nothing";
            return "";
        }
        size_t found = 0;
        for (size_t start = 0; start + h.match.size() <= source.size(); ++start) {
            bool same = true;
            for (size_t j = 0; j < h.match.size() && same; ++j) same = keyed[start + j] == trimmed(h.match[j].second);
            if (same) {
                ++found;
                h.at = start;
            }
        }
        if (found != 1) {
            error = where + "the lines of this hunk are found " + std::to_string(found) + " times in " + dir_name + "/" + replaces +
                    ", need exactly once (the block changed: update the mutant's '@' and '-' lines)";
            return "";
        }
    }
    std::sort(hunks.begin(), hunks.end(), [](const Hunk& a, const Hunk& b) { return a.at < b.at; });
    for (size_t i = 1; i < hunks.size(); ++i) {
        if (hunks[i - 1].at + hunks[i - 1].match.size() > hunks[i].at) {
            error = mutant_path + ":" + std::to_string(hunks[i].number) + ": two hunks overlap in " + dir_name + "/" + replaces;
            return "";
        }
    }
    std::ostringstream out;
    size_t at = 0;
    for (const auto& h : hunks) {
        for (; at < h.at; ++at) out << source[at] << "\n";
        // The '@' lines before the first '-' line, the added lines, then the remaining '@' lines.
        size_t first_removed = h.match.size();
        for (size_t j = 0; j < h.match.size(); ++j)
            if (h.match[j].first == '-') {
                first_removed = j;
                break;
            }
        for (size_t j = 0; j < first_removed; ++j) out << source[h.at + j] << "\n";
        for (const auto& a : h.added) out << a << "\n";
        for (size_t j = first_removed; j < h.match.size(); ++j)
            if (h.match[j].first == '@') out << source[h.at + j] << "\n";
        at = h.at + h.match.size();
    }
    for (; at < source.size(); ++at) out << source[at] << "\n";
    return out.str();
}

std::string mutant_replaces(const std::string& mutant_path) {
    bool ok = false;
    for (const auto& line : read_lines(mutant_path, ok)) {
        if (line.rfind(kTag, 0) != 0) continue;
        const std::string field = trimmed(line.substr(kTag.size()));
        if (field.rfind("replaces=", 0) == 0) return trimmed(field.substr(9));
    }
    return "";
}

bool is_mutant_file(const std::string& value) {
    std::error_code ec;
    return fs::path(value).extension() == ".mutant" || fs::exists(value, ec);
}

std::string mutant_build_dir(const std::string& build_root) { return (fs::path(build_root) / "mutants" / "src").string(); }

std::string build_mutant(const std::string& mutant_path, const std::string& rtl_dir, const std::string& out_dir,
                         std::string& error) {
    const std::string text = apply_mutant(mutant_path, rtl_dir, error);
    if (text.empty()) return "";
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    const fs::path path = fs::path(out_dir) / (fs::path(mutant_path).stem().string() + ".sv");
    {
        std::ifstream in(path);
        std::stringstream held;
        held << in.rdbuf();
        if (in && held.str() == text) return path.string();
    }
    // Written aside and renamed, so a reader never sees half a file.
    const fs::path tmp = path.string() + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(tmp);
        out << text;
        if (!out) {
            error = "cannot write " + tmp.string();
            return "";
        }
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        error = "cannot write " + path.string() + ": " + ec.message();
        fs::remove(tmp, ec);
        return "";
    }
    return path.string();
}

}  // namespace creditloop
