#include "gtkw_command.h"

#include <filesystem>
#include <iostream>
#include <optional>

#include "cli_parse.h"
#include "gtkw.h"
#include "observation.h"

namespace fs = std::filesystem;

namespace creditloop {

std::optional<GtkwCommand> parse_gtkw(const std::vector<std::string>& args, ParseError& error) {
    GtkwCommand cmd;
    std::string& waves = cmd.waves;
    std::string& scope = cmd.scope;
    std::string& check = cmd.check;
    std::string& signal = cmd.signal;
    std::string policy = "batch";
    uint64_t& cycle = cmd.cycle;
    uint64_t& first_cycle = cmd.first_cycle;
    LinkConfig& config = cmd.config;
    CLI::App app{"The GTKWave save file for waves of a credit_link that creditloop did not simulate (a formal "
                 "counterexample): the layout of a simulation failure's, marker and story group on the violation.",
                 "creditloop gtkw"};
    app.add_option("--waves", waves, "the waves (.vcd or .fst); the save file goes beside them, .gtkw")->required();
    app.add_option("--scope", scope, "where the link's observed signals sit in the waves (e.g. top.dut.u_formal)")
        ->required();
    // The configuration sets the signals' widths in the save file ($clog2(B + 1) for a count, W
    // for a payload) and its title (LinkConfig::key()).
    add_link_options(app, config.stages, config.buffer_slots, &config.batch);
    app.add_option("--W", config.payload_bits, "payload bits")
        ->check(whole_number(1, kMaxPayloadBits, " (payload bits)"))->capture_default_str();
    app.add_option("--sync", config.sync_stages, "synchroniser stages on the return path")
        ->check(whole_number(0, kMaxSyncStages, " (synchroniser stages on the return path)"));
    app.add_option("--free-delay", config.free_delay, "cycles from a pop to its slot being freed")
        ->check(whole_number(0, kMaxFreeDelay, " (cycles from pop to the slot being freed)"));
    app.add_option("--policy", policy, "batch | hybrid")->check(one_of({"batch", "hybrid"}, "a return policy"))
        ->capture_default_str();
    app.add_option("--low", config.low_credits, "hybrid: LOW")
        ->check(whole_number(0, kMaxBufferSlots, " and at most B (hybrid: sender-low threshold)"));
    app.add_option("--idle", config.idle_cycles, "hybrid: IDLE")
        ->check(whole_number(1, kMaxIdleCycles, " (hybrid: cycles without reverse traffic)"));
    app.add_option("--timeout", config.flush_timeout, "TIMEOUT (0: none)")
        ->check(whole_number(0, kMaxFlushTimeout, " (0: no flush timeout)"));
    add_flag(app, "--recovery", config.recovery, "RECOVERY = 1: cumulative credit updates");
    app.add_option("--total-bits", config.total_bits, "recovery: TOTAL_BITS")->check(whole_number(1, kMaxTotalBits));
    app.add_option("--resend", config.resend_period, "recovery: RESEND")->check(whole_number(1, kMaxResendPeriod));
    auto* check_option = app.add_option("--check", check, "the check that failed, as the scoreboards name it "
                                                          "(conservation.total, conservation.overflow, ...)");
    auto* cycle_option = app.add_option("--cycle", cycle, "the cycle it failed in (cycle t is drawn from 10t)")
                             ->check(whole_number(0, 1000000000000LL));
    app.add_option("--signal", signal, "the observed signal it names (link.rx.overflow, ...)");
    app.add_option("--first-cycle", first_cycle, "the first cycle the waves hold")
        ->check(whole_number(0, 1000000000000LL))->capture_default_str();
    if (!parse_command(app, args, error)) return std::nullopt;

    auto bad = [&](const std::string& message) {
        error.message = message;
        return std::nullopt;
    };
    config.policy = policy == "hybrid" ? ReturnPolicy::hybrid : ReturnPolicy::batch;
    if (auto problem = validate(config)) return bad(*problem);
    if (check_option->count() != cycle_option->count())
        return bad("--check and --cycle go together: the violation the marker shows, and its cycle");
    if (!signal.empty() && !lookup_signal(signal))
        return bad("--signal " + signal + " is not an observed signal (link.sender.credits, link.rx.overflow, ...)");
    cmd.has_violation = check_option->count() > 0;
    return cmd;
}

int run_gtkw(const std::vector<std::string>& args) {
    ParseError error;
    const auto cmd = parse_gtkw(args, error);
    if (!cmd) return parse_failed(error);
    const std::string& waves = cmd->waves;
    std::error_code ec;   // a path the system refuses (too long) is no file, not an exception
    if (!fs::is_regular_file(waves, ec)) return refuse("--waves " + waves + ": no such file");
    if (cmd->has_violation && cmd->cycle < cmd->first_cycle)
        return refuse("--cycle " + std::to_string(cmd->cycle) + " is before --first-cycle " + std::to_string(cmd->first_cycle));

    std::optional<Violation> violation;
    if (cmd->has_violation) violation = Violation{cmd->cycle, cmd->check, cmd->signal, "", "", ""};
    const std::string save = write_gtkw(waves, cmd->config, cmd->scope, violation ? &*violation : nullptr, cmd->first_cycle);
    if (save.empty()) return refuse("cannot write the save file beside " + waves, 3);
    std::cout << "waves: gtkwave " << waves << " " << save << "\n";
    return 0;
}

}  // namespace creditloop
