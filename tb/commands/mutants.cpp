#include "mutants.h"

#include "channels_command.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "channel_library.h"
#include "dut_library.h"
#include "mutant_patch.h"
#include "gtkw.h"
#include "parallel.h"
#include "progress.h"
#include "report.h"
#include "report_inputs.h"

namespace fs = std::filesystem;

namespace creditloop {

std::map<std::string, std::string> mutant_tags(const std::string& path) {
    std::map<std::string, std::string> tags;
    std::ifstream in(path);
    const std::string tag = "// creditloop-mutant: ";
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(tag, 0) != 0) continue;
        const std::string field = line.substr(tag.size());
        const auto eq = field.find('=');
        if (eq != std::string::npos) tags[field.substr(0, eq)] = field.substr(eq + 1);
    }
    return tags;
}

std::vector<Mutant> find_mutants(const std::string& source_root, std::vector<std::string>& errors) {
    std::vector<Mutant> mutants;
    const fs::path dir = fs::path(source_root) / "rtl" / "mutants";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (entry.path().extension() != ".mutant") continue;
        Mutant m;
        m.name = entry.path().stem().string();
        m.path = entry.path().string();
        auto tags = mutant_tags(m.path);
        m.replaces = tags["replaces"];
        m.bug_class = tags["class"];
        m.source = tags["source"];
        m.expect = tags["expect"];
        std::string error;
        if (apply_mutant(m.path, (fs::path(source_root) / "rtl").string(), error).empty()) {
            errors.push_back(error);
            continue;
        }
        mutants.push_back(m);
    }
    std::sort(mutants.begin(), mutants.end(), [](const Mutant& a, const Mutant& b) { return a.name < b.name; });
    return mutants;
}

DutSources mutant_sources(const DutSources& base, const Mutant& m) {
    // The block with the patch applied, under <build>/mutants/src/ (a file that cannot be built
    // is named as missing, and the build says so).
    std::string error;
    std::string built = build_mutant(m.path, (fs::path(base.source_root) / "rtl").string(), mutant_build_dir(base.build_root), error);
    if (built.empty()) built = (fs::path(mutant_build_dir(base.build_root)) / (m.name + ".sv")).string();
    DutSources sources = base;
    sources.rtl_files.clear();
    for (const auto& entry : fs::directory_iterator(fs::path(base.source_root) / "rtl")) {
        if (entry.path().extension() != ".sv") continue;
        sources.rtl_files.push_back(entry.path().filename() == m.replaces ? built : entry.path().string());
    }
    // The top first, then a fixed order.
    std::sort(sources.rtl_files.begin(), sources.rtl_files.end(), [](const std::string& a, const std::string& b) {
        const bool a_top = fs::path(a).filename() == "credit_link.sv";
        const bool b_top = fs::path(b).filename() == "credit_link.sv";
        return a_top != b_top ? a_top : a < b;
    });
    return sources;
}

// "conservation.total, lockstep" for the first failing cycle. Lockstep fires on any difference
// from the model and the RTL's own assertions sit in the RTL, so when only they fire there, the
// first check of the testbench's own that needs no model is added.
std::string checks_that_fired(const std::vector<Violation>& violations) {
    const uint64_t first = violations.front().cycle;
    std::vector<std::string> names;
    for (const auto& v : violations) {
        if (v.cycle != first) break;
        if (std::find(names.begin(), names.end(), v.check) == names.end()) names.push_back(v.check);
    }
    std::string text;
    for (const auto& n : names) text += (text.empty() ? "" : ", ") + n;
    const auto model_or_rtl = [](const std::string& check) { return check == "lockstep" || check == "rtl.assertion"; };
    if (std::all_of(names.begin(), names.end(), model_or_rtl)) {
        for (const auto& v : violations) {
            if (model_or_rtl(v.check)) continue;
            text += "; " + v.check + " at " + std::to_string(v.cycle);
            break;
        }
    }
    return text;
}

