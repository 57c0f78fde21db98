// libFuzzer target: the JUnit files creditloop reads back. `creditloop merge` reads the shards'
// files (tb/commands/merge.h: their shard I/N, run properties, testcase indices and coverage file
// names) and `make sim RERUN=failed` an earlier run's file (tests_to_rerun of
// tb/commands/regression.h: its seed and the tests that did not pass).
//
// The input is up to four JUnit files, separated by a line "%%" (fuzz/corpus/junit/ holds shards
// a real run wrote). Each is written to the scratch directory as shard_<k>.xml, with a valid
// coverage JSON beside it (shard_<k>.coverage.json, no bin counted); merge writes merged.xml
// there. A merge must end in a verdict (0 or 1) or a refusal (2); a rerun must give the tests or
// one reason. The HTML report (tb/report/report_inputs.h) reads the first file: a whole page, or
// one reason.
#include <cstdint>
#include <fstream>
#include <iostream>
#include <set>
#include <string>

#include "coverage_report.h"
#include "fuzz_support.h"
#include "html_report.h"
#include "merge.h"
#include "regression.h"
#include "report_inputs.h"

using namespace creditloop;
using namespace creditloop::fuzz;

namespace {

std::vector<std::string> files_of(const std::string& text) {
    std::vector<std::string> files(1);
    for (const auto& line : lines_of(text)) {
        if (line == "%%") {
            if (files.size() == 4) break;
            files.emplace_back();
            continue;
        }
        files.back() += line + "\n";
    }
    return files;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // The commands speak on stdout and stderr; a fuzz run would only drown in their lines.
    static const bool quiet = [] {
        std::cout.setstate(std::ios::failbit);
        std::cerr.setstate(std::ios::failbit);
        return true;
    }();
    (void)quiet;
    const std::string dir = scratch_dir();
    MergeCommand merge{dir + "/merged.xml", {}, true};
    const auto files = files_of(text_of(data, size));
    for (size_t k = 0; k < files.size(); ++k) {
        const std::string shard = dir + "/shard_" + std::to_string(k + 1) + ".xml";
        std::ofstream(shard, std::ios::binary | std::ios::trunc) << files[k];
        expect(write_coverage_json(coverage_json_path(shard), CoverageTally{}), "scratch", "cannot write the coverage JSON");
        merge.shards.push_back(shard);
    }
    const int verdict = run_merge(merge);
    expect(verdict >= 0 && verdict <= 2, "run_merge gave no verdict or refusal", std::to_string(verdict));

    std::set<std::string> rerun;
    if (const auto problem = tests_to_rerun(merge.shards.front(), 1, rerun)) expect_one_line(*problem, "tests_to_rerun");

    std::string report_error;
    if (const auto page = read_report_inputs(merge.shards.front(), dir + "/report", report_error))
        expect(html_report(*page).find("</html>") != std::string::npos, "html_report", "the page does not end");
    else
        expect_one_line(report_error, "read_report_inputs");
    return 0;
}
