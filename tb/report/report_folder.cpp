#include "report_folder.h"

#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "html_report.h"
#include "process.h"
#include "report_inputs.h"

namespace fs = std::filesystem;

namespace creditloop {

namespace {

// What html_report() puts in every page's head: how a page of ours is told from the user's.
constexpr const char* kGenerator = "<meta name=\"generator\" content=\"creditloop report\">";

std::string short_commit(const std::string& source_root) {
    std::string out;
    if (source_root.empty() || run_capture({"git", "-C", source_root, "rev-parse", "--short", "HEAD"}, out) != 0)
        return "unknown";
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out.empty() ? "unknown" : out;
}

std::string now_utc() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &utc);
    return text;
}

}  // namespace

std::string report_index_path(const std::string& out_dir) { return (fs::path(out_dir) / "index.html").string(); }

std::string report_folder_problem(const std::string& out_dir, bool force) {
    std::error_code ec;
    if (fs::exists(out_dir, ec) && !fs::is_directory(out_dir, ec))
        return out_dir + " is a file, not a folder: name a folder for the report";
    const std::string index = report_index_path(out_dir);
    if (force || !fs::exists(index, ec)) return "";
    std::ifstream in(index);
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    if (head.find(kGenerator) != std::string::npos) return "";
    return index + " exists and is not a report of creditloop's: name another folder, or add --force to replace it";
}

std::string write_report_folder(const std::string& junit, const std::string& out_dir, const std::string& source_root,
                                bool force, bool& bad_input) {
    bad_input = true;
    if (auto problem = report_folder_problem(out_dir, force); !problem.empty()) return problem;
    std::string error;
    auto page = read_report_inputs(junit, out_dir, error);
    if (!page) return error;
    bad_input = false;
    page->commit = short_commit(source_root);
    page->written = now_utc();
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    const std::string index = report_index_path(out_dir), temporary = index + "." + std::to_string(::getpid()) + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary);
        out << html_report(*page);
        if (!out) {
            fs::remove(temporary, ec);
            return "cannot write " + index + " (the disk is full, or the folder is not writable)";
        }
    }
    fs::rename(temporary, index, ec);
    if (ec) return "cannot write " + index + ": " + ec.message();
    return "";
}

}  // namespace creditloop