std::vector<RegressionCase> mutation_cases(uint64_t seed) {
    std::vector<RegressionCase> cases;
    // Seed 004's loop: L = 2, B = 4 (a power of two), saturating, drain every cycle.
    RegressionCase seed004;
    seed004.name = "seed004";
    seed004.spec.config = LinkConfig{2, 4, 1, 32};
    seed004.spec.cycles = 2000;
    seed004.spec.stimulus.seed = seed;
    cases.push_back(seed004);
    // Everything at once: random traffic, stalls, flushes, batches that do not divide B, and a
    // reset of both ends every 4999 cycles; B = 8 is a power of two again.
    RegressionCase random;
    random.name = "random";
    random.spec.config = LinkConfig{3, 8, 3, 32};
    random.spec.cycles = 20000;
    std::string error;
    random.spec.stimulus.traffic = *parse_traffic("bernoulli:0.8", error);
    random.spec.stimulus.drain = DrainSpec{DrainKind::random_stalls, 1, 0.3};
    random.spec.stimulus.flush_probability = 0.1;
    random.spec.stimulus.reset_every = 4999;
    random.spec.stimulus.seed = seed;
    cases.push_back(random);
    // Batches of a power of two with flushes: a return-count field one bit too narrow only
    // shows when K is a power of two.
    RegressionCase batch = random;
    batch.name = "batch4";
    batch.spec.config = LinkConfig{3, 8, 4, 32};
    batch.spec.stimulus.traffic = *parse_traffic("bernoulli:0.9", error);
    batch.spec.stimulus.drain = DrainSpec{};
    batch.spec.stimulus.reset_every = 0;
    cases.push_back(batch);
    // A shared return path under the hybrid policy with a flush timeout: the return port and
    // the policy only act with reverse traffic, partial batches and a timer to restart.
    RegressionCase shared = batch;
    shared.name = "shared";
    shared.spec.config.policy = ReturnPolicy::hybrid;
    shared.spec.config.low_credits = 2;
    shared.spec.config.idle_cycles = 3;
    shared.spec.config.flush_timeout = 5;
    shared.spec.stimulus.reverse_load = 0.6;
    shared.spec.stimulus.drain = DrainSpec{DrainKind::random_stalls, 1, 0.2};
    cases.push_back(shared);
    // The recovery protocol (docs/recovery.md) under faults: 4-bit running totals that wrap
    // every 16 credits, batches of 2 (a lost update can leave the sender with nothing), bursts
    // with quiet gaps longer than T (so the periodic resend runs), lost updates it must heal,
    // and updates corrupted by 5 (the limit must refuse them; in 3-bit arithmetic some wrap
    // back under B).
    RegressionCase recovery;
    recovery.name = "recovery";
    recovery.spec.config = LinkConfig{2, 4, 2, 32};
    recovery.spec.config.recovery = true;
    recovery.spec.config.total_bits = 4;
    recovery.spec.config.resend_period = 8;
    recovery.spec.cycles = 6000;
    recovery.spec.stimulus.traffic = *parse_traffic("bursts:8:24", error);
    recovery.spec.stimulus.seed = seed;
    recovery.spec.faults.drop_probability = 0.05;
    recovery.spec.faults.corrupt_probability = 0.01;
    recovery.spec.faults.corrupt_add = 5;
    cases.push_back(recovery);
    // A companion of each set, the same parameters (so the same verilated build) under every
    // input the testbench drives in a run that must pass: random traffic, a consumer that
    // stalls, flushes, reverse traffic on the return slot, resets of both ends, and the set's
    // own faults. Generated mutants (make mutation, scripts/mutation.py) showed what a set's
    // own stimulus leaves out: a full buffer under seed 004's drain, a busy return slot.
    const size_t base = cases.size();
    for (size_t i = 0; i < base; ++i) {
        RegressionCase stress = cases[i];
        stress.name = cases[i].name + "_stress";
        stress.spec.cycles = 20000;
        stress.spec.stimulus.traffic = *parse_traffic("bernoulli:0.7", error);
        stress.spec.stimulus.drain = DrainSpec{DrainKind::random_stalls, 1, 0.3};
        stress.spec.stimulus.flush_probability = 0.05;
        stress.spec.stimulus.reverse_load = 0.3;
        stress.spec.stimulus.reset_every = 1999;
        stress.spec.stimulus.seed = seed + 1;
        cases.push_back(stress);
    }
    return cases;
}

