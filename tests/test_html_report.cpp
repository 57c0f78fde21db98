// The HTML report (docs/report.md) without a browser: text is escaped, plots are encoded as RFC
// 4648 says, a JUnit file's testcases become the page's rows with their verdicts, and a folder's
// index.html that is not ours is kept. tests/report/test_report_browser.py loads a real one.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "html_report.h"
#include "report_folder.h"
#include "report_inputs.h"
#include "test_support.h"

using namespace creditloop;
namespace fs = std::filesystem;

namespace {

size_t occurrences(const std::string& text, const std::string& word) {
    size_t n = 0;
    for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + word.size())) ++n;
    return n;
}

// A folder of its own under the temporary directory, removed at the end.
struct Scratch {
    fs::path dir = fs::temp_directory_path() / ("creditloop_html_" + std::to_string(::getpid()));
    Scratch() { fs::create_directories(dir); }
    ~Scratch() { fs::remove_all(dir); }
};

}  // namespace

TEST_CASE("the report escapes every character HTML gives a meaning to", "[report][cli]") {
    CHECK(html_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;");
    CHECK(html_escape("&amp;") == "&amp;amp;");
    CHECK(html_escape("plain L=4 B=10") == "plain L=4 B=10");

    ReportPage page;
    ReportTest hostile;
    hostile.name = "x/<script>alert(1)</script>";
    hostile.config = "\"><img src=x onerror=alert(2)>";
    hostile.verdict = ReportVerdict::failed;
    hostile.verdict_text = "FAIL";
    hostile.rerun = "creditloop run --waves 'a&b'";
    page.tests = {hostile, ReportTest{}, ReportTest{}};
    const std::string html = html_report(page);
    CHECK(html.find("<script>alert") == std::string::npos);
    CHECK(html.find("<img src=x") == std::string::npos);
    CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
    CHECK(html.find("--waves &apos;a&amp;b&apos;") != std::string::npos);
    CHECK(occurrences(html, "data-verdict=") == 3);
    CHECK(occurrences(html, "<script") == 1);   // the page's own, inline
}

TEST_CASE("plots are embedded as base64 (RFC 4648's test vectors)", "[report][cli]") {
    CHECK(base64("") == "");
    CHECK(base64("f") == "Zg==");
    CHECK(base64("fo") == "Zm8=");
    CHECK(base64("foo") == "Zm9v");
    CHECK(base64("foob") == "Zm9vYg==");
    CHECK(base64("fooba") == "Zm9vYmE=");
    CHECK(base64("foobar") == "Zm9vYmFy");
    CHECK(base64(std::string("\xff\x00\x80", 3)) == "/wCA");
}

TEST_CASE("a JUnit file's testcases become the report's rows, each with its verdict", "[report][cli]") {
    Scratch scratch;
    const fs::path junit = scratch.dir / "results.xml";
    std::ofstream(junit) << R"(<?xml version="1.0"?>
<testsuites><testsuite name="creditloop.sim" tests="4" failures="1" errors="0" skipped="1">
  <properties><property name="seed" value="7"/></properties>
  <testcase classname="creditloop.seed001" name="L4_B10"><properties><property name="cycles" value="100"/></properties></testcase>
  <testcase classname="creditloop.faults" name="drop_no_recovery"><properties><property name="caught_by" value="conservation"/></properties></testcase>
  <testcase classname="creditloop.random" name="L3_B7"><failure message="cycle 12: conservation.total">rerun: x</failure></testcase>
  <testcase classname="creditloop.random" name="L3_B8"><skipped message="not run: interrupted"/></testcase>
</testsuite></testsuites>
)";
    std::string error;
    const auto page = read_report_inputs(junit.string(), (scratch.dir / "report").string(), error);
    REQUIRE(page);
    CHECK(page->seed == "7");
    REQUIRE(page->tests.size() == 4);
    CHECK(page->tests[0].name == "seed001/L4_B10");
    CHECK(page->tests[0].cycles == "100");
    CHECK(page->tests[0].verdict == ReportVerdict::passed);
    CHECK(page->tests[1].verdict == ReportVerdict::caught);
    CHECK(page->tests[2].verdict == ReportVerdict::failed);
    CHECK(page->tests[2].first_violation == "cycle 12: conservation.total");
    CHECK(page->tests[3].verdict == ReportVerdict::not_run);
    CHECK_FALSE(page->has_coverage);   // no results.coverage.json beside it

    CHECK_FALSE(read_report_inputs((scratch.dir / "none.xml").string(), scratch.dir.string(), error));
    CHECK(error.find("none.xml") != std::string::npos);
}

TEST_CASE("an index.html creditloop did not write is kept unless --force", "[report][cli][bad-input][binary]") {
    Scratch scratch;
    const fs::path theirs = scratch.dir / "theirs";
    fs::create_directories(theirs);
    std::ofstream(theirs / "index.html") << "<html>my notes</html>\n";
    CHECK_FALSE(report_folder_problem(theirs.string(), false).empty());
    CHECK(report_folder_problem(theirs.string(), true).empty());
    CHECK(report_folder_problem((scratch.dir / "new").string(), false).empty());

    const auto o = testing::run_creditloop("report --junit " + (scratch.dir / "missing.xml").string() + " --out " +
                                           theirs.string());
    CHECK(o.exit_code == 2);
    CHECK(o.err.find("index.html exists") != std::string::npos);
    CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
    CHECK(testing::slurp((theirs / "index.html").string()) == "<html>my notes</html>\n");
    const auto missing = testing::run_creditloop("report --junit " + (scratch.dir / "missing.xml").string() + " --out " +
                                                 (scratch.dir / "new").string());
    CHECK(missing.exit_code == 2);
    CHECK(missing.err.find("missing.xml") != std::string::npos);
    CHECK_FALSE(fs::exists(scratch.dir / "new" / "index.html"));
}
