#include "report.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "closed_forms.h"

namespace creditloop {

std::string describe(const RunSpec& spec) {
    std::ostringstream out;
    out << spec.config.key();
    if (spec.stimulus.replay)
        out << ", the inputs of " << spec.stimulus.replay_file;
    else
        out << ", " << describe(spec.stimulus.traffic) << ", drain " << describe(spec.stimulus.drain);
    if (spec.stimulus.flush_probability > 0.0) out << ", flush " << exact_number(spec.stimulus.flush_probability);
    if (spec.stimulus.reverse_load > 0.0) out << ", reverse load " << exact_number(spec.stimulus.reverse_load);
    if (spec.stimulus.reset_every) out << ", reset every " << spec.stimulus.reset_every;
    if (spec.stimulus.reset_tx_at) out << ", sender reset at " << *spec.stimulus.reset_tx_at;
    if (spec.stimulus.reset_rx_at) out << ", receiver reset at " << *spec.stimulus.reset_rx_at;
    out << ", " << spec.cycles << " cycles";
    if (!spec.stimulus.replay) out << ", seed " << spec.stimulus.seed;
    if (spec.declared_full_rate) out << ", declared full rate";
    if (spec.faults.any()) out << ", faults: " << describe(spec.faults);
    return out.str();
}

std::string run_summary(const RunSpec& spec, const RunResult& r) {
    std::ostringstream out;
    out << "creditloop run: " << describe(spec) << " (" << r.source << ")\n";
    out << "  throughput   " << three_decimals(r.throughput) << " flits/cycle (" << r.window_sends << " sends in cycles "
        << r.window_start << ".." << r.window_start + r.window_cycles - 1 << ")";
    if (r.source == "rtl") out << ", model " << three_decimals(r.model_throughput);
    out << "\n  predicted    " << three_decimals(r.predicted_throughput)
        << " = min(1, drain, offered, B / (RTT + K - 1))\n";
    out << "  returns      " << three_decimals(r.messages_per_flit) << " credit messages per flit (" << r.window_messages
        << " messages), policy " << (spec.config.policy == ReturnPolicy::hybrid ? "hybrid" : spec.config.batch == 1 ? "each" : "batch")
        << (spec.stimulus.reverse_load > 0 ? ", reverse load " + exact_number(spec.stimulus.reverse_load) : std::string()) << "\n";
    out << "  round trip   ";
    if (r.measured_round_trip)
        out << *r.measured_round_trip << " cycles measured (mean " << three_decimals(r.mean_round_trip) << ")";
    else out << "not measured (no credit came back)";
    out << ", closed form " << round_trip_form(spec.config) << " = " << r.closed_form_round_trip << "; full rate needs B >= RTT + K - 1 = "
        << r.full_rate_buffer << " (B = " << spec.config.buffer_slots << ")\n";
    if (r.credits_net_change != 0) {
        const uint64_t n = static_cast<uint64_t>(r.credits_net_change < 0 ? -r.credits_net_change : r.credits_net_change);
        out << "  credits      " << n << " of " << spec.config.buffer_slots << (r.credits_net_change < 0 ? " leaked" : " created")
            << " by the end; sends per " << r.closed_form_round_trip << "-cycle round trip: " << r.first_round_trip_sends
            << " in the first, " << r.last_round_trip_sends << " in the last\n";
    }
    if (spec.config.recovery || spec.faults.any()) {
        out << "  faults       " << r.faults.size() << " injected of " << r.return_messages << " credit messages ("
            << describe(spec.faults) << ")";
        if (!r.faults.empty()) {
            const InjectedFault& f = r.faults.front();
            out << "; first at cycle " << f.cycle << ": " << (f.drop ? "dropped" : "corrupted (+" + std::to_string(f.add) + ")")
                << ", carrying " << counted(f.credits, "credit");
        }
        out << "\n  starvation   longest " << r.longest_starvation << " cycles at 0 credits with nothing on the way (bound "
            << r.starvation_bound << ")" << (spec.config.recovery ? ", recovery on" : ", recovery off");
        if (r.refused_injected) out << ", " << r.refused_injected << " corrupted updates refused";
        out << "\n";
    }
    for (const auto& board : r.scoreboards) out << "  " << board.summary << "\n";
    if (r.rtl_assertion_cycle)
        out << "  RTL assertion failed at cycle " << *r.rtl_assertion_cycle << ": "
            << (r.rtl_assertion.where.empty() ? "Verilator's %Error line above names it" : design_assertion(r.rtl_assertion)) << "\n";
    if (!r.violations.empty()) {
        out << "  first violation (the one that matters): " << violation_line(r.violations.front()) << "\n";
        const size_t shown = std::min<size_t>(r.violations.size(), 10);
        for (size_t i = 1; i < shown; ++i) out << "    then " << violation_line(r.violations[i]) << "\n";
        if (r.violation_count > shown) out << "    ... " << r.violation_count - shown << " more\n";
    }
    out << (r.passed ? "PASSED" : "FAILED") << "\n";
    return out.str();
}

std::string xml_escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default: out += c;
        }
    }
    return out;
}

