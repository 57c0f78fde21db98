#include "stimulus.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace creditloop {

uint64_t stream_seed(uint64_t seed, uint64_t stream) {
    Rng mix(seed ^ (stream * 0xD6E8FEB86659FD93ull));
    return mix.next();
}

namespace {

uint32_t payload_of(uint64_t payload_seed, uint64_t index) {
    Rng mix(payload_seed + index * 0x9E3779B97F4A7C15ull);
    return static_cast<uint32_t>(mix.next() >> 32);
}

bool parse_double(const std::string& text, double& out) {
    if (text.empty()) return false;
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return end && *end == '\0';
}

bool parse_int(const std::string& text, int& out) {
    if (text.empty()) return false;
    char* end = nullptr;
    long v = std::strtol(text.c_str(), &end, 10);
    if (!end || *end != '\0' || v < -1000000000L || v > 1000000000L) return false;
    out = static_cast<int>(v);
    return true;
}

}  // namespace

std::string exact_number(double value) {
    char text[40];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(text, sizeof text, "%.*g", precision, value);
        if (std::strtod(text, nullptr) == value) break;
    }
    return text;
}

std::optional<TrafficSpec> parse_traffic(const std::string& text, std::string& error) {
    TrafficSpec spec;
    const std::string usage = "; allowed: saturate, bernoulli:P (0 < P <= 1), bursts:ON:OFF (mean cycles >= 1)";
    if (text == "saturate" || text == "saturating") return spec;
    if (text.rfind("bernoulli:", 0) == 0) {
        spec.kind = TrafficKind::bernoulli;
        if (!parse_double(text.substr(10), spec.rate) || !(spec.rate > 0.0 && spec.rate <= 1.0)) {
            error = "--traffic " + text + ": the rate P is out of range" + usage;
            return std::nullopt;
        }
        return spec;
    }
    if (text.rfind("bursts:", 0) == 0) {
        spec.kind = TrafficKind::bursts;
        const std::string rest = text.substr(7);
        const auto colon = rest.find(':');
        if (colon == std::string::npos || !parse_int(rest.substr(0, colon), spec.mean_on) ||
            !parse_int(rest.substr(colon + 1), spec.mean_off) || spec.mean_on < 1 || spec.mean_off < 1) {
            error = "--traffic " + text + ": burst lengths must be whole numbers >= 1" + usage;
            return std::nullopt;
        }
        return spec;
    }
    error = "--traffic " + text + " is not a traffic pattern" + usage;
    return std::nullopt;
}

std::string describe(const TrafficSpec& t) {
    std::ostringstream out;
    switch (t.kind) {
        case TrafficKind::saturating: out << "saturate"; break;
        case TrafficKind::bernoulli: out << "bernoulli:" << exact_number(t.rate); break;
        case TrafficKind::bursts: out << "bursts:" << t.mean_on << ":" << t.mean_off; break;
    }
    return out.str();
}

std::string describe(const DrainSpec& d) {
    std::ostringstream out;
    if (d.kind == DrainKind::every_nth) out << "every " << d.period;
    else out << "stall " << exact_number(d.stall_probability);
    return out.str();
}

double offered_rate(const TrafficSpec& t) {
    switch (t.kind) {
        case TrafficKind::saturating: return 1.0;
        case TrafficKind::bernoulli: return t.rate;
        case TrafficKind::bursts:
            return static_cast<double>(t.mean_on) / (t.mean_on + t.mean_off);
    }
    return 1.0;
}

double drain_rate(const DrainSpec& d) {
    return d.kind == DrainKind::every_nth ? 1.0 / d.period : 1.0 - d.stall_probability;
}

Stimulus::Stimulus(const StimulusSpec& spec, int payload_bits)
    : spec_(spec),
      payload_mask_(payload_bits >= 32 ? 0xFFFFFFFFu : ((1u << payload_bits) - 1u)),
      traffic_rng_(stream_seed(spec.seed, 1)),
      drain_rng_(stream_seed(spec.seed, 2)),
      flush_rng_(stream_seed(spec.seed, 4)),
      reverse_rng_(stream_seed(spec.seed, 5)),
      payload_seed_(stream_seed(spec.seed, 3)) {}

void Stimulus::generate_arrival() {
    switch (spec_.traffic.kind) {
        case TrafficKind::saturating:
            backlog_ = 1;   // a flit is always waiting
            break;
        case TrafficKind::bernoulli:
            if (traffic_rng_.chance(spec_.traffic.rate)) ++backlog_;
            break;
        case TrafficKind::bursts: {
            // Two-state Markov source: on periods with a flit every cycle, off periods idle;
            // the mean lengths are mean_on and mean_off cycles.
            if (burst_on_) ++backlog_;
            const double leave = 1.0 / (burst_on_ ? spec_.traffic.mean_on : spec_.traffic.mean_off);
            if (traffic_rng_.chance(leave)) burst_on_ = !burst_on_;
            break;
        }
    }
}

const LinkInputs& Stimulus::next() {
    if (spec_.replay) {
        inputs_ = cycle_ < spec_.replay->size() ? (*spec_.replay)[cycle_] : LinkInputs{};
        ++cycle_;
        return inputs_;
    }
    // The resets first: the model copies the two together in one wider load, which has to wait
    // for these stores unless they have retired by then.
    const bool periodic = spec_.reset_every != 0 && (cycle_ + 1) % spec_.reset_every == 0;
    inputs_.reset_tx = periodic || spec_.reset_tx_at == cycle_;
    inputs_.reset_rx = periodic || spec_.reset_rx_at == cycle_;
    generate_arrival();
    inputs_.want_send = backlog_ > 0;
    inputs_.payload = payload_of(payload_seed_, flits_accepted_) & payload_mask_;
    if (spec_.drain.kind == DrainKind::every_nth) {
        // cycle % period == 0, without a division per cycle.
        inputs_.drain = drain_phase_ == 0;
        if (++drain_phase_ == static_cast<uint64_t>(spec_.drain.period)) drain_phase_ = 0;
    } else {
        inputs_.drain = !drain_rng_.chance(spec_.drain.stall_probability);
    }
    inputs_.flush = spec_.flush_probability > 0.0 && flush_rng_.chance(spec_.flush_probability);
    inputs_.return_busy = spec_.reverse_load > 0.0 && reverse_rng_.chance(spec_.reverse_load);
    ++cycle_;
    return inputs_;
}

void Stimulus::accepted(bool sent) {
    if (!sent || spec_.replay) return;
    ++flits_accepted_;
    if (spec_.traffic.kind != TrafficKind::saturating) --backlog_;
}

}  // namespace creditloop

