// creditloop's SystemC harnesses: `creditloop_sc [run] <run options>` (the link) and
// `creditloop_channels_sc [run] <run options>` (the multi-channel link, CL_SC_CHANNELS), each for
// the one configuration it was verilated for (`creditloop run ... --systemc` builds the right one
// and runs it). The same stimulus, golden model and scoreboards as the C++ harness, through
// run_link() or run_channels(); only the DUT differs: the --sc model under an sc_clock, driven by
// a clocked SC_THREAD (sc_harness.h).
#include <systemc.h>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "log.h"
#include "process.h"
#ifdef CL_SC_CHANNELS
#include "channel_bank_ports.h"
#include "channels_command.h"
#include "systemc_channels.h"
#else
#include "cli.h"
#include "compiled_config.h"
#include "report.h"
#include "systemc_link.h"
#endif

using namespace creditloop;

namespace {

#ifdef CL_SC_CHANNELS
struct Kind {
    static constexpr const char* program = "creditloop_channels_sc";
    using Harness = SystemCChannels;
    static auto parse(const std::vector<std::string>& args, ParseError& error) { return parse_channel_run(args, error); }
    static auto refuses(ChannelRunCommand& cmd) {
        cmd.systemc = false;
        return channel_systemc_refuses(cmd);
    }
    static std::string built() { return channel_bank_key(0); }
    static bool matches(const ChannelRunSpec& spec) { return spec.config.key() == built(); }
    static auto run(Harness& dut, const ChannelRunSpec& spec) { return run_channels(&dut, spec); }
    static auto json(const ChannelRunSpec& spec, const ChannelRunResult& r) { return channel_json(spec, r); }
    static auto summary(const ChannelRunSpec& spec, const ChannelRunResult& r) { return channel_summary(spec, r); }
    static auto arguments(const ChannelRunSpec& spec) { return channel_run_arguments(spec); }
};
#else
struct Kind {
    static constexpr const char* program = "creditloop_sc";
    using Harness = SystemCLink;
    static auto parse(const std::vector<std::string>& args, ParseError& error) { return parse_run(args, error); }
    static auto refuses(const RunCommand& cmd) { return systemc_refuses(cmd); }
    static std::string built() { return compiled_link_config().key(); }
    static bool matches(const RunSpec& spec) { return compiled_link_config() == spec.config; }
    static auto run(Harness& dut, const RunSpec& spec) { return run_link(&dut, spec); }
    static auto json(const RunSpec& spec, const RunResult& r) { return run_json(spec, r); }
    static auto summary(const RunSpec& spec, const RunResult& r) { return run_summary(spec, r); }
    static auto arguments(const RunSpec& spec) { return run_arguments(spec); }
};
#endif

int bad_input(const std::string& message) {
    std::cerr << Kind::program << ": " << message << "\n";
    return 2;
}

}  // namespace

int sc_main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args.front() == "run") args.erase(args.begin());
    ParseError error;
    auto cmd = Kind::parse(args, error);
    if (!cmd) return bad_input(error.message);
    if (auto problem = Kind::refuses(*cmd)) return bad_input(*problem);
    if (!Kind::matches(cmd->spec))
        return bad_input("this SystemC harness was verilated for " + Kind::built() + ", not " + cmd->spec.config.key() +
                         ": run it through 'creditloop run --systemc', which builds the one you asked for");
    if (!set_log_level(cmd->log_level))
        return bad_input("--log-level " + cmd->log_level + " is not a level: allowed off, error, warn, info, debug");

    Verilated::defaultContextp()->fatalOnError(false);   // an RTL assertion is a finding, not an exit
    Kind::Harness dut;
    auto result = [&] {
        const StdoutToStderr quiet(cmd->json);   // the RTL's own messages must not break the JSON
        return Kind::run(dut, cmd->spec);
    }();
    result.source = "systemc";
    if (cmd->json) {
        std::cout << Kind::json(cmd->spec, result) << "\n";
    } else {
        std::cout << Kind::summary(cmd->spec, result);
        if (!result.passed) std::cout << "rerun: creditloop run --systemc " << Kind::arguments(cmd->spec) << "\n";
    }
    return result.passed ? 0 : 1;
}
