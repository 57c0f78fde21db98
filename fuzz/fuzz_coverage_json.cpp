// libFuzzer target: the functional-coverage JSON written beside a JUnit file
// (build/results.coverage.json, docs/coverage.md), read back by parse_coverage_json() of
// tb/report/coverage_report.h, as a merge of several runs' reports reads it.
//
// The input is the file's text. It must be read or refused with an error line, and what is
// read must come back the same through the JSON creditloop writes (coverage_json()).
#include <cstdint>

#include <nlohmann/json.hpp>

#include "coverage_report.h"
#include "fuzz_support.h"

using namespace creditloop;
using namespace creditloop::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string error;
    const auto tally = parse_coverage_json(text_of(data, size), "results.coverage.json", error);
    if (!tally) {
        expect_error(error, "parse_coverage_json");
        return 0;
    }
    coverage_summary(*tally);
    const std::string written = coverage_json(*tally).dump(2);
    const auto back = parse_coverage_json(written, "written.coverage.json", error);
    expect(back.has_value(), "the coverage JSON creditloop writes does not read back", error);
    expect(coverage_json(*back).dump(2) == written, "the coverage JSON does not read back the same", written);
    return 0;
}
