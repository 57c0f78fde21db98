// The multi-channel link's mutants (channels_command.h): rtl/mutants/channels/*.mutant found and
// applied to their block, the stimulus sets each faces in turn, and their kill table (part of
// `creditloop mutants`).
#include "channels_command.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "channel_gtkw.h"
#include "channel_library.h"
#include "channel_scoreboards.h"
#include "mutant_patch.h"
#include "mutants.h"
#include "progress.h"

namespace fs = std::filesystem;

namespace creditloop {

std::vector<ChannelMutant> find_channel_mutants(const std::string& source_root) {
    std::vector<ChannelMutant> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fs::path(source_root) / "rtl" / "mutants" / "channels", ec)) {
        if (entry.path().extension() != ".mutant") continue;
        ChannelMutant m;
        m.name = entry.path().stem().string();
        m.file = entry.path().string();
        auto tags = mutant_tags(m.file);
        m.replaces = tags["replaces"].empty() ? "credit_link.sv" : tags["replaces"];
        m.mutant_class = tags["class"];
        m.expect = tags["expect"];
        out.push_back(m);
    }
    std::sort(out.begin(), out.end(), [](const ChannelMutant& a, const ChannelMutant& b) { return a.name < b.name; });
    return out;
}

Problem channel_mutant_rtl(const DutSources& sources, const ChannelMutant& m, std::vector<std::string>& rtl) {
    std::string error;
    const std::string built =
        build_mutant(m.file, (fs::path(sources.source_root) / "rtl").string(), mutant_build_dir(sources.build_root), error);
    if (built.empty()) return error;
    rtl = channel_rtl_files(sources, built, m.replaces);
    return std::nullopt;
}

namespace {

// n one-pool channels named prefix0, prefix1, ...: channel i has credits + i * step credits.
std::vector<ChannelSpec> numbered_channels(const std::string& prefix, int n, int credits, int step,
                                           const ChannelTraffic& traffic) {
    std::vector<ChannelSpec> out(n);
    for (int i = 0; i < n; ++i) {
        out[i].name = prefix + std::to_string(i);
        out[i].credits = credits + i * step;
        out[i].traffic = traffic;
    }
    return out;
}

}  // namespace

