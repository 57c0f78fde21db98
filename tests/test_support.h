// Helpers shared by the tests: seed-style run specs and where the build and sources are.
#pragma once

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

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

}  // namespace creditloop::testing
