// The regression's HTML report (docs/report.md): one self-contained page, index.html, with the
// summary, every test (filterable), each failure with its rerun command and waves, the coverage
// bins, the mutants' kill table and the plots. No network: its script and style are inline and
// the plots are embedded, so the folder can be moved or mailed whole.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace creditloop {

// The verdict a row is filtered by: the summary counts one per class.
enum class ReportVerdict { passed, failed, caught, not_run };

struct ReportTest {
    std::string name;              // "seed001/L4_B10"
    std::string config;            // "L=4 B=10 K=1 ..." or a channel run's arguments
    std::string seed;              // the stimulus seed
    std::string cycles, measured, predicted, seed_value;   // "" where the run has none
    ReportVerdict verdict = ReportVerdict::passed;
    std::string verdict_text;      // "PASS", "PASS (caught by ...)", "FAIL", "not run: ..."
    std::string first_violation;   // a failure's first violation (or its error)
    std::string rerun;             // the command that reruns it
    std::string waves, gtkw;       // links, relative to the report's folder where possible
};

struct ReportBin {
    std::string name, meaning;
    uint64_t count = 0;
};

struct ReportMutant {
    std::string name, bug_class, stimulus, checks, rerun, waves, gtkw;
    bool caught = false;
    uint64_t cycle = 0;
};

// One configuration of `creditloop prove` (its results.json under the build folder's prove/).
struct ReportProof {
    std::string configuration, property, result, k, cycle, note, rerun, waves;
};

struct ReportPlot {
    std::string title;   // its file, e.g. "network/ring8_v1.svg"
    std::string svg;     // the file's text
};

struct ReportPage {
    std::string junit;              // the JUnit file it was made from
    std::string seed, commit, written;
    uint64_t junit_tests = 0, junit_failures = 0;   // the JUnit file's own counts
    std::vector<ReportTest> tests;
    bool has_coverage = false;
    std::vector<ReportBin> bins;
    bool has_mutants = false;
    std::vector<ReportMutant> mutants;
    std::vector<ReportPlot> plots;
    std::string proof_design;         // "" when no proof ran
    std::vector<ReportProof> proofs;
};

// Text as HTML text or attribute value: & < > " ' escaped.
std::string html_escape(std::string_view text);
// Bytes as base64 (RFC 4648, padded), for the plots' data: URLs.
std::string base64(std::string_view bytes);
// "passed", "failed", "caught", "not run": the names the page's filter uses.
const char* verdict_name(ReportVerdict verdict);

// The whole page.
std::string html_report(const ReportPage& page);

}  // namespace creditloop
