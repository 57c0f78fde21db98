#include "policy_table.h"

#include <iostream>
#include <memory>
#include <sstream>

#include "cli.h"
#include "cli_parse.h"
#include "closed_forms.h"
#include "dut_library.h"
#include "progress.h"
#include "report.h"
#include "scoreboard.h"
#include "stimulus.h"

namespace creditloop {

namespace {

// "0,0.5,0.9" as loads, each 0 <= p < 1; "" or what is wrong.
std::string parse_loads(const std::string& text, std::vector<double>* loads) {
    std::vector<double> parsed;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        char* end = nullptr;
        const double p = std::strtod(item.c_str(), &end);
        if (item.empty() || *end != '\0' || !(p >= 0.0 && p < 1.0))
            return "'" + item + "' is not a load; each must be 0 <= p < 1 (e.g. 0,0.5,0.9)";
        parsed.push_back(p);
    }
    if (parsed.empty()) return "needs at least one load (e.g. 0,0.5,0.9)";
    if (loads) *loads = parsed;
    return "";
}

}  // namespace

std::optional<PolicyTableSpec> parse_policy_table(const std::vector<std::string>& args, ParseError& error) {
    PolicyTableSpec spec;
    CLI::App app{"Forward throughput and credit messages per flit for each return policy, at several loads of\n"
                 "reverse traffic on a shared return path (seed 000). The model gives every number; the RTL runs\n"
                 "every point in lockstep unless --no-rtl.",
                 "creditloop policies"};
    add_link_options(app, spec.stages, spec.buffer_slots, &spec.batch);   // K: the batching policies' batch
    app.add_option("--timeout", spec.flush_timeout, "the flush timeout of the timeout rows")
        ->check(whole_number(1, kMaxFlushTimeout, " (cycles a credit may wait for its batch)"))->capture_default_str();
    app.add_option("--low", spec.low_credits, "hybrid: flush when the sender may hold N credits or fewer (default K)")
        ->check(whole_number(0, kMaxBufferSlots, " and at most B"));
    app.add_option("--idle", spec.idle_cycles, "hybrid: flush after N free return cycles running")
        ->check(whole_number(1, kMaxIdleCycles, " (free return cycles running)"))->capture_default_str();
    std::string loads;
    app.add_option("--loads", loads, "reverse loads, comma separated, each 0 <= p < 1 (default 0,0.5,0.9)")
        ->check(CLI::Validator([](std::string& text) { return parse_loads(text, nullptr); }, "LIST"));
    app.add_option("--cycles", spec.cycles, "cycles per point (the window is the second half)")
        ->check(whole_number(1, 100000000000LL))->capture_default_str();
    app.add_option("--seed", spec.seed, "stimulus seed")->check(whole_number(0, 0x7FFFFFFFFFFFFFFFLL))->capture_default_str();
    bool no_rtl = false;
    add_flag(app, "--no-rtl", no_rtl, "the model alone");
    app.add_option("--jobs", spec.jobs, "RTL builds in parallel")->check(whole_number(1, 64))->capture_default_str();
    if (!parse_command(app, args, error)) return std::nullopt;
    if (!loads.empty()) parse_loads(loads, &spec.loads);
    spec.rtl = !no_rtl;
    return spec;
}

namespace {

std::string arguments(const PolicyTableSpec& spec) {
    std::ostringstream out;
    const PolicyTableSpec defaults;
    if (spec.stages != defaults.stages) out << " --L " << spec.stages;
    if (spec.buffer_slots != defaults.buffer_slots) out << " --B " << spec.buffer_slots;
    if (spec.batch != defaults.batch) out << " --K " << spec.batch;
    if (spec.flush_timeout != defaults.flush_timeout) out << " --timeout " << spec.flush_timeout;
    if (spec.low_credits != defaults.low_credits) out << " --low " << spec.low_credits;
    if (spec.idle_cycles != defaults.idle_cycles) out << " --idle " << spec.idle_cycles;
    if (spec.loads != defaults.loads) {
        out << " --loads ";
        for (size_t i = 0; i < spec.loads.size(); ++i) out << (i ? "," : "") << exact_number(spec.loads[i]);
    }
    if (spec.cycles != defaults.cycles) out << " --cycles " << spec.cycles;
    if (spec.seed != defaults.seed) out << " --seed " << spec.seed;
    if (!spec.rtl) out << " --no-rtl";
    return out.str();
}

}  // namespace

std::vector<PolicyRow> policy_rows(const PolicyTableSpec& spec) {
    LinkConfig base;
    base.stages = spec.stages;
    base.buffer_slots = spec.buffer_slots;
    const std::string k = std::to_string(spec.batch);
    const std::string timeout = ", timeout " + std::to_string(spec.flush_timeout);

    LinkConfig each = base;
    LinkConfig batch = base;
    batch.batch = spec.batch;
    LinkConfig batch_timeout = batch;
    batch_timeout.flush_timeout = spec.flush_timeout;
    LinkConfig hybrid = batch;
    hybrid.policy = ReturnPolicy::hybrid;
    hybrid.low_credits = spec.low_credits < 0 ? spec.batch : spec.low_credits;
    hybrid.idle_cycles = spec.idle_cycles;
    LinkConfig hybrid_timeout = hybrid;
    hybrid_timeout.flush_timeout = spec.flush_timeout;
    const std::string hybrid_name = "hybrid K = " + k + " (LOW = " + std::to_string(hybrid.low_credits) +
                                    ", IDLE = " + std::to_string(hybrid.idle_cycles) + ")";
    return {{"each (K = 1)", each, {}},
            {"batch K = " + k, batch, {}},
            {"batch K = " + k + timeout, batch_timeout, {}},
            {hybrid_name, hybrid, {}},
            {hybrid_name + timeout, hybrid_timeout, {}}};
}

