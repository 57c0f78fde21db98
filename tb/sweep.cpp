#include "sweep.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "cli.h"
#include "closed_forms.h"
#include "dut_library.h"
#include "report.h"
#include "seed_tables.h"
#include "svg_plot.h"

namespace fs = std::filesystem;

namespace creditloop {

const char* const kSweepUsage =
    "usage: creditloop sweep [options]   steady throughput against the buffer size B\n"
    "\n"
    "  --preset NAME      seed001: L = 1,4,8 (seed 001's plot); seed001-drain: L = 4, drain every 1\n"
    "                     and 2; seed000: L = 4, K = 1,2,4,6,8,12 (seed 000's batching). Options\n"
    "                     given with a preset override it.\n"
    "  --L LIST           stages each way, one curve each (1..1024, default 4)\n"
    "  --B LIST           buffer sizes, the x axis (1..4096, default 1..32)\n"
    "  --K LIST           return batch, one curve each (default 1; points with B < K are skipped)\n"
    "  --drain-every LIST consumer drains when cycle % N == 0, one curve each (1..1000000, default 1)\n"
    "  --cycles N         cycles per point (default 6000; throughput = sends in the second half / its length)\n"
    "  --rtl-grid LIST    B values also run on the RTL, for every curve (default: per curve, the\n"
    "                     smallest and largest B and the knee - 1, knee, knee + 1, where the knee is\n"
    "                     RTT + K - 1, divided by the drain period)\n"
    "  --no-rtl           the model alone\n"
    "  --out DIR          where sweep.csv and sweep.svg go (default build/sweep)\n"
    "  --force            overwrite sweep.csv and sweep.svg in --out\n"
    "  --jobs N           model runs, RTL builds and RTL runs in parallel (1..64, default 2)\n"
    "  --no-progress      no progress bar (it is drawn only when stderr is a terminal)\n"
    "\n"
    "A LIST is values and ranges separated by commas: 4, 1,4,8, 4..18, 1..8,12,16.\n"
    "Exit codes: 0 ok, 1 the RTL disagrees with the model (or a check fails), 2 bad input,\n"
    "3 a build or file problem.\n";

namespace {

constexpr int kDefaultMaxBuffer = 32;       // seed 001's plot: every buffer size from 1 to 32
constexpr size_t kMaxPoints = 20000;        // a typo guard, like kMaxBufferSlots
constexpr int kMaxDrainPeriod = 1000000;    // as `creditloop run`
constexpr int kMaxJobs = 64;
constexpr size_t kTableColumns = 16;        // B values per block of the text table

const char* const kOptions =
    "--preset, --L, --B, --K, --drain-every, --cycles, --rtl-grid, --no-rtl, --out, --force, --jobs, "
    "--no-progress";

// "4", "1,4,8", "4..18", "1..8,12" -> sorted, without repeats. One error line naming the option.
bool parse_list(const std::string& option, const std::string& text, int lo, int hi, std::vector<int>& out,
                std::string& error) {
    const std::string allowed = "allowed " + std::to_string(lo) + ".." + std::to_string(hi) +
                                " (a value, a list such as 1,2,4 or a range such as 4..18)";
    auto number = [&](const std::string& digits, long long& value) {
        if (digits.empty() || digits.size() > 9 ||
            !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return false;
        value = std::stoll(digits);
        return true;
    };
    std::set<int> values;
    std::stringstream items(text);
    std::string item;
    bool any = false;
    while (std::getline(items, item, ',')) {
        any = true;
        long long first = 0, last = 0;
        const auto dots = item.find("..");
        const bool range = dots != std::string::npos;
        if (!(range ? number(item.substr(0, dots), first) && number(item.substr(dots + 2), last)
                    : number(item, first))) {
            error = option + " " + text + " is not a list of whole numbers: " + allowed;
            return false;
        }
        if (!range) last = first;
        if (first > last) {
            error = option + " " + text + ": the range " + item + " runs backwards: " + allowed;
            return false;
        }
        if (first < lo || last > hi) {
            error = option + " " + text + " is out of range: " + allowed;
            return false;
        }
        if (values.size() + static_cast<size_t>(last - first + 1) > kMaxPoints) {
            error = option + " " + text + " has too many values: at most " + std::to_string(kMaxPoints);
            return false;
        }
        for (long long v = first; v <= last; ++v) values.insert(static_cast<int>(v));
    }
    if (!any || text.empty() || text.back() == ',') {
        error = option + " " + text + " is not a list of whole numbers: " + allowed;
        return false;
    }
    out.assign(values.begin(), values.end());
    return true;
}

std::vector<int> range_list(int first, int last) {
    std::vector<int> out;
    for (int v = first; v <= last; ++v) out.push_back(v);
    return out;
}

bool apply_preset(const std::string& name, SweepSpec& spec) {
    spec.preset = name;
    if (name == "seed001") {
        spec.stages = {1, 4, 8};
        spec.batches = {1};
        spec.drain_periods = {1};
    } else if (name == "seed001-drain") {
        spec.stages = {4};
        spec.batches = {1};
        spec.drain_periods = {1, 2};
    } else if (name == "seed000") {
        spec.stages = {seeds::kSeed000Stages};
        spec.batches = {1, 2, 4, 6, 8, 12};
        spec.drain_periods = {1};
    } else {
        return false;
    }
    spec.buffers = range_list(1, kDefaultMaxBuffer);
    return true;
}

