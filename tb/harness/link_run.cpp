#include "link_run.h"

#include "starvation.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "closed_forms.h"
#include "conservation.h"
#include "credit_loop_model.h"
#include "data_integrity.h"
#include "lockstep.h"
#include "log.h"
#include "ring_queue.h"
#include "sizing.h"

namespace creditloop {

std::string violation_line(const Violation& v) {
    std::ostringstream out;
    out << "cycle " << v.cycle << ": " << v.check << " " << v.signal << " expected " << v.expected << " got "
        << v.got;
    if (!v.detail.empty()) out << " (" << v.detail << ")";
    return out.str();
}

uint64_t minimum_cycles(const LinkConfig& config, const DrainSpec& drain) {
    const uint64_t loop = static_cast<uint64_t>(
        full_rate_buffer(round_trip_cycles(config), config.batch));
    const uint64_t period = drain.kind == DrainKind::every_nth ? static_cast<uint64_t>(drain.period) : 1;
    return 20 * loop * period;
}

std::optional<std::string> validate(const RunSpec& spec) {
    if (auto error = validate(spec.config)) return error;
    const DrainSpec& drain = spec.stimulus.drain;
    if (drain.kind == DrainKind::every_nth && (drain.period < 1 || drain.period > 1000000))
        return "--drain-every = " + std::to_string(drain.period) +
               " is out of range: allowed 1..1000000 (1 drains every cycle)";
    if (drain.kind == DrainKind::random_stalls &&
        !(drain.stall_probability >= 0.0 && drain.stall_probability < 1.0))
        return "--drain-stall = " + std::to_string(drain.stall_probability) +
               " is out of range: allowed 0 <= q < 1";
    // A replay is as long as its file: its verdict is the checks', not a steady state's.
    const uint64_t least = spec.stimulus.replay ? 1 : minimum_cycles(spec.config, drain);
    if (spec.cycles < least)
        return "--cycles = " + std::to_string(spec.cycles) + " is too few for the steady-state window: need at least " +
               std::to_string(least) + " (the second half must cover 10 round trips of RTT + K - 1 = " +
               std::to_string(full_rate_buffer(round_trip_cycles(spec.config), spec.config.batch)) +
               " cycles" + (drain.kind == DrainKind::every_nth && drain.period > 1 ? ", times the drain period" : "") + ")";
    if (spec.cycles > 100000000000ull)
        return "--cycles = " + std::to_string(spec.cycles) + " is out of range: allowed up to 100000000000";
    return std::nullopt;
}

namespace {

// One line per group of observed signals per cycle at debug level, each from the group's place
// in the loop ("link.sender: credits=3 can_send=1 ..."), as the observed-signal list groups them.
struct CycleLoggers {
    std::vector<std::shared_ptr<spdlog::logger>> groups;   // by SignalGroup

    CycleLoggers() {
        for (const SignalGroupInfo& group : kSignalGroups) groups.push_back(logger(group.path));
    }
    bool enabled() const { return groups.front()->should_log(spdlog::level::debug); }

    void log(const Observation& o) const {
        for (const SignalGroupInfo& group : kSignalGroups) {
            std::string line;
            for (const SignalInfo& s : kObservedSignals) {
                if (s.group != group.group) continue;
                line += (line.empty() ? "" : " ") + std::string(s.leaf) + "=" +
                        signal_value_text(s.signal, signal_value(o, s.signal));
            }
            groups[static_cast<size_t>(group.group)]->debug("{}", line);
        }
    }
};

// A sender's own FIFO as its ports show it (RunSpec::sender_fifo_latency): the flits the RTL took
// from the source, each with the first cycle it may leave. The model's source is its head, so
// the model decides, from its own credits, when each flit goes onto the link.
class SenderFifo {
public:
    explicit SenderFifo(int latency) : latency_(static_cast<uint64_t>(latency)) {}

