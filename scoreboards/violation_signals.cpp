#include "violation_signals.h"

#include <algorithm>
#include <string_view>

namespace creditloop {

namespace {

// The signals a family of checks watches, beside the violation's own.
std::vector<Signal> family_signals(std::string_view check) {
    const std::string_view family = check.substr(0, check.find('.'));
    if (family == "conservation") {
        std::vector<Signal> terms;
        for (const SignalInfo& s : kObservedSignals)
            if (s.term) terms.push_back(s.signal);
        return terms;
    }
    if (family == "data") return {Signal::pop, Signal::pop_payload, Signal::send, Signal::send_payload};
    if (family == "sizing") return {Signal::send, Signal::credits, Signal::credits_arriving};
    return {};
}

}  // namespace

std::vector<Signal> violation_signals(const Violation& violation) {
    std::vector<Signal> signals = {Signal::credit_total};
    auto add = [&signals](Signal signal) {
        if (std::find(signals.begin(), signals.end(), signal) == signals.end()) signals.push_back(signal);
    };
    if (const auto own = lookup_signal(violation.signal)) add(*own);
    for (Signal signal : family_signals(violation.check)) add(signal);
    return signals;
}

}  // namespace creditloop
