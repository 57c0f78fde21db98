#include "run_loop.h"

namespace creditloop {

Violation fatal_violation(uint64_t cycle, const VerilatedFatal& fatal) {
    std::string detail = "the verilated model stopped: " + fatal.message();
    if (!fatal.where().empty()) detail += " (Verilator reports it at " + fatal.where() + ")";
    if (fatal.message().find("did not converge") != std::string::npos)
        detail += "; a combinational loop: a signal of your RTL depends on itself within one cycle, through your "
                  "RTL or through the harness (a ready that depends on valid while valid waits for ready); "
                  "verilate it with -Wall and read the UNOPTFLAT warnings for the signals of the loop";
    return {cycle, "rtl.fatal", fatal.where(), "a model that settles", "stopped", detail};
}

void settle_verdict(RunVerdict& verdict, const std::vector<ViolationLog*>& boards, const char* top) {
    for (const ViolationLog* board : boards) {
        verdict.scoreboards.push_back({board->name(), board->summary(), board->cycles_checked(), board->violation_count()});
        verdict.violation_count += board->violation_count();
        verdict.violations.insert(verdict.violations.end(), board->violations().begin(), board->violations().end());
    }
    if (verdict.rtl_fatal) {
        verdict.violations.push_back(*verdict.rtl_fatal);
        ++verdict.violation_count;
    }
    if (verdict.rtl_assertion_cycle) {
        verdict.violations.push_back({*verdict.rtl_assertion_cycle, "rtl.assertion", top, "no failure", "failed",
                                      "an RTL assertion failed: Verilator's %Error line names it"});
        ++verdict.violation_count;
    }
    std::stable_sort(verdict.violations.begin(), verdict.violations.end(),
                     [](const Violation& a, const Violation& b) { return a.cycle < b.cycle; });
    if (!verdict.violations.empty()) verdict.first_violation_cycle = verdict.violations.front().cycle;
    verdict.passed = verdict.violation_count == 0 && !verdict.interrupted;
}

}  // namespace creditloop
