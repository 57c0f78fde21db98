// creditloop against the seeds' own Python models (scripts/seed_models.py, the listings of
// seeds 000 and 001) for configurations the seeds never printed: `creditloop run --json`, from
// the RTL and from the model, must give the same window send count as Python.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace {

std::string capture(const std::string& command) {
    std::string out;
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    REQUIRE(pipe);
    std::array<char, 4096> buffer{};
    while (fgets(buffer.data(), buffer.size(), pipe.get())) out += buffer.data();
    return out;
}


}  // namespace

TEST_CASE("RTL and model agree with the seeds' Python models beyond the printed tables", "[rtl][model][seed-python]") {
    struct Config { int l, b, k, drain; };
    // Seed 001's model for K = 1 with any drain period; seed 000's for K > 1.
    const Config configs[] = {{1, 4, 1, 3}, {2, 5, 1, 1}, {3, 7, 1, 2}, {5, 16, 1, 4}, {8, 18, 1, 3},
                              {2, 5, 2, 1}, {3, 7, 3, 1}, {5, 16, 4, 1}, {4, 12, 5, 1}, {4, 12, 12, 1}};
    const std::string cli = creditloop::testing::build_dir() + "/creditloop run --json";
    const std::string python = "python3 " + creditloop::testing::source_dir() + "/scripts/seed_models.py";
    for (const Config& c : configs) {
        const std::string params = std::to_string(c.l) + " " + std::to_string(c.b) + " " + std::to_string(c.k) +
                                   " " + std::to_string(c.drain);
        std::istringstream py(capture(python + " " + params));
        long long py_sends = -1, py_window = -1;
        py >> py_sends >> py_window;
        const std::string args = " --L " + std::to_string(c.l) + " --B " + std::to_string(c.b) + " --K " +
                                 std::to_string(c.k) + " --drain-every " + std::to_string(c.drain) + " --cycles 6000";
        const std::string rtl = capture(cli + args);
        const std::string model = capture(cli + " --model" + args);
        INFO("L B K drain = " << params << "\nrtl: " << rtl << "\nmodel: " << model);
        REQUIRE(py_window == 3000);
        const auto rtl_json = nlohmann::json::parse(rtl);
        const auto model_json = nlohmann::json::parse(model);
        CHECK(rtl_json.at("window").at("sends") == py_sends);
        CHECK(model_json.at("window").at("sends") == py_sends);
        CHECK(rtl_json.at("passed") == true);
    }
}