namespace {

struct Kill {
    bool caught = false;
    std::string case_name;
    std::string rerun;      // the run's arguments, for the rerun line
    Violation first;
    std::string checks;   // what fired on the first failing cycle, and the first independent check
    std::string waves;
    std::string gtkw;
    std::string error;
};

// The kill table for the HTML report (docs/report.md), the waves as absolute paths; the last
// run's, whole (a report without it shows no table, so a failed write is not fatal).
void write_kills_json(const std::vector<Mutant>& mutants, const std::vector<Kill>& kills, const std::string& program,
                      const std::string& path) {
    nlohmann::ordered_json out = {{"mutants", nlohmann::ordered_json::array()}};
    std::error_code ec;
    const auto absolute = [&](const std::string& file) { return file.empty() ? file : fs::absolute(file, ec).string(); };
    for (size_t i = 0; i < mutants.size(); ++i) {
        const Kill& k = kills[i];
        out["mutants"].push_back({{"name", mutants[i].name}, {"class", mutants[i].bug_class}, {"caught", k.caught},
                                  {"cycle", k.caught ? k.first.cycle : 0}, {"checks", k.checks}, {"stimulus", k.case_name},
                                  {"rerun", k.caught ? program + " run " + k.rerun + " --mutant " + mutants[i].name : ""},
                                  {"waves", absolute(k.waves)}, {"gtkw", absolute(k.gtkw)}});
    }
    fs::create_directories(fs::path(path).parent_path(), ec);
    std::ofstream(path + ".tmp") << out.dump(2) << "\n";
    fs::rename(path + ".tmp", path, ec);
}

std::string pad(const std::string& text, size_t width) {
    return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

// Every mutant (the multi-channel ones too) applied to its block, as DIR/<name>.sv.
int emit_mutants(const std::string& dir, const std::string& source_root) {
    std::vector<std::string> files;
    std::vector<std::string> ignored;
    for (const auto& m : find_mutants(source_root, ignored)) files.push_back(m.path);
    for (const auto& m : find_channel_mutants(source_root)) files.push_back(m.file);
    for (const auto& f : files) {
        std::string error;
        if (build_mutant(f, (fs::path(source_root) / "rtl").string(), dir, error).empty()) {
            std::cerr << "creditloop mutants: " << error << "\n";
            return 2;
        }
    }
    std::cout << files.size() << " mutants written to " << dir << "\n";
    return 0;
}

}  // namespace

int run_mutants(const MutantsCommand& command, const std::string& program) {
    const DutSources base = DutSources::from_environment();
    std::vector<std::string> errors;
    std::vector<Mutant> mutants;
    for (auto& m : find_mutants(base.source_root, errors))
        if (name_matches(m.name, command.filter)) mutants.push_back(std::move(m));
    for (const auto& e : errors) std::cerr << "creditloop mutants: " << e << "\n";
    if (!errors.empty()) return 2;
    if (!command.emit_dir.empty()) return emit_mutants(command.emit_dir, base.source_root);
    bool channel_mutants = false;
    for (const auto& m : find_channel_mutants(base.source_root)) channel_mutants = channel_mutants || name_matches(m.name, command.filter);
    if (mutants.empty() && channel_mutants)
        return run_channel_mutants(command.filter, command.seed, command.waves_dir, program, name_matches) ? 1 : 0;
    if (mutants.empty()) {
        std::cerr << "creditloop mutants: no mutant matches '" << command.filter << "' in rtl/mutants/\n";
        return 2;
    }
    const auto cases = mutation_cases(command.seed);

    std::cout << "creditloop mutants: " << mutants.size() << " mutants, up to " << cases.size()
              << " stimulus sets each (every mutant's RTL verilated together in one bank, then cached)\n"
              << std::flush;
    // Every mutant with every stimulus set's configuration, built at once: one bank costs about
    // what one mutant alone did, so building what a mutant may never reach is the cheap choice.
    std::vector<DutSources> sources;
    std::vector<DutBuild> builds;
    for (const auto& m : mutants) {
        sources.push_back(mutant_sources(base, m));
        for (const auto& c : cases) builds.push_back({c.spec.config, sources.back()});
    }
    Progress progress("creditloop mutants");
    progress.phase("verilated configurations");
    // The multi-channel mutants' banks build at the same time (run_channel_mutants finds them ready).
    const auto channel_builds =
        command.channels ? channel_mutant_builds(command.filter, command.seed, name_matches) : std::vector<ChannelWanted>{};
    for (const auto& e : build_link_and_channel_duts(builds, command.jobs, channel_builds, base,
                                                     [&](const std::string& s) { progress.status(s); }))
        progress.print("creditloop mutants: " + e);
    std::error_code ec;
    fs::create_directories(command.waves_dir, ec);
    std::vector<Kill> kills(mutants.size());
    progress.phase("mutants", mutants.size());
    // One mutant per worker: its stimulus sets in order until one catches it.
    parallel_for(mutants.size(), command.jobs, [&](size_t i) {
        {
            Kill& kill = kills[i];
            for (const auto& c : cases) {
                std::string error;
                auto library = DutLibrary::load(c.spec.config, sources[i], error);
                if (!library) {
                    kill.error = error;
                    break;
                }
                RunResult result;
                {
                    auto dut = library->create();
                    result = run_link(dut.get(), c.spec);
                }
                if (result.passed) continue;
                kill.caught = true;
                kill.case_name = c.name;
                kill.rerun = run_arguments(c.spec);
                kill.first = result.violations.front();
                kill.checks = checks_that_fired(result.violations);
                // Replay the failing seed with waves around the first violation.
                const uint64_t first = kill.first.cycle;
                RunOptions options;
                options.trace_path = (fs::path(command.waves_dir) / (mutants[i].name + ".vcd")).string();
                options.trace_from = first > 200 ? first - 200 : 0;
                options.stop_after_violation = 20;
                auto dut = library->create();
                run_link(dut.get(), c.spec, options);
                kill.waves = options.trace_path;
                kill.gtkw = write_gtkw(kill.waves, c.spec.config, library->trace_scope(), &kill.first, options.trace_from);
                break;
            }
            progress.advance();
            progress.print((kill.caught ? "caught   " : "SURVIVED ") + mutants[i].name);
        }
    });
    progress.finish();

    std::ostringstream table;
    table << "\n" << pad("mutant", 34) << pad("caught", 7) << pad("cycle", 7) << pad("by checks", 58)
          << "stimulus, waves\n";
    size_t survivors = 0;
    for (size_t i = 0; i < mutants.size(); ++i) {
        const Kill& k = kills[i];
        survivors += k.caught ? 0 : 1;
        table << pad(mutants[i].name, 34) << pad(k.caught ? "yes" : "NO", 7)
              << pad(k.caught ? std::to_string(k.first.cycle) : "-", 7) << pad(k.caught ? k.checks : "-", 58)
              << (k.caught ? k.case_name + ", gtkwave " + k.waves + " " + k.gtkw : k.error) << "\n";
        table << "    " << mutants[i].bug_class << " (" << mutants[i].source << ")\n";
        if (k.caught) table << "    rerun: " << program << " run " << k.rerun << " --mutant " << mutants[i].name << "\n";
    }
    std::cout << table.str();
    for (size_t i = 0; i < mutants.size(); ++i) {
        if (kills[i].caught) continue;
        std::cout << "\nSURVIVED " << mutants[i].name << " (" << mutants[i].bug_class << ", " << mutants[i].source
                  << "): no check fired on any stimulus set; the stimulus must improve. Rerun one with:\n";
        for (const auto& c : cases)
            std::cout << "  " << program << " run " << run_arguments(c.spec) << " --mutant " << mutants[i].name << "\n";
    }
    std::cout << "\n" << (mutants.size() - survivors) << " of " << mutants.size() << " mutants caught\n";
    write_kills_json(mutants, kills, program, mutants_kills_path(base.build_root));
    // The multi-channel link's own mutants (rtl/mutants/channels/), with their own stimulus.
    const int channel_survivors =
        command.channels ? run_channel_mutants(command.filter, command.seed, command.waves_dir, program, name_matches) : 0;
    return survivors || channel_survivors ? 1 : 0;
}

}  // namespace creditloop
