// How functional coverage is told (docs/coverage.md): the summary `make sim` prints at the end,
// and the JSON beside the JUnit file that holds every bin with its count.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "coverage.h"

namespace creditloop {

// "functional coverage: 61 of 61 bins hit (47 link, 20 channel) over 180 runs", then every bin
// never hit by name with what it means, one a line.
std::string coverage_summary(const CoverageTally& tally);

// {"hit": n, "total": m, "runs": r, "unhit": [names], "bins": [{"name", "count", "meaning"}, ...]}
nlohmann::ordered_json coverage_json(const CoverageTally& tally);
// Write it to `path` (whole, through a temporary file); false when it cannot be written.
bool write_coverage_json(const std::string& path, const CoverageTally& tally);
// Read one back: the counts by name (unknown names refused, with the reason in `error`).
std::optional<CoverageTally> read_coverage_json(const std::string& path, std::string& error);
// The same from the file's text (`path` names it in the error): reads nothing.
std::optional<CoverageTally> parse_coverage_json(const std::string& text, const std::string& path, std::string& error);

// The JSON's place beside a JUnit file: build/results.xml -> build/results.coverage.json.
std::string coverage_json_path(const std::string& junit_path);

}  // namespace creditloop
