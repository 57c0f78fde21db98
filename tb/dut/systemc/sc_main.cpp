// creditloop's SystemC harness: `creditloop_sc [run] <run options>` for the one configuration it
// was verilated for (`creditloop run --systemc ...` builds the right one and runs it). The same
// stimulus, golden model and scoreboards as the C++ harness, through run_link(); only the DUT
// differs: the --sc model under an sc_clock, driven by a clocked SC_THREAD.
#include <systemc.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli.h"
#include "compiled_config.h"
#include "log.h"
#include "report.h"
#include "systemc_link.h"

using namespace creditloop;

namespace {

int bad_input(const std::string& message) {
    std::cerr << "creditloop_sc: " << message << "\n";
    return 2;
}

}  // namespace

int sc_main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args.front() == "run") args.erase(args.begin());
    ParseError error;
    auto cmd = parse_run(args, error);
    if (!cmd) return bad_input(error.message);
    if (auto problem = systemc_refuses(*cmd)) return bad_input(*problem);
    const LinkConfig built = compiled_link_config();
    if (!(built == cmd->spec.config))
        return bad_input("this SystemC harness was verilated for " + built.key() + ", not " + cmd->spec.config.key() +
                         ": run it through 'creditloop run --systemc', which builds the one you asked for");
    if (!set_log_level(cmd->log_level))
        return bad_input("--log-level " + cmd->log_level + " is not a level: allowed off, error, warn, info, debug");

    Verilated::defaultContextp()->fatalOnError(false);   // an RTL assertion is a finding, not an exit
    SystemCLink link;
    RunResult result = run_link(&link, cmd->spec);
    result.source = "systemc";
    if (cmd->json) {
        std::cout << run_json(cmd->spec, result) << "\n";
    } else {
        std::cout << run_summary(cmd->spec, result);
        if (!result.passed) std::cout << "rerun: creditloop run --systemc " << run_arguments(cmd->spec) << "\n";
    }
    return result.passed ? 0 : 1;
}
