// How a run and a regression are told: a readable summary for people, one JSON object for
// scripts, JUnit XML for CI.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "link_run.h"

namespace creditloop {

// "L4_B12_K8_W32, saturate, drain every 1, 6000 cycles, seed 1"
std::string describe(const RunSpec& spec);

// The multi-line summary `creditloop run` prints.
std::string run_summary(const RunSpec& spec, const RunResult& result);
// `creditloop run --json`: one JSON object, and the same as text on one line.
nlohmann::ordered_json run_json_value(const RunSpec& spec, const RunResult& result);
std::string run_json(const RunSpec& spec, const RunResult& result);
// `value` to ten significant digits, as every JSON number creditloop writes.
double json_rounded(double value);

std::string xml_escape(const std::string& text);

}  // namespace creditloop
