#include "sweep_plan.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "closed_forms.h"
#include "scoreboard.h"
#include "seed_tables.h"
#include "sweep_detail.h"


namespace creditloop {


namespace sweep_detail {


int curve_round_trip(const SweepCurve& curve) {
    return round_trip_cycles(curve.stages, curve.sync_stages) + curve.free_delay;
}

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

std::optional<uint64_t> parse_count(const std::string& text) {
    if (text.empty() || text.size() > 12 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return std::stoull(text);
}

// "1..32", or "1,2,4,6" (shortened when long): the swept values, for messages.
std::string describe_values(const std::vector<int>& values) {
    if (values.empty()) return "none";
    if (values.size() > 1 && values.back() - values.front() + 1 == static_cast<int>(values.size()))
        return std::to_string(values.front()) + ".." + std::to_string(values.back());
    std::string out;
    for (size_t i = 0; i < values.size() && i < 12; ++i) out += (i ? "," : "") + std::to_string(values[i]);
    if (values.size() > 12) out += ",...," + std::to_string(values.back());
    return out;
}

std::string point_name(const SweepCurve& curve, int buffer) {
    return "L=" + std::to_string(curve.stages) + " B=" + std::to_string(buffer) + " K=" +
           std::to_string(curve.batch) + " drain every " + std::to_string(curve.drain_every);
}

std::string fixed6(double value) { return fmt::format("{:.6f}", value); }



}  // namespace sweep_detail

using namespace sweep_detail;

std::string SweepPoint::problem() const {
    if (!model_passed) return "the golden model's own run failed a check: " + model_first_violation;
    if (!rtl_checked) return "";
    if (rtl_sends != model_sends)
        return "the RTL gives " + three_decimals(rtl_throughput) + " (" + std::to_string(rtl_sends) +
               " sends in the window) but the model gives " + three_decimals(model_throughput) + " (" +
               std::to_string(model_sends) + " sends)";
    if (!rtl_passed)
        return "the RTL run failed a check" + (rtl_first_violation.empty() ? std::string() : ": " + rtl_first_violation);
    return "";
}

std::vector<int> default_rtl_grid(const SweepCurve& curve, const std::vector<int>& buffers) {
    std::vector<int> swept;
    for (int b : buffers)
        if (b >= curve.batch) swept.push_back(b);
    if (swept.empty()) return {};
    const int loop = full_rate_buffer(curve_round_trip(curve), curve.batch);
    const int knee = (loop + curve.drain_every - 1) / curve.drain_every;
    std::set<int> wanted = {swept.front(), knee - 1, knee, knee + 1, swept.back()};
    std::vector<int> grid;
    for (int b : swept)
        if (wanted.count(b)) grid.push_back(b);
    return grid;
}

std::string plan_sweep(const SweepSpec& spec, SweepResult& plan) {
    plan = SweepResult{};
    std::vector<int> buffers = spec.buffers.empty() ? range_list(1, kDefaultMaxBuffer) : spec.buffers;
    std::sort(buffers.begin(), buffers.end());
    buffers.erase(std::unique(buffers.begin(), buffers.end()), buffers.end());
    for (int k : spec.batches)
        if (k > buffers.back())
            return "--K " + std::to_string(k) + " is larger than every swept B (the largest is " +
                   std::to_string(buffers.back()) + "): allowed K <= B";
    if (spec.rtl_grid)
        for (int b : *spec.rtl_grid)
            if (!std::binary_search(buffers.begin(), buffers.end(), b))
                return "--rtl-grid " + std::to_string(b) + " is not a swept B value: allowed values of --B (" +
                       describe_values(buffers) + ")";
    const size_t curves = spec.stages.size() * spec.batches.size() * spec.drain_periods.size();
    if (curves * buffers.size() > kMaxPoints)
        return "--L, --K, --drain-every and --B give " + std::to_string(curves * buffers.size()) +
               " points: allowed up to " + std::to_string(kMaxPoints) + " per sweep";

    const bool label_batch = spec.batches.size() > 1 || spec.batches.front() != 1;
    const bool label_drain = spec.drain_periods.size() > 1 || spec.drain_periods.front() != 1;
    for (int stages : spec.stages)
        for (int batch : spec.batches)
            for (int period : spec.drain_periods) {
                SweepCurve curve;
                curve.stages = stages;
                curve.batch = batch;
                curve.drain_every = period;
                curve.sync_stages = spec.sync_stages;
                curve.free_delay = spec.free_delay;
                curve.label = "L=" + std::to_string(stages);
                if (label_batch) curve.label += " K=" + std::to_string(batch);
                if (label_drain) curve.label += " drain every " + std::to_string(period);
                const size_t index = plan.curves.size();
                plan.curves.push_back(curve);

                const std::vector<int> grid =
                    !spec.rtl ? std::vector<int>{} : spec.rtl_grid ? *spec.rtl_grid : default_rtl_grid(curve, buffers);
                for (int b : buffers) {
                    if (b < batch) continue;   // K > B is no link: the receiver could never fill a batch
                    SweepPoint point;
                    point.curve = index;
                    point.buffer = b;
                    point.spec.config.stages = stages;
                    point.spec.config.buffer_slots = b;
                    point.spec.config.batch = batch;
                    point.spec.config.payload_bits = 32;
                    point.spec.config.sync_stages = spec.sync_stages;
                    point.spec.config.free_delay = spec.free_delay;
                    point.spec.cycles = spec.cycles;
                    point.spec.stimulus.drain.kind = DrainKind::every_nth;
                    point.spec.stimulus.drain.period = period;
                    point.spec.stimulus.seed = 1;
                    if (auto problem = validate(point.spec)) return *problem;
                    point.rtl_planned = std::find(grid.begin(), grid.end(), b) != grid.end();
                    plan.points.push_back(point);
                }
            }
    return "";
}

}  // namespace creditloop
