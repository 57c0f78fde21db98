// The regression run in the test's own process, its JUnit file and waves in a temporary folder
// of their own (removed afterwards), and what it printed captured.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "regression.h"

namespace creditloop::testing {

struct RegressOutcome {
    int code;
    std::string printed;
};

// `name` makes the folder the run's own; `cases` (when given) replace the regression's list.
inline RegressOutcome regress_captured(RegressCommand cmd, const std::string& name,
                                       const std::vector<RegressionCase>* cases = nullptr) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("creditloop_" + name + "_" + std::to_string(::getpid()));
    cmd.junit = (dir / "results.xml").string();
    cmd.waves_dir = (dir / "waves").string();
    std::ostringstream printed;
    std::streambuf* saved = std::cout.rdbuf(printed.rdbuf());
    const int code = cases ? run_regression(cmd, "build/creditloop", *cases) : run_regression(cmd, "build/creditloop");
    std::cout.rdbuf(saved);
    fs::remove_all(dir);
    return {code, printed.str()};
}

}  // namespace creditloop::testing