RunSpec policy_run_spec(const PolicyTableSpec& spec, const LinkConfig& config, double load) {
    RunSpec run;
    run.config = config;
    run.cycles = spec.cycles;
    run.stimulus.seed = spec.seed;
    run.stimulus.reverse_load = load;
    return run;
}

std::string policy_table_markdown(const PolicyTableSpec& spec, const std::vector<PolicyRow>& rows,
                                  const std::string& command) {
    std::ostringstream out;
    const int rtt = round_trip_cycles(spec.stages);
    out << "L = " << spec.stages << ", B = " << spec.buffer_slots << " (RTT = " << rtt
        << "), saturating source, consumer draining every cycle, " << with_thousands(spec.cycles)
        << " cycles per point (throughput over the second half), seed " << spec.seed
        << ". p: the probability that reverse traffic holds the return slot in a cycle. msg/flit: credit "
           "messages per flit sent.\n\n";
    out << "| policy |";
    for (double p : spec.loads) out << " p = " << exact_number(p) << " throughput | msg/flit |";
    out << "\n|---|";
    for (size_t i = 0; i < spec.loads.size(); ++i) out << "---:|---:|";
    out << "\n";
    for (const PolicyRow& row : rows) {
        out << "| " << row.name << " |";
        for (const RunResult& r : row.results)
            out << " " << three_decimals(r.throughput) << " | " << three_decimals(r.messages_per_flit) << " |";
        out << "\n";
    }
    out << "\nGenerated by `" << command << "`" << (spec.rtl ? " (the RTL in lockstep with the model at every point)" : " (model)")
        << ".\n";
    return out.str();
}

int run_policy_table(const std::vector<std::string>& args, const std::string& program) {
    return run_policy_table(args, program, std::cout, std::cerr);
}

int run_policy_table(const std::vector<std::string>& args, const std::string& program, std::ostream& out,
                     std::ostream& err) {
    ParseError error;
    auto parsed = parse_policy_table(args, error);
    if (!parsed && error.help) {
        out << error.message;
        return 0;
    }
    if (!parsed) {
        err << "creditloop: " << error.message << "\n";
        return 2;
    }
    const PolicyTableSpec& spec = *parsed;
    std::vector<PolicyRow> rows = policy_rows(spec);
    for (const PolicyRow& row : rows) {
        if (auto problem = validate(policy_run_spec(spec, row.config, spec.loads.front()))) {
            err << "creditloop: " << *problem << "\n";
            return 2;
        }
    }

    DutSources sources = DutSources::from_environment();
    std::vector<std::unique_ptr<DutLibrary>> libraries(rows.size());
    // The progress line goes to the process's stderr, so a caller capturing `err` gets the report alone.
    std::unique_ptr<Progress> progress;
    if (&err == &std::cerr) progress = std::make_unique<Progress>("creditloop policies", stderr);
    if (spec.rtl) {
        std::vector<LinkConfig> configs;
        for (const PolicyRow& row : rows) configs.push_back(row.config);
        if (progress) progress->phase("verilating or loading " + std::to_string(configs.size()) + " RTL configurations");
        const auto build_errors = build_duts(configs, sources, spec.jobs, [&progress](const std::string& s) {
            if (progress) progress->status(s);
        });
        if (!build_errors.empty()) {
            for (const auto& line : build_errors) err << "creditloop: " << line << "\n";
            return 1;
        }
        for (size_t i = 0; i < rows.size(); ++i) {
            std::string load_error;
            libraries[i] = DutLibrary::load(rows[i].config, sources, load_error);
            if (!libraries[i]) {
                err << "creditloop: " << load_error << "\n";
                return 1;
            }
        }
    }

    bool passed = true;
    if (progress) progress->phase("runs", rows.size() * spec.loads.size());
    for (size_t i = 0; i < rows.size(); ++i) {
        for (double load : spec.loads) {
            const RunSpec run = policy_run_spec(spec, rows[i].config, load);
            std::unique_ptr<LinkDut> dut = spec.rtl ? libraries[i]->create() : nullptr;
            RunResult result = run_link(dut.get(), run);
            if (!result.passed) {
                passed = false;
                err << "creditloop policies: " << rows[i].name << " at p = " << exact_number(load) << " FAILED";
                if (!result.violations.empty()) err << ": " << violation_line(result.violations.front());
                err << "\n  rerun: " << program << " run " << run_arguments(run) << (spec.rtl ? "" : " --model") << "\n";
            }
            rows[i].results.push_back(std::move(result));
            if (progress) progress->advance();
        }
    }
    if (progress) progress->finish();
    out << policy_table_markdown(spec, rows, "creditloop policies" + arguments(spec));
    return passed ? 0 : 1;
}

}  // namespace creditloop
