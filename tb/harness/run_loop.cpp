#include "run_loop.h"

namespace creditloop {

void settle_verdict(RunVerdict& verdict, const std::vector<ViolationLog*>& boards, const char* top) {
    for (const ViolationLog* board : boards) {
        verdict.scoreboards.push_back({board->name(), board->summary(), board->cycles_checked(), board->violation_count()});
        verdict.violation_count += board->violation_count();
        verdict.violations.insert(verdict.violations.end(), board->violations().begin(), board->violations().end());
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
