#include "report_inputs.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "coverage_report.h"

namespace fs = std::filesystem;

namespace creditloop {

namespace {

std::string property_of(pugi::xml_node node, const char* name) {
    return node.child("properties").find_child_by_attribute("property", "name", name).attribute("value").as_string();
}

// A file as written for a run from the current directory, linked from `out_dir`: relative when
// both are on one tree, absolute otherwise.
std::string link_from(const std::string& file, const std::string& out_dir) {
    if (file.empty()) return "";
    std::error_code ec;
    const fs::path target = fs::absolute(file, ec);
    if (ec) return file;
    const fs::path relative = fs::relative(target, fs::absolute(out_dir, ec), ec);
    return ec || relative.empty() ? target.string() : relative.generic_string();
}

std::optional<std::string> read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

ReportTest read_test(pugi::xml_node test, const std::string& out_dir) {
    ReportTest t;
    std::string classname = test.attribute("classname").as_string();
    if (classname.rfind("creditloop.", 0) == 0) classname = classname.substr(11);
    t.name = classname + "/" + test.attribute("name").as_string();
    t.config = property_of(test, "config");
    t.seed = property_of(test, "seed");
    t.cycles = property_of(test, "cycles");
    t.measured = property_of(test, "measured");
    t.predicted = property_of(test, "predicted");
    t.seed_value = property_of(test, "seed_value");
    t.verdict_text = property_of(test, "verdict");
    t.rerun = property_of(test, "rerun");
    t.first_violation = property_of(test, "first_violation");
    t.waves = link_from(property_of(test, "waves"), out_dir);
    t.gtkw = link_from(property_of(test, "gtkw"), out_dir);
    if (auto failure = test.child("failure")) {
        t.verdict = ReportVerdict::failed;
        if (t.first_violation.empty()) t.first_violation = failure.attribute("message").as_string();
    } else if (auto skipped = test.child("skipped")) {
        t.verdict = ReportVerdict::not_run;
        t.verdict_text = skipped.attribute("message").as_string();
    } else if (auto error = test.child("error")) {
        t.verdict = ReportVerdict::not_run;
        t.verdict_text = error.attribute("message").as_string();
    } else if (!property_of(test, "caught_by").empty() || t.verdict_text.rfind("PASS (caught", 0) == 0) {
        t.verdict = ReportVerdict::caught;
    }
    if (t.verdict_text.empty()) t.verdict_text = t.verdict == ReportVerdict::failed ? "FAIL" : "PASS";
    return t;
}

void read_mutants(ReportPage& page, const fs::path& path, const std::string& out_dir) {
    const auto text = read_text(path);
    if (!text) return;
    const auto json = nlohmann::json::parse(*text, nullptr, false);
    if (!json.is_object() || !json.contains("mutants") || !json["mutants"].is_array()) return;
    const auto field = [](const nlohmann::json& m, const char* key) {
        return m.contains(key) && m[key].is_string() ? m[key].get<std::string>() : std::string();
    };
    for (const auto& m : json["mutants"]) {
        if (!m.is_object()) continue;
        ReportMutant mutant;
        mutant.name = field(m, "name");
        mutant.bug_class = field(m, "class");
        mutant.stimulus = field(m, "stimulus");
        mutant.checks = field(m, "checks");
        mutant.rerun = field(m, "rerun");
        mutant.waves = link_from(field(m, "waves"), out_dir);
        mutant.gtkw = link_from(field(m, "gtkw"), out_dir);
        mutant.caught = m.contains("caught") && m["caught"].is_boolean() && m["caught"].get<bool>();
        mutant.cycle = m.contains("cycle") && m["cycle"].is_number_unsigned() ? m["cycle"].get<uint64_t>() : 0;
        page.mutants.push_back(mutant);
    }
    page.has_mutants = true;
}

// The proof of `creditloop prove` (make sim PROVE=1), when its results.json is in the folder.
void read_proof(ReportPage& page, const fs::path& path, const std::string& out_dir) {
    const auto text = read_text(path);
    if (!text) return;
    const auto json = nlohmann::json::parse(*text, nullptr, false);
    if (!json.is_object() || !json.contains("results") || !json["results"].is_array()) return;
    const auto field = [](const nlohmann::json& m, const char* key) {
        if (!m.contains(key) || m[key].is_null()) return std::string();
        return m[key].is_string() ? m[key].get<std::string>() : m[key].dump();
    };
    for (const auto& r : json["results"]) {
        if (!r.is_object()) continue;
        ReportProof proof{field(r, "point"), field(r, "property"), field(r, "result"), field(r, "k"),
                          field(r, "cycle"), field(r, "note"), field(r, "rerun"), ""};
        if (r.contains("waves") && r["waves"].is_array() && !r["waves"].empty() && r["waves"][0].is_string())
            proof.waves = link_from(r["waves"][0].get<std::string>(), out_dir);
        page.proofs.push_back(proof);
    }
    page.proof_design = json.contains("design") && json["design"].is_string() ? json["design"].get<std::string>() : "your design";
}

void read_plots(ReportPage& page, const fs::path& folder) {
    for (const char* sub : {"sweep", "hol", "faults", "network"}) {
        std::vector<fs::path> files;
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(folder / sub, ec))
            if (entry.path().extension() == ".svg" && entry.is_regular_file(ec)) files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const auto& file : files)
            if (auto svg = read_text(file)) page.plots.push_back({std::string(sub) + "/" + file.filename().string(), *svg});
    }
}

}  // namespace

std::string mutants_kills_path(const std::string& build_root) {
    return (fs::path(build_root) / "mutants" / "kills.json").string();
}

std::optional<ReportPage> read_report_inputs(const std::string& junit, const std::string& out_dir, std::string& error) {
    pugi::xml_document doc;
    const auto parsed = doc.load_file(junit.c_str());
    if (!parsed) {
        error = "cannot read " + junit + " (" + parsed.description() + ")";
        return std::nullopt;
    }
    const auto suite = doc.child("testsuites").child("testsuite");
    if (!suite) {
        error = junit + " is no JUnit file of creditloop regress (no testsuites/testsuite)";
        return std::nullopt;
    }
    ReportPage page;
    page.junit = junit;
    page.seed = property_of(suite, "seed");
    page.junit_tests = suite.attribute("tests").as_ullong();
    page.junit_failures = suite.attribute("failures").as_ullong();
    for (auto test : suite.children("testcase")) page.tests.push_back(read_test(test, out_dir));

    std::string coverage_error;
    if (auto tally = read_coverage_json(coverage_json_path(junit), coverage_error)) {
        page.has_coverage = true;
        for (const auto& e : tally->entries()) page.bins.push_back({e.name, e.meaning, e.count});
    }
    const fs::path folder = fs::absolute(junit).parent_path();
    read_mutants(page, mutants_kills_path(folder.string()), out_dir);
    read_proof(page, folder / "prove" / "results.json", out_dir);
    read_plots(page, folder);
    return page;
}

}  // namespace creditloop