    // This cycle's inputs for the model: the source's, but offering the FIFO's head once it may leave.
    const LinkInputs& offer(const LinkInputs& in, bool taken, uint64_t cycle) {
        if (taken) flits_.push_back({cycle + latency_, in.payload});
        inputs_ = in;
        inputs_.want_send = !flits_.empty() && flits_.front().leaves_from <= cycle;
        if (!flits_.empty()) inputs_.payload = flits_.front().payload;
        return inputs_;
    }
    // After the cycle: the head left if the model sent it; a reset of the sender end empties it.
    void update(bool sent, bool reset_tx) {
        if (sent && !flits_.empty()) flits_.pop_front();
        if (reset_tx) flits_.clear();
    }

private:
    struct Flit {
        uint64_t leaves_from;
        uint32_t payload;
    };
    uint64_t latency_;
    RingQueue<Flit> flits_;
    LinkInputs inputs_;
};

}  // namespace

RunResult run_link(LinkDut* dut, const RunSpec& spec, const RunOptions& options) {
    CreditLoopModel model(spec.config);
    Stimulus stimulus(spec.stimulus, spec.config.payload_bits);

    ConservationScoreboard conservation(spec.config);
    DataIntegrityScoreboard data(spec.config);
    SizingSpec sizing_spec;
    sizing_spec.config = spec.config;
    sizing_spec.total_cycles = spec.cycles;
    sizing_spec.declared_full_rate = spec.declared_full_rate;
    sizing_spec.drain_every_cycle = !spec.stimulus.replay && spec.stimulus.drain.kind == DrainKind::every_nth &&
                                    spec.stimulus.drain.period == 1;
    SizingScoreboard sizing(sizing_spec);
    LockstepScoreboard lockstep;
    lockstep.compare_only(spec.lockstep_signals);
    StarvationScoreboard starvation(spec.config);
    LinkCoverage coverage(spec.config);
    std::optional<SenderFifo> fifo;
    if (dut && spec.sender_fifo_latency >= 0) fifo.emplace(spec.sender_fifo_latency);
    std::optional<FaultInjector> injector;
    if (spec.faults.any()) injector.emplace(spec.faults, spec.config, spec.stimulus.seed);
    // Lockstep last: on a shared cycle, the checks that need no model say first what went wrong.
    std::vector<Scoreboard*> boards = {&conservation, &data, &sizing, &starvation};
    if (dut) boards.push_back(&lockstep);
    const std::vector<ViolationLog*> logs(boards.begin(), boards.end());

    auto log = logger("link");
    const CycleLoggers cycle_loggers;
    const bool log_cycles = cycle_loggers.enabled();
    // Each scoreboard's first violation is logged at the cycle it is found.
    std::vector<uint64_t> reported(boards.size(), 0);
    uint64_t reported_total = 0;
    for (RunHooks* hook : options.hooks) hook->pre_run(spec);

    Observation rtl_obs;
    std::memset(static_cast<void*>(&rtl_obs), 0, sizeof rtl_obs);   // padding too: lockstep compares the bytes first
    uint64_t model_window_sends = 0;
    uint64_t first_round_trip_sends = 0;
    const uint64_t round_trip = static_cast<uint64_t>(round_trip_cycles(spec.config));
    const uint64_t window_start = spec.cycles / 2;
    LinkInputs faulted;   // this cycle's inputs after the injected faults
    RunResult result;
    run_cycles(dut, spec.cycles, options, logs, result, [&](uint64_t cycle) {
        // By reference: a copy of the inputs just written would load them wider than they were
        // stored, a stalled store forward every cycle.
        const LinkInputs* inputs = &stimulus.next();
        if (injector) {
            faulted = *inputs;
            injector->apply(cycle, faulted);
            inputs = &faulted;
        }
        const LinkInputs& in = *inputs;
        // The RTL first, then the model: each reads the inputs (and lockstep, below, the model's
        // observation) long after they were written, so no load waits for a store in flight.
        if (dut) {
            dut->step(in, rtl_obs);
            rtl_obs.cycle = cycle;
        }
        // A sender's FIFO takes the source's flit when its ready says; the model sends from the FIFO.
        const bool taken = fifo && in.want_send && rtl_obs.can_send;
        const Observation& model_obs = model.evaluate(fifo ? fifo->offer(in, taken, cycle) : in);
        const Observation* checked = dut ? &rtl_obs : &model_obs;
        if (cycle >= window_start) model_window_sends += model_obs.send;
        if (cycle < round_trip) first_round_trip_sends += checked->send;
        // The four by name, not through the base class: the calls are direct (all are final).
        conservation.step(*checked);
        data.step(*checked);
        sizing.step(*checked);
        starvation.step(*checked);
        coverage.step(*checked);
        if (injector) injector->observe(*checked);
        if (dut) {
            lockstep.expect(model_obs);
            lockstep.step(*checked);
        }
        if (log_cycles) {
            set_log_cycle(cycle);
            cycle_loggers.log(*checked);
        }
        const uint64_t violations = conservation.violation_count() + data.violation_count() +
                                    sizing.violation_count() + starvation.violation_count() +
                                    lockstep.violation_count();
        for (size_t b = 0; violations != reported_total && b < boards.size(); ++b) {
            if (boards[b]->violation_count() != reported[b]) {
                reported[b] = boards[b]->violation_count();
                if (!boards[b]->violations().empty() && reported[b] <= boards[b]->violations().size()) {
                    set_log_cycle(cycle);
                    logger(std::string("scoreboard.") + boards[b]->name())
                        ->info("{}", violation_line(boards[b]->violations().back()));
                }
            }
        }
        reported_total = violations;
        for (RunHooks* hook : options.hooks) hook->on_cycle(*checked, model_obs);
        stimulus.accepted(fifo ? taken : checked->send);
        if (fifo) fifo->update(model_obs.send, in.reset_tx);
        model.update();
    }, [&](const std::string& error) { log->error("waves: {}", error); });
    set_log_cycle(std::nullopt);
    for (RunHooks* hook : options.hooks) hook->post_run();

    result.source = dut ? "rtl" : "model";
    result.window_start = window_start;
    result.window_cycles = sizing.window_cycles();
    result.window_sends = sizing.window_sends();
    result.mean_round_trip = sizing.mean_round_trip();
    result.window_messages = sizing.window_messages();
    result.messages_per_flit = sizing.messages_per_flit();
    result.throughput = sizing.measured_throughput();
    result.model_throughput = result.window_cycles ? static_cast<double>(model_window_sends) / result.window_cycles : 0.0;
    result.measured_round_trip = sizing.measured_round_trip();
    result.credits_net_change = conservation.net_change();
    result.first_round_trip_sends = first_round_trip_sends;
    result.last_round_trip_sends = sizing.sends_in_last_round_trip();
    if (injector) {
        result.faults = injector->injected();
        result.return_messages = injector->messages_seen();
    }
    result.longest_starvation = starvation.longest_starvation();
    result.starvation_bound = starvation_bound(spec.config);
    result.refused_injected = starvation.refused_injected();
    result.coverage = coverage.counts();
    result.closed_form_round_trip = round_trip_cycles(spec.config);
    result.full_rate_buffer = full_rate_buffer(result.closed_form_round_trip, spec.config.batch);
    result.predicted_throughput =
        std::min({drain_rate(spec.stimulus.drain), offered_rate(spec.stimulus.traffic),
                  batched_throughput_estimate(spec.config.buffer_slots, result.closed_form_round_trip,
                                              spec.config.batch)});
    settle_verdict(result, logs, "credit_link");
    return result;
}

}  // namespace creditloop