std::vector<std::pair<std::string, ChannelRunSpec>> channel_mutation_cases(uint64_t seed) {
    std::vector<std::pair<std::string, ChannelRunSpec>> cases;
    for (const auto& name : channel_presets()) cases.push_back({"channels/" + name, {*channel_preset(name), 4000, seed}});
    // Small pools that run dry, multi-credit packets and a shared return path, all at once.
    ChannelLinkConfig tight;
    tight.preset = "tight";
    tight.stages = 2;
    tight.shared_return = true;
    ChannelSpec a, b, c;
    a.name = "A";
    a.credits = 3;
    a.unit = 8;
    a.traffic = {1, 24, 0.6, 0.7};
    b.name = "B";
    b.split = true;
    b.credits = 2;
    b.data_credits = 5;
    b.data_batch = 2;
    b.unit = 16;
    b.traffic = {0, 64, 0.4, 0.5};
    c.name = "C";
    c.credits = 2;
    c.traffic = {1, 1, 0.9, 0.9};
    tight.channels = {a, b, c};
    cases.push_back({"channels/tight", {tight, 4000, seed}});

    // The corners: eight channels contending (a round-robin pointer must hold 0..7), ten pools on
    // one shared return path (a pool id must hold 0..9), and packets up to the largest a link
    // takes (65535 bytes) with large units, so credit arithmetic near the top of its range runs.
    ChannelLinkConfig wide;
    wide.preset = "wide";
    wide.stages = 2;
    wide.shared_return = true;
    wide.channels = numbered_channels("W", 8, 4, 1, {1, 1, 0.5, 0.8});
    wide.channels[2].unit = 1024;                    // plain, up to 64 credits a packet
    wide.channels[2].credits = 64;
    wide.channels[2].traffic = {60000, 65535, 0.3, 1.0};
    wide.channels[6].split = true;                   // header/data: pools 6 and 7
    wide.channels[6].data_credits = 6;
    wide.channels[6].unit = 16;
    wide.channels[6].traffic = {0, 80, 0.5, 0.9};
    wide.channels[7].split = true;                   // header/data: pools 8 and 9
    wide.channels[7].data_credits = 17;             // a packet's 16 plus a batch's K - 1
    wide.channels[7].data_batch = 2;
    wide.channels[7].unit = 4096;
    wide.channels[7].traffic = {50000, 65535, 0.6, 1.0};
    cases.push_back({"channels/wide", {wide, 4000, seed}});

    // One pool shared by four lanes whose consumers stall half the time: flits pile up in the
    // lanes, and lanes of one pool pop together, so its freed slots must be added, not OR-ed.
    ChannelLinkConfig shared;
    shared.preset = "shared";
    shared.stages = 3;
    shared.shared_pool = true;
    shared.channels = numbered_channels("S", 4, 12, 0, {1, 1, 0.9, 0.5});
    cases.push_back({"channels/shared", {shared, 4000, seed}});

    // Recovery under faults with stalled consumers: updates dropped, and updates made larger by
    // 6, one more than the largest pool's B. A correct sender refuses every enlarged update (so
    // the run passes); a limit of B + 1 accepts one that arrives while the pool's credits are all
    // away, so the limit is tested at exactly B + 1.
    ChannelLinkConfig recovery = tight;
    recovery.preset = "recovery";
    recovery.recovery = true;
    recovery.total_bits = 5;
    recovery.resend_period = 8;
    ChannelRunSpec faults{recovery, 6000, seed};
    faults.faults.drop_probability = 0.03;
    faults.faults.corrupt_probability = 0.03;
    faults.faults.corrupt_add = 6;
    cases.push_back({"channels/recovery", faults});

    // The return logic per pool: a return path each, batches with a timeout, two hybrid pools,
    // flushes told to each pool apart, reverse traffic on each path apart, a synchroniser stage,
    // a late free, stalled consumers and resets of both ends mid-traffic.
    ChannelLinkConfig policies;
    policies.preset = "policies";
    policies.stages = 2;
    policies.sync_stages = 1;
    policies.free_delay = 1;
    policies.channels = numbered_channels("P", 3, 6, 0, {1, 1, 0.8, 0.6});
    policies.channels[0].batch = 3;
    policies.channels[0].timeout = 5;
    policies.channels[1].batch = 4;
    policies.channels[1].policy = ReturnPolicy::hybrid;
    policies.channels[1].low = 1;
    policies.channels[1].idle = 2;
    policies.channels[2].batch = 2;
    policies.channels[2].policy = ReturnPolicy::hybrid;
    policies.channels[2].low = 0;
    policies.channels[2].idle = 3;
    ChannelRunSpec environment{policies, 4000, seed};
    environment.environment.flush_probability = 0.05;
    environment.environment.reverse_load = 0.3;
    environment.environment.reset_every = 1500;
    cases.push_back({"channels/policies", environment});

    // A companion of every set on the same link under everything a passing run may drive: packets
    // from 0 bytes to the largest each pool takes, stalled consumers, flushes, reverse traffic on
    // every return path, resets of both ends mid-traffic, and the set's own faults. A mutant is
    // run against its link's sets only, so the corners one set's traffic never reaches (a
    // multi-credit packet on a CHI pool, say) are reached here.
    const size_t sets = cases.size();
    for (size_t i = 0; i < sets; ++i) {
        ChannelRunSpec stress = cases[i].second;
        ChannelLinkConfig& config = stress.config;
        const ChannelLayout l = layout(config);
        for (auto& c : config.channels) {
            const int pool = config.shared_pool ? l.pool_credits[0] : (c.split ? c.data_credits : c.credits);
            // Units a packet may take: a split channel's header has a credit of its own; a shared
            // pool must hold the whole packet.
            const int units = config.shared_pool && c.split ? pool - 1 : pool;
            c.traffic = {0, std::min(kMaxPacketBytes, units * c.unit), 0.7, 0.5};
        }
        stress.cycles = 6000;
        stress.environment.flush_probability = 0.05;
        stress.environment.reverse_load = 0.3;
        stress.environment.reset_every = 1999;
        cases.push_back({cases[i].first + "_stress", stress});
    }
    return cases;
}

std::vector<ChannelWanted> channel_mutant_builds(const std::string& filter, uint64_t seed,
                                                bool (*matches)(const std::string&, const std::string&)) {
    const DutSources sources = DutSources::from_environment();
    const auto cases = channel_mutation_cases(seed);
    std::vector<ChannelWanted> wanted;
    for (auto& m : find_channel_mutants(sources.source_root)) {
        if (!matches(m.name, filter)) continue;
        std::vector<std::string> rtl;
        if (channel_mutant_rtl(sources, m, rtl)) continue;   // run_channel_mutants reports it
        for (const auto& [name, spec] : cases) wanted.push_back({spec.config, rtl});
    }
    return wanted;
}

