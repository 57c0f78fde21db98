#include "faults_command.h"

#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli_parse.h"
#include "closed_forms.h"
#include "dut_library.h"
#include "progress.h"

namespace creditloop {

namespace {

// Records the cycles a message with credits in it reached the sender whole.
class DeliveryHook final : public RunHooks {
public:
    std::vector<uint64_t> delivered;
    void on_cycle(const Observation& o, const Observation&) override {
        if (o.credits_arriving != 0 && !o.fault_drop) delivered.push_back(o.cycle);
    }
};

}  // namespace

RunResult run_with_tally(LinkDut* dut, const RunSpec& spec, RecoveryTally& tally) {
    DeliveryHook hook;
    RunOptions options;
    options.hooks.push_back(&hook);
    RunResult r = run_link(dut, spec, options);
    // An outage opens when a message carrying credits is dropped (a dropped resend that told
    // nothing new costs nothing), takes in every message dropped until one with credits is
    // delivered, and closes then. With recovery that delivery carries every credit the lost
    // ones did: the messages go at least every T cycles, so an outage of n lost messages lasts
    // at most n x T.
    size_t next = 0;
    for (size_t i = 0; i < r.faults.size(); ++i) {
        const InjectedFault& f = r.faults[i];
        if (!f.drop) continue;
        tally.credits_dropped += f.credits;
        if (f.credits == 0 || !spec.config.recovery) continue;
        uint64_t lost = 1;
        size_t j = i + 1;
        while (next < hook.delivered.size() && hook.delivered[next] <= f.cycle) ++next;
        const std::optional<uint64_t> end =
            next < hook.delivered.size() ? std::optional<uint64_t>(hook.delivered[next]) : std::nullopt;
        for (; j < r.faults.size() && (!end || r.faults[j].cycle < *end); ++j) {
            if (!r.faults[j].drop) continue;
            ++lost;
            tally.credits_dropped += r.faults[j].credits;
        }
        if (!end) break;   // the run ended inside it
        const uint64_t took = *end - f.cycle;
        ++tally.outages;
        tally.longest = std::max(tally.longest, took);
        tally.longest_chain = std::max(tally.longest_chain, lost);
        tally.within_bound = tally.within_bound && took <= lost * static_cast<uint64_t>(spec.config.resend_period);
        i = j - 1;
    }
    return r;
}

std::optional<FaultsCommand> parse_faults(const std::vector<std::string>& args, ParseError& error) {
    FaultsCommand cmd;
    CLI::App app{"Credit messages lost on the return path (seed 003): throughput and recovery against the drop rate "
                 "and the update period T, with recovery (cumulative updates) and without, each row against its "
                 "closed form.",
                 "creditloop faults"};
    app.add_option("--drop", cmd.rates, "drop rates")->check(probability("P", false))->take_all();
    app.add_option("--resend", cmd.periods, "update periods T")->check(whole_number(1, kMaxResendPeriod))->take_all();
    add_link_options(app, cmd.stages, cmd.slots);   // K = 1: a lost message loses one credit
    app.add_option("--cycles", cmd.cycles, "cycles per run")->check(whole_number(1000, 100000000))->capture_default_str();
    app.add_option("--seed", cmd.seed, "stimulus and fault seed")->check(whole_number(0, 0x7FFFFFFF))->capture_default_str();
    app.add_option("--traffic", cmd.traffic, "the source (bursts leave the return path quiet between them)")->capture_default_str();
    add_flag(app, "--model", cmd.model_only, "the golden model alone (no RTL)");
    if (!parse_command(app, args, error)) return std::nullopt;
    std::string message;
    const auto pattern = parse_traffic(cmd.traffic, message);
    if (!pattern) {
        error.message = "--traffic " + cmd.traffic + ": " + message;
        return std::nullopt;
    }
    cmd.pattern = *pattern;
    return cmd;
}

int run_faults(const std::vector<std::string>& args) {
    ParseError error;
    const auto cmd = parse_faults(args, error);
    if (!cmd) return parse_failed(error);
    const std::vector<double>& rates = cmd->rates;
    const std::vector<int>& periods = cmd->periods;
    const int stages = cmd->stages, slots = cmd->slots;
    const uint64_t cycles = cmd->cycles, seed = cmd->seed;
    const std::string& traffic = cmd->traffic;
    const bool model_only = cmd->model_only;
    const auto& pattern = cmd->pattern;

    struct Row {
        double rate;
        int period;          // 0: recovery off
        RunSpec spec;
        RunResult result;
        RecoveryTally tally;
        double fault_free = 0.0;
        bool meets = false;
    };
    std::vector<Row> rows;
    const auto make = [&](double rate, int period) {
        RunSpec spec;
        spec.config = LinkConfig{stages, slots, 1, 32};
        spec.config.recovery = period > 0;
        if (period > 0) {
            spec.config.resend_period = period;
            spec.config.total_bits = 1;
            while ((1 << spec.config.total_bits) <= 2 * slots) ++spec.config.total_bits;
        }
        spec.cycles = cycles;
        spec.stimulus.seed = seed;
        spec.stimulus.traffic = pattern;
        spec.faults.drop_probability = rate;
        return Row{rate, period, spec, {}, {}};
    };
    for (double rate : rates) rows.push_back(make(rate, 0));
    for (int period : periods)
        for (double rate : rates) rows.push_back(make(rate, period));

    const DutSources sources = DutSources::from_environment();
    Progress progress("creditloop faults", stderr);   // the table alone on stdout
    if (!model_only) {
        std::vector<LinkConfig> configs;
        for (const auto& row : rows)
            if (std::find(configs.begin(), configs.end(), row.spec.config) == configs.end()) configs.push_back(row.spec.config);
        progress.phase("verilated configurations");
        const auto errors = build_duts(configs, sources, 2, [&](const std::string& s) { progress.status(s); });
        if (!errors.empty()) {
            progress.finish();
            for (const auto& e : errors) std::cerr << "creditloop faults: " << e << "\n";
            return 3;
        }
    }
    progress.phase("runs", rows.size());
    bool all = true;
    for (auto& row : rows) {
        std::unique_ptr<DutLibrary> library;
        std::unique_ptr<LinkDut> dut;
        if (!model_only) {
            std::string e;
            library = DutLibrary::load(row.spec.config, sources, e);
            if (!library) {
                progress.finish();
                std::cerr << "creditloop faults: " << e << "\n";
                return 3;
            }
            dut = library->create();
        }
        row.result = run_with_tally(dut.get(), row.spec, row.tally);
        RunSpec clean = row.spec;
        clean.faults = FaultSpec{};
        RecoveryTally none;
        row.fault_free = run_with_tally(nullptr, clean, none).throughput;
        const bool dropped = !row.result.faults.empty();
        if (row.period > 0) {
            // Recovery: every outage ends within T per message lost, nothing is ever lost for
            // good, every check passes.
            row.meets = row.tally.within_bound && row.result.passed;
        } else {
            // No recovery: every credit a dropped message carried is gone for good (the loop ends
            // B minus them short), and the run is caught; with nothing dropped it passes.
            row.meets = dropped ? (row.result.credits_net_change == -static_cast<int64_t>(row.tally.credits_dropped) &&
                                   !row.result.passed)
                                : row.result.passed;
        }
        all = all && row.meets;
        progress.advance();
    }
    progress.finish();

    const int rtt = round_trip_cycles(stages);
    std::cout << "Lost credit messages (seed 003): L = " << stages << ", B = " << slots << ", K = 1 (RTT " << rtt
              << "), traffic " << traffic << ", " << cycles << " cycles, seed " << seed << ", "
              << (model_only ? "golden model" : "RTL in lockstep with the model")
              << ". Throughput over the second half; an outage runs from a lost message to the next update delivered.\n\n"
              << "| recovery | T | drop rate | messages | dropped | throughput | fault-free | longest outage | closed form "
                 "| longest starvation | meets | checks |\n"
              << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& row : rows) {
        const RunResult& r = row.result;
        std::string outage = "-", form;
        if (row.period > 0) {
            if (row.tally.outages) outage = fmt::format("{} (up to {} lost in a row)", row.tally.longest, row.tally.longest_chain);
            form = fmt::format("<= T x lost in a row = {}", row.tally.longest_chain ? row.tally.longest_chain * row.period : row.period);
        } else {
            form = r.faults.empty() ? "nothing lost"
                                    : fmt::format("never: {} of {} credits lost for good", row.tally.credits_dropped, slots);
        }
        std::string checks = r.passed ? "pass" : "caught: ";
        if (!r.passed) {
            std::vector<std::string> names;
            for (const auto& v : r.violations)
                if (std::find(names.begin(), names.end(), v.check) == names.end()) names.push_back(v.check);
            for (size_t i = 0; i < names.size() && i < 2; ++i) checks += (i ? ", " : "") + names[i];
        }
        std::cout << fmt::format("| {} | {} | {} | {} | {} | {:.3f} | {:.3f} | {} | {} | {} | {} | {} |\n",
                                 row.period ? "on" : "off", row.period ? std::to_string(row.period) : "-",
                                 exact_number(row.rate), r.return_messages, r.faults.size(), r.throughput, row.fault_free,
                                 outage, form, r.longest_starvation, row.meets ? "yes" : "NO", checks);
    }
    return all ? 0 : 1;
}

}  // namespace creditloop
