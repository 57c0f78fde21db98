#include "map_command.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli_parse.h"
#include "dut_library.h"
#include "port_map_guess.h"

namespace fs = std::filesystem;

namespace creditloop {

namespace {

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

}  // namespace

int run_map(const std::vector<std::string>& args, const std::string& program) {
    MapRequest request;
    std::string out;
    bool force = false;
    CLI::App app{"A port map of your own counter or link, guessed from its ports and parameters, for you to confirm: "
                 "each role's line says where its guess came from. Without -o it is written to <top>.map.json "
                 "(<sender>_<receiver>.map.json for a link) in the current folder; '-o -' prints it.",
                 "creditloop map"};
    app.add_option("files", request.files, "your RTL files (.sv, .v)");
    app.add_option("--kind", request.kind,
                   "counter | counters | link (default: a guess: one module is a counter, or every channel's counters when a "
                   "parameter sizes its ports a slice per channel; two modules a link)")
        ->check(one_of({"counter", "counters", "link"}, "a kind of map"));
    app.add_option("--top", request.top, "the counter's module (default: the one module nobody instantiates)");
    app.add_option("--sender", request.sender, "a link's sending module (default: guessed from the names)");
    app.add_option("--receiver", request.receiver, "a link's receiving module");
    app.add_option("-I,--incdir", request.incdirs, "an include directory (+incdir+), repeatable");
    app.add_option("-D,--define", request.defines, "a define NAME or NAME=VALUE (+define+), repeatable");
    app.add_option("-f,--file-list", request.file_lists,
                   "a Verilator file list, repeatable; its relative paths from its own folder (Verilator's -F), as a map reads it");
    app.add_option("-o,--out", out, "where the map goes (its paths are written relative to its folder); - for stdout");
    add_flag(app, "--force", force, "overwrite an existing map");
    ParseError error;
    if (!parse_command(app, args, error)) return parse_failed(error);
    if (request.files.empty() && request.file_lists.empty())
        return refuse("map: give your RTL files: creditloop map FILE.sv... (or -f LIST)");
    if (!request.top.empty() && (!request.sender.empty() || !request.receiver.empty()))
        return refuse("map: --top names a counter, --sender and --receiver a link's sides: give one or the other");
    if ((request.kind == "counter" || request.kind == "counters") && (!request.sender.empty() || !request.receiver.empty()))
        return refuse("map: --kind " + request.kind + " takes --top, not --sender or --receiver");
    if (request.kind == "link" && !request.top.empty())
        return refuse("map: --kind link takes --sender and --receiver, not --top");
    const bool to_stdout = out == "-";
    std::error_code ec;
    request.map_dir = out.empty() || to_stdout ? "." : fs::absolute(out).parent_path().string();
    if (!fs::is_directory(request.map_dir, ec)) return refuse("map: -o " + out + ": no folder " + request.map_dir + " to write it in");
    if (!out.empty() && !to_stdout && fs::exists(out, ec) && !force)
        return refuse("map: " + out + " exists: give --force to overwrite it, or another -o");

    GuessedMap guessed;
    if (auto problem = guess_map(DutSources::from_environment(), request, guessed); !problem.empty()) return refuse(problem);
    for (const auto& warning : guessed.warnings) std::cerr << "creditloop: warning in your RTL: " << warning << "\n";
    const std::string path = out.empty() ? guessed.default_name : out;
    const std::string text = guessed.text();
    const auto unplaced = guessed.unplaced();
    const std::string run = program + " run " + (guessed.kind == "link" ? "--link " : "--counter ") + path;
    if (to_stdout) {
        std::cout << text;
    } else {
        if (fs::exists(path, ec) && !force) return refuse("map: " + path + " exists: give --force to overwrite it, or -o another");
        // Written whole or not at all: a temporary file beside it, renamed into place.
        const fs::path tmp = fs::path(path).parent_path() / ("." + fs::path(path).filename().string() + "." +
                                                               std::to_string(::getpid()) + ".tmp");
        {
            std::ofstream file(tmp);
            file << text;
            if (!file.flush()) {
                fs::remove(tmp, ec);
                std::cerr << "creditloop: map: cannot write " << path << "\n";
                return 3;
            }
        }
        fs::rename(tmp, path, ec);
        if (ec) {
            fs::remove(tmp, ec);
            std::cerr << "creditloop: map: cannot write " << path << "\n";
            return 3;
        }
        std::cout << "creditloop map: " << path << ": " << guessed.description() << ", "
                  << (guessed.kind != "link" ? guessed.sides.front().module
                                             : guessed.sides.front().module + " to " + guessed.sides.back().module)
                  << "; " << (unplaced.empty() ? "every role placed" : std::to_string(unplaced.size()) + " role(s) not placed")
                  << ". Confirm each line's comment, then: " << run << "\n";
    }
    if (!unplaced.empty()) {
        std::cerr << "creditloop map: could not place " << joined(unplaced) << ": each is \"?\" in "
                  << (to_stdout ? "the map" : path) << "; name its port before running\n";
        return 1;
    }
    return 0;
}

}  // namespace creditloop