double json_rounded(double value) {
    // Ten significant digits, as the JSON has always carried them: a reader that compares runs
    // is not thrown by the last bits of a division.
    return std::strtod(fmt::format("{:.10g}", value).c_str(), nullptr);
}

nlohmann::ordered_json run_json_value(const RunSpec& spec, const RunResult& r) {
    using nlohmann::ordered_json;
    const LinkConfig& c = spec.config;
    const auto optional = [](const std::optional<uint64_t>& value) {
        return value ? ordered_json(*value) : ordered_json(nullptr);
    };
    ordered_json out;
    out["source"] = r.source;
    out["config"] = {{"L", c.stages},          {"B", c.buffer_slots},          {"K", c.batch},
                     {"W", c.payload_bits},    {"SYNC", c.sync_stages},        {"FREE_DELAY", c.free_delay},
                     {"POLICY", policy_name(c.policy)}, {"LOW", c.low_credits}, {"IDLE", c.idle_cycles},
                     {"TIMEOUT", c.flush_timeout}, {"RECOVERY", c.recovery},
                     {"TOTAL_BITS", c.total_bits},      {"RESEND", c.resend_period}};
    out["faults"] = describe(spec.faults);
    out["reverse_load"] = json_rounded(spec.stimulus.reverse_load);
    out["traffic"] = describe(spec.stimulus.traffic);
    out["drain"] = describe(spec.stimulus.drain);
    out["flush_probability"] = json_rounded(spec.stimulus.flush_probability);
    out["seed"] = spec.stimulus.seed;
    out["cycles"] = r.cycles;
    out["declared_full_rate"] = spec.declared_full_rate;
    out["throughput"] = json_rounded(r.throughput);
    out["throughput_3dp"] = three_decimals(r.throughput);
    out["model_throughput"] = json_rounded(r.model_throughput);
    out["window"] = {{"start", r.window_start}, {"cycles", r.window_cycles}, {"sends", r.window_sends}};
    out["rtt"] = optional(r.measured_round_trip);
    out["rtt_closed_form"] = r.closed_form_round_trip;
    out["full_rate_buffer"] = r.full_rate_buffer;
    out["predicted_throughput"] = json_rounded(r.predicted_throughput);
    out["mean_round_trip"] = json_rounded(r.mean_round_trip);
    out["credit_messages"] = r.window_messages;
    out["messages_per_flit"] = json_rounded(r.messages_per_flit);
    out["passed"] = r.passed;
    out["first_violation_cycle"] = optional(r.first_violation_cycle);
    out["violation_count"] = r.violation_count;
    out["credits_net_change"] = r.credits_net_change;
    out["first_round_trip_sends"] = r.first_round_trip_sends;
    out["last_round_trip_sends"] = r.last_round_trip_sends;
    out["rtl_assertion_cycle"] = optional(r.rtl_assertion_cycle);
    out["injected_faults"] = ordered_json::array();
    for (const InjectedFault& f : r.faults)
        out["injected_faults"].push_back({{"cycle", f.cycle}, {"kind", f.drop ? "drop" : "corrupt"}, {"add", f.add},
                                          {"credits", f.credits}, {"sent", f.sent}});
    out["return_messages"] = r.return_messages;
    out["longest_starvation"] = r.longest_starvation;
    out["starvation_bound"] = r.starvation_bound;
    out["violations"] = ordered_json::array();
    for (const Violation& v : r.violations)
        out["violations"].push_back({{"cycle", v.cycle}, {"check", v.check}, {"signal", v.signal},
                                     {"expected", v.expected}, {"got", v.got}, {"detail", v.detail}});
    out["scoreboards"] = ordered_json::array();
    for (const auto& b : r.scoreboards)
        out["scoreboards"].push_back({{"name", b.name}, {"cycles_checked", b.cycles_checked}, {"violations", b.violations}});
    return out;
}

std::string run_json(const RunSpec& spec, const RunResult& result) { return run_json_value(spec, result).dump(); }

}  // namespace creditloop
