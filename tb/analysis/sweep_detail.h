// What the sweep's three files share (analysis/sweep_plan.cpp: the plan; report/sweep_output.cpp:
// CSV, table and plot; commands/sweep.cpp: the options and the runs). Not for use outside the sweep.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sweep_plan.h"

namespace creditloop::sweep_detail {

constexpr int kDefaultMaxBuffer = 32;       // seed 001's plot: every buffer size from 1 to 32
constexpr size_t kMaxPoints = 20000;        // a typo guard, like kMaxBufferSlots
constexpr int kMaxDrainPeriod = 1000000;    // as `creditloop run`
constexpr int kMaxJobs = 64;
constexpr size_t kTableColumns = 16;        // B values per block of the text table

// The round trip of a curve's link: 2L + 2 + SYNC + FREE_DELAY.
int curve_round_trip(const SweepCurve& curve);
// "4", "1,4,8", "4..18", "1..8,12" -> sorted, without repeats; false with one error line naming
// the option and the allowed range.
bool parse_list(const std::string& option, const std::string& text, int lo, int hi, std::vector<int>& out,
                std::string& error);
std::vector<int> range_list(int first, int last);               // first..last
bool apply_preset(const std::string& name, SweepSpec& spec);    // false: no such preset
std::optional<uint64_t> parse_count(const std::string& text);   // a whole number, or nothing
std::string describe_values(const std::vector<int>& values);    // "1, 2, 4..8"
std::string point_name(const SweepCurve& curve, int buffer);    // "L=4 B=12"
std::string fixed6(double value);                               // six decimals

}  // namespace creditloop::sweep_detail
