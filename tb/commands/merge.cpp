#include "merge.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>

#include <pugixml.hpp>

#include "coverage_report.h"
#include "junit.h"

namespace fs = std::filesystem;

namespace creditloop {

namespace {

std::string property_of(pugi::xml_node node, const char* name) {
    return node.child("properties").find_child_by_attribute("property", "name", name).attribute("value").as_string();
}

// A whole number as a shard's file gives it (its shard I/N, its tests.total, a testcase's index):
// digits only, at most `most`. std::stoul and sscanf would throw, wrap or take a prefix.
std::optional<size_t> whole_number(const std::string& text, size_t most) {
    if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    const size_t value = std::stoull(text);
    if (value > most) return std::nullopt;
    return value;
}

// "I/N" with 1 <= I <= N <= most.
bool shard_slice(const std::string& text, size_t most, int& index, int& count) {
    const size_t slash = text.find('/');
    if (slash == std::string::npos) return false;
    const auto i = whole_number(text.substr(0, slash), most), n = whole_number(text.substr(slash + 1), most);
    if (!i || !n || *i < 1 || *i > *n) return false;
    index = static_cast<int>(*i);
    count = static_cast<int>(*n);
    return true;
}

// One shard's file, read and checked against the first one's run.
struct Shard {
    std::string path;
    pugi::xml_document doc;
    pugi::xml_node suite;
    int index = 0, count = 0;
};

// More shards than a Slurm job array holds (MaxArraySize is 1001 by default) is no run of ours.
constexpr size_t kMostShards = 100000;

}  // namespace

int run_merge(const MergeCommand& command) {
    if (!command.force && fs::exists(command.junit))
        return refuse(command.junit + " exists: name another --junit, or add --force to replace it");
    std::vector<Shard> shards(command.shards.size());
    std::map<int, std::string> seen;   // shard number -> its file
    for (size_t s = 0; s < shards.size(); ++s) {
        Shard& shard = shards[s];
        shard.path = command.shards[s];
        const auto parsed = shard.doc.load_file(shard.path.c_str());
        if (!parsed) return refuse("cannot read " + shard.path + " (" + parsed.description() + ")");
        shard.suite = shard.doc.child("testsuites").child("testsuite");
        const std::string slice = property_of(shard.suite, "shard");
        if (!shard.suite || !shard_slice(slice, kMostShards, shard.index, shard.count))
            return refuse(shard.path + " is not a shard's JUnit file (no 'shard' property I/N): write it with creditloop regress --shard I/N");
        const Shard& first = shards.front();
        for (const char* key : {"seed", "filter", "tests.total"})
            if (property_of(shard.suite, key) != property_of(first.suite, key))
                return refuse(shard.path + " is of another run than " + first.path + " (its " + key + " is '" +
                              property_of(shard.suite, key) + "', not '" + property_of(first.suite, key) + "')");
        if (shard.count != first.count)
            return refuse(shard.path + " is shard " + slice + " but " + first.path + " is one of " + std::to_string(first.count));
        if (!seen.emplace(shard.index, shard.path).second)
            return refuse("shard " + slice + " is given twice: " + seen[shard.index] + " and " + shard.path);
    }
    const int count = shards.front().count;
    for (int i = 1; i <= count; ++i)
        if (!seen.count(i))
            return refuse("shard " + std::to_string(i) + "/" + std::to_string(count) +
                          " is missing: merge needs every shard's JUnit file (did its job fail?)");

    // The testcases in the unsharded order, each index exactly once: as many as the run had.
    const std::string total_text = property_of(shards.front().suite, "tests.total");
    size_t given = 0;
    for (const Shard& shard : shards)
        for (auto test : shard.suite.children("testcase")) (void)test, ++given;
    const auto total_read = whole_number(total_text, given);
    if (!total_read || *total_read != given)
        return refuse(shards.front().path + ": the run had '" + total_text + "' tests (tests.total) but the shards hold " +
                      std::to_string(given) + ": every shard's file is needed, each written by creditloop regress --shard");
    const size_t total = *total_read;
    std::vector<pugi::xml_node> tests(total);
    CoverageTally coverage;
    for (const Shard& shard : shards) {
        for (auto test : shard.suite.children("testcase")) {
            const std::string index = property_of(test, "index");
            const size_t k = whole_number(index, total).value_or(total);
            if (k >= total || tests[k])
                return refuse(shard.path + ": testcase " + test.attribute("name").as_string() + " has index '" + index +
                              "', outside the run or given twice");
            tests[k] = test;
        }
        // Written by regress as the name of a file beside the shard's: never a path elsewhere.
        const std::string file = property_of(shard.suite, "coverage.file");
        if (file.empty() || file.find('/') != std::string::npos || file == "." || file == "..")
            return refuse(shard.path + ": its coverage.file '" + file + "' is not the name of the coverage JSON beside it");
        std::string error;
        const auto tally = read_coverage_json((fs::path(shard.path).parent_path() / file).string(), error);
        if (!tally) return refuse(error + ": the coverage file beside " + shard.path);
        coverage.add(*tally);
    }
    for (size_t k = 0; k < total; ++k)
        if (!tests[k]) return refuse("test " + std::to_string(k) + " of the run is in no shard's file");

    pugi::xml_document out;
    auto suite = start_junit_suite(out);
    unsigned long long failures = 0, errors = 0, skipped = 0;
    double time = 0.0;
    for (auto test : tests) {
        failures += test.child("failure") ? 1 : 0;
        errors += test.child("error") ? 1 : 0;
        skipped += test.child("skipped") ? 1 : 0;
        time += test.attribute("time").as_double();
    }
    suite.append_attribute("tests") = static_cast<unsigned long long>(total);
    suite.append_attribute("failures") = failures;
    suite.append_attribute("errors") = errors;
    suite.append_attribute("skipped") = skipped;
    suite.append_attribute("time") = time;
    // The first shard's run properties, less its shard, with the merged coverage.
    auto properties = suite.append_child("properties");
    const std::string coverage_file = coverage_json_path(command.junit);
    for (auto p : shards.front().suite.child("properties").children("property")) {
        const std::string name = p.attribute("name").as_string();
        if (name == "shard") continue;
        auto copy = properties.append_copy(p);
        if (name == "coverage.bins_hit") copy.attribute("value") = std::to_string(coverage.hit()).c_str();
        if (name == "coverage.bins_unhit") {
            std::string unhit;
            for (const auto& bin : coverage.unhit()) unhit += (unhit.empty() ? "" : " ") + bin;
            copy.attribute("value") = unhit.c_str();
        }
        if (name == "coverage.file") copy.attribute("value") = fs::path(coverage_file).filename().string().c_str();
    }
    for (const Shard& shard : shards)
        if (!property_of(shard.suite, "interrupted").empty())
            properties.append_copy(shard.suite.child("properties").find_child_by_attribute("property", "name", "interrupted"));
    for (auto test : tests) suite.append_copy(test);

    std::error_code ec;
    if (fs::path(command.junit).has_parent_path()) fs::create_directories(fs::path(command.junit).parent_path(), ec);
    const std::string temporary = command.junit + ".tmp";
    if (!out.save_file(temporary.c_str(), "  ") || (fs::rename(temporary, command.junit, ec), ec) ||
        !write_coverage_json(coverage_file, coverage)) {
        fs::remove(temporary, ec);
        return refuse("cannot write " + command.junit + " or " + coverage_file + ": check the folder is writable and has space");
    }
    std::cout << "creditloop merge: " << count << " shards, " << total << " tests: " << total - failures - errors - skipped
              << " passed, " << failures << " failed" << (errors + skipped ? ", " + std::to_string(errors + skipped) + " interrupted or not run" : "")
              << " (JUnit: " << command.junit << ", coverage: " << coverage_file << ")\n";
    return failures + errors + skipped ? 1 : 0;
}

}  // namespace creditloop
