// Helpers shared by the tests: seed-style run specs and where the build and sources are.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "link_run.h"
#include "seed_tables.h"

namespace creditloop::testing {

// Seeds 000/001's set-up: saturating sender, drain every Nth cycle, 6000 cycles.
inline RunSpec seed_run(int stages, int buffer, int batch = 1, int drain_every = 1) {
    RunSpec spec;
    spec.config = LinkConfig{stages, buffer, batch, 32};
    spec.cycles = seeds::kSeedCycles;
    spec.stimulus.drain.period = drain_every;
    return spec;
}

// Where the build and the checkout are: the environment (as for the CLI), else where the
// tests were compiled.
inline std::string build_dir() {
    const char* dir = std::getenv("CREDITLOOP_BUILD");
    return dir && *dir ? dir : CREDITLOOP_BINARY_DIR;
}

inline std::string source_dir() {
    const char* dir = std::getenv("CREDITLOOP_ROOT");
    return dir && *dir ? dir : CREDITLOOP_SOURCE_DIR;
}

// A whole file as text ("" when it does not exist).
inline std::string slurp(const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// A GTKWave save file's groups in order: each group's name and its signal lines
// ("scope.credits[3:0]").
inline std::vector<std::pair<std::string, std::vector<std::string>>> gtkw_groups(const std::string& save) {
    std::vector<std::pair<std::string, std::vector<std::string>>> groups;
    bool open = false;
    std::istringstream lines(save);
    for (std::string line; std::getline(lines, line);) {
        if (line == "@800200" || line == "@c00200") {   // a group begins (expanded, collapsed)
            std::getline(lines, line);
            groups.push_back({line.substr(1), {}});
            open = true;
        } else if (line == "@1000200" || line == "@1401200") {   // and ends
            std::getline(lines, line);
            open = false;
        } else if (open && !line.empty() && line[0] != '@') {
            groups.back().second.push_back(line);
        }
    }
    return groups;
}

// build/creditloop run with `args` (a shell command line): its exit code, stdout and stderr.
struct CliOutcome {
    int exit_code;
    std::string out;
    std::string err;
};
inline CliOutcome run_creditloop(const std::string& args) {
    namespace fs = std::filesystem;
    const fs::path tmp = fs::temp_directory_path() / ("creditloop_cli_" + std::to_string(::getpid()));
    fs::create_directories(tmp);
    const std::string out = (tmp / "out").string(), err = (tmp / "err").string();
    const int status = std::system((build_dir() + "/creditloop " + args + " >" + out + " 2>" + err).c_str());
    CliOutcome o{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    fs::remove_all(tmp);
    return o;
}

}  // namespace creditloop::testing
