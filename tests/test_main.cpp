// Catch2's main, plus one extra mode for the build: `--write-labels FILE` writes each test's name
// and its tags, so CTest can give every test its tags as labels (ctest -L rtl). Catch2 2.13's
// catch_discover_tests has no option for that; cmake/ctest_labels.cmake reads the file.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>

int main(int argc, char* argv[]) {
    if (argc == 3 && std::strcmp(argv[1], "--write-labels") == 0) {
        Catch::Session session;   // registers the tests and gives a config
        std::ofstream out(argv[2], std::ios::trunc);
        for (const auto& test : Catch::getAllTestCasesSorted(session.config())) {
            out << test.name << '\t';
            const char* separator = "";
            for (const auto& tag : test.tags) {
                out << separator << tag;
                separator = ",";
            }
            out << '\n';
        }
        return out ? 0 : 1;
    }
    return Catch::Session().run(argc, argv);
}