int run_channel_mutants(const std::string& filter, uint64_t seed, const std::string& waves_dir, const std::string& program,
                        bool (*matches)(const std::string&, const std::string&)) {
    const DutSources sources = DutSources::from_environment();
    std::vector<ChannelMutant> mutants;
    for (auto& m : find_channel_mutants(sources.source_root))
        if (matches(m.name, filter)) mutants.push_back(std::move(m));
    if (mutants.empty()) return 0;
    const auto cases = channel_mutation_cases(seed);
    std::cout << "\ncreditloop mutants: " << mutants.size() << " multi-channel mutants (rtl/mutants/channels/), up to "
              << cases.size() << " stimulus sets each\n" << std::flush;
    std::vector<ChannelWanted> wanted;
    std::vector<std::vector<std::string>> rtl(mutants.size());
    std::vector<Problem> problems(mutants.size());
    for (size_t i = 0; i < mutants.size(); ++i) {
        problems[i] = channel_mutant_rtl(sources, mutants[i], rtl[i]);
        if (problems[i]) continue;
        for (const auto& [name, spec] : cases) wanted.push_back({spec.config, rtl[i]});
    }
    Progress progress("creditloop mutants (channels)");
    progress.phase("verilated configurations");
    for (const auto& e : build_channel_duts(wanted, sources, [&](const std::string& s) { progress.status(s); }))
        progress.print("creditloop mutants: " + e);
    std::error_code ec;
    fs::create_directories(waves_dir, ec);
    struct Kill {
        bool caught = false;
        std::string case_name, checks, waves, gtkw, error;
        ChannelRunSpec spec;
        Violation first;
    };
    std::vector<Kill> kills(mutants.size());
    progress.phase("mutants", mutants.size());
    for (size_t i = 0; i < mutants.size(); ++i) {
        Kill& kill = kills[i];
        kill.error = problems[i].value_or("");
        for (const auto& [name, spec] : cases) {
            if (!kill.error.empty()) break;
            std::string error;
            auto library = ChannelLibrary::load({spec.config, rtl[i]}, sources, error);
            if (!library) {
                kill.error = error;
                break;
            }
            ChannelRunOptions options;
            options.stop_after_violation = 0;
            ChannelRunResult result;
            {
                auto dut = library->create();
                result = run_channels(dut.get(), spec, options);
            }
            if (result.passed) continue;
            kill.caught = true;
            kill.case_name = name;
            kill.spec = spec;
            kill.first = result.violations.front();
            for (const auto& v : result.violations)
                if (v.cycle == kill.first.cycle && kill.checks.find(v.check) == std::string::npos)
                    kill.checks += (kill.checks.empty() ? "" : ", ") + v.check;
            options.trace_path = (fs::path(waves_dir) / (mutants[i].name + ".vcd")).string();
            options.trace_from = kill.first.cycle > 200 ? kill.first.cycle - 200 : 0;
            options.stop_after_violation = 20;
            auto dut = library->create();
            run_channels(dut.get(), spec, options);
            kill.waves = options.trace_path;
            kill.gtkw = write_channel_gtkw(kill.waves, spec.config, library->trace_scope(), &kill.first);
            break;
        }
        progress.advance();
        progress.print((kill.caught ? "caught   " : "SURVIVED ") + mutants[i].name);
    }
    progress.finish();
    size_t survivors = 0;
    std::cout << "\n" << fmt::format("{:<30} {:<7} {:<6} {:<44} {}\n", "mutant", "caught", "cycle", "by checks (first cycle)",
                                     "stimulus, waves");
    for (size_t i = 0; i < mutants.size(); ++i) {
        const Kill& k = kills[i];
        survivors += k.caught ? 0 : 1;
        std::cout << fmt::format("{:<30} {:<7} {:<6} {:<44} {}\n", mutants[i].name, k.caught ? "yes" : "NO",
                                 k.caught ? std::to_string(k.first.cycle) : "-", k.caught ? k.checks : "-",
                                 k.caught ? k.case_name + ", gtkwave " + k.waves + " " + k.gtkw : k.error);
        std::cout << "    " << mutants[i].mutant_class << "\n";
        if (k.caught) std::cout << "    first: " << violation_line(k.first) << "\n";
        if (k.caught) std::cout << "    rerun: " << program << " run " << channel_run_arguments(kills[i].spec) << " --mutant " << mutants[i].name << "\n";
    }
    for (size_t i = 0; i < mutants.size(); ++i) {
        if (kills[i].caught) continue;
        std::cout << "\nSURVIVED " << mutants[i].name << ": no check fired; rerun one stimulus set with:\n";
        for (const auto& [name, spec] : cases)
            std::cout << "  " << program << " run " << channel_run_arguments(spec) << " --mutant " << mutants[i].name << "\n";
    }
    std::cout << "\n" << (mutants.size() - survivors) << " of " << mutants.size() << " multi-channel mutants caught\n";
    return static_cast<int>(survivors);
}

}  // namespace creditloop
