#include "report.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace creditloop {

std::string describe(const RunSpec& spec) {
    std::ostringstream out;
    out << spec.config.key() << ", " << describe(spec.stimulus.traffic) << ", drain "
        << describe(spec.stimulus.drain);
    if (spec.stimulus.flush_probability > 0.0) out << ", flush " << exact_number(spec.stimulus.flush_probability);
    if (spec.stimulus.reverse_load > 0.0) out << ", reverse load " << exact_number(spec.stimulus.reverse_load);
    if (spec.stimulus.reset_every) out << ", reset every " << spec.stimulus.reset_every;
    if (spec.stimulus.reset_tx_at) out << ", sender reset at " << *spec.stimulus.reset_tx_at;
    if (spec.stimulus.reset_rx_at) out << ", receiver reset at " << *spec.stimulus.reset_rx_at;
    out << ", " << spec.cycles << " cycles, seed " << spec.stimulus.seed;
    if (spec.declared_full_rate) out << ", declared full rate";
    return out.str();
}

std::string violation_line(const Violation& v) {
    std::ostringstream out;
    out << "cycle " << v.cycle << ": " << v.check << " " << v.signal << " expected " << v.expected << " got "
        << v.got;
    if (!v.detail.empty()) out << " (" << v.detail << ")";
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
    out << ", closed form 2L + 2" << (spec.config.sync_stages ? " + SYNC" : "")
        << (spec.config.free_delay ? " + FREE_DELAY" : "") << " = " << r.closed_form_round_trip << "; full rate needs B >= RTT + K - 1 = "
        << r.full_rate_buffer << " (B = " << spec.config.buffer_slots << ")\n";
    if (r.credits_net_change != 0) {
        const uint64_t n = static_cast<uint64_t>(r.credits_net_change < 0 ? -r.credits_net_change : r.credits_net_change);
        out << "  credits      " << n << " of " << spec.config.buffer_slots << (r.credits_net_change < 0 ? " leaked" : " created")
            << " by the end; sends per " << r.closed_form_round_trip << "-cycle round trip: " << r.first_round_trip_sends
            << " in the first, " << r.last_round_trip_sends << " in the last\n";
    }
    for (const auto& board : r.scoreboards) out << "  " << board.summary << "\n";
    if (r.rtl_assertion_cycle)
        out << "  RTL assertion failed at cycle " << *r.rtl_assertion_cycle << " (Verilator's %Error line above names it)\n";
    if (!r.violations.empty()) {
        out << "  first violation (the one that matters): " << violation_line(r.violations.front()) << "\n";
        const size_t shown = std::min<size_t>(r.violations.size(), 10);
        for (size_t i = 1; i < shown; ++i) out << "    then " << violation_line(r.violations[i]) << "\n";
        if (r.violation_count > shown) out << "    ... " << r.violation_count - shown << " more\n";
    }
    out << (r.passed ? "PASSED" : "FAILED") << "\n";
    return out.str();
}

std::string json_escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    return out;
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

namespace {
std::string json_number(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}
std::string quoted(const std::string& text) { return "\"" + json_escape(text) + "\""; }
}  // namespace

std::string run_json(const RunSpec& spec, const RunResult& r) {
    std::ostringstream out;
    const LinkConfig& c = spec.config;
    out << "{";
    out << "\"source\": " << quoted(r.source);
    out << ", \"config\": {\"L\": " << c.stages << ", \"B\": " << c.buffer_slots << ", \"K\": " << c.batch
        << ", \"W\": " << c.payload_bits << ", \"SYNC\": " << c.sync_stages << ", \"FREE_DELAY\": " << c.free_delay
        << ", \"POLICY\": " << quoted(policy_name(c.policy)) << ", \"LOW\": " << c.low_credits << ", \"IDLE\": " << c.idle_cycles
        << ", \"TIMEOUT\": " << c.flush_timeout << "}";
    out << ", \"reverse_load\": " << json_number(spec.stimulus.reverse_load);
    out << ", \"traffic\": " << quoted(describe(spec.stimulus.traffic));
    out << ", \"drain\": " << quoted(describe(spec.stimulus.drain));
    out << ", \"flush_probability\": " << json_number(spec.stimulus.flush_probability);
    out << ", \"seed\": " << spec.stimulus.seed;
    out << ", \"cycles\": " << r.cycles;
    out << ", \"declared_full_rate\": " << (spec.declared_full_rate ? "true" : "false");
    out << ", \"throughput\": " << json_number(r.throughput);
    out << ", \"throughput_3dp\": " << quoted(three_decimals(r.throughput));
    out << ", \"model_throughput\": " << json_number(r.model_throughput);
    out << ", \"window\": {\"start\": " << r.window_start << ", \"cycles\": " << r.window_cycles
        << ", \"sends\": " << r.window_sends << "}";
    out << ", \"rtt\": ";
    if (r.measured_round_trip) out << *r.measured_round_trip;
    else out << "null";
    out << ", \"rtt_closed_form\": " << r.closed_form_round_trip;
    out << ", \"full_rate_buffer\": " << r.full_rate_buffer;
    out << ", \"predicted_throughput\": " << json_number(r.predicted_throughput);
    out << ", \"mean_round_trip\": " << json_number(r.mean_round_trip);
    out << ", \"credit_messages\": " << r.window_messages << ", \"messages_per_flit\": " << json_number(r.messages_per_flit);
    out << ", \"passed\": " << (r.passed ? "true" : "false");
    out << ", \"first_violation_cycle\": ";
    if (r.first_violation_cycle) out << *r.first_violation_cycle;
    else out << "null";
    out << ", \"violation_count\": " << r.violation_count;
    out << ", \"credits_net_change\": " << r.credits_net_change;
    out << ", \"first_round_trip_sends\": " << r.first_round_trip_sends;
    out << ", \"last_round_trip_sends\": " << r.last_round_trip_sends;
    out << ", \"rtl_assertion_cycle\": ";
    if (r.rtl_assertion_cycle) out << *r.rtl_assertion_cycle;
    else out << "null";
    out << ", \"violations\": [";
    for (size_t i = 0; i < r.violations.size(); ++i) {
        const Violation& v = r.violations[i];
        out << (i ? ", " : "") << "{\"cycle\": " << v.cycle << ", \"check\": " << quoted(v.check)
            << ", \"signal\": " << quoted(v.signal) << ", \"expected\": " << quoted(v.expected)
            << ", \"got\": " << quoted(v.got) << ", \"detail\": " << quoted(v.detail) << "}";
    }
    out << "]";
    out << ", \"scoreboards\": [";
    for (size_t i = 0; i < r.scoreboards.size(); ++i) {
        const auto& b = r.scoreboards[i];
        out << (i ? ", " : "") << "{\"name\": " << quoted(b.name) << ", \"cycles_checked\": " << b.cycles_checked
            << ", \"violations\": " << b.violations << "}";
    }
    out << "]}";
    return out.str();
}

}  // namespace creditloop
