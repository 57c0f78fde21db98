// `make mutants` inside `make test`: every mutant in rtl/mutants/ is caught, and the kill table
// says by which check and where its waves are.
#include <catch2/catch.hpp>

#include <filesystem>
#include <iostream>
#include <sstream>

#include "mutants.h"
#include "test_support.h"

using namespace creditloop;
namespace fs = std::filesystem;

TEST_CASE("every mutant in rtl/mutants is caught and the kill table says how", "[mutants][rtl]") {
    std::vector<std::string> errors;
    const auto mutants = find_mutants(creditloop::testing::source_dir(), errors);
    CHECK(errors.empty());
    REQUIRE(mutants.size() >= 12);   // the bug classes the seeds and public reports name
    const fs::path waves = fs::temp_directory_path() / "creditloop_mutants_waves";
    fs::remove_all(waves);
    MutantsCommand cmd;
    cmd.waves_dir = waves.string();
    cmd.channels = false;   // the multi-channel mutants have their own test (test_channel_rtl.cpp), each held to its check
    std::ostringstream printed;
    std::streambuf* saved = std::cout.rdbuf(printed.rdbuf());
    const int code = run_mutants(cmd, "build/creditloop");
    std::cout.rdbuf(saved);
    INFO(printed.str());
    CHECK(code == 0);
    CHECK(printed.str().find(std::to_string(mutants.size()) + " of " + std::to_string(mutants.size()) +
                             " mutants caught") != std::string::npos);
    for (const auto& m : mutants) {
        CHECK(fs::exists(waves / (m.name + ".vcd")));
        CHECK(fs::exists(waves / (m.name + ".gtkw")));
    }
    fs::remove_all(waves);
}
