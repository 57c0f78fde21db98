#include "run_output.h"

#include <filesystem>
#include <iostream>
#include <system_error>

namespace fs = std::filesystem;

namespace creditloop {

Problem waves_problem(const RunOutput& out) {
    if (out.waves.empty() || out.model_only) return std::nullopt;
    std::error_code ec;   // a path the system refuses (too long) is bad input, not an exception
    if (fs::exists(out.waves, ec) && !out.force)
        return "--waves " + out.waves + " exists: add --force to overwrite it, or pick another path";
    if (ec) return "--waves " + out.waves + ": " + ec.message();
    const fs::path parent = fs::path(out.waves).parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec))
        return "--waves " + out.waves + ": directory " + parent.string() + " does not exist";
    return std::nullopt;
}

void print_run_report(const RunOutput& out, const std::string& report, const std::function<std::string()>& write_save) {
    std::cout << report;
    if (out.json || out.waves.empty()) return;
    fs::path save = out.waves;
    save.replace_extension(".gtkw");
    std::error_code ec;
    const std::string gtkw = !fs::exists(save, ec) || out.force ? write_save() : "";
    std::cout << "waves: gtkwave " << out.waves << (gtkw.empty() ? "" : " " + gtkw) << "\n";
}

Problem failure_waves_path(const std::string& waves_dir, const std::string& name, bool fst, std::string& path) {
    std::error_code ec;
    fs::create_directories(waves_dir, ec);
    if (ec) return "cannot make " + waves_dir + ": " + ec.message();
    path = (fs::path(waves_dir) / ("run_" + name + (fst ? ".fst" : ".vcd"))).string();
    return std::nullopt;
}

}  // namespace creditloop
