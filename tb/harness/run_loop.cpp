#include "run_loop.h"

#include <filesystem>

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

std::string design_scope(const RtlStop& stop) {
    // Verilator's scope is <bank top>.<bank module>.<configuration's instance>.<the design's
    // instances>.<label>: the design's part follows the first three.
    std::string scope = stop.scope;
    for (int level = 0; level < 3; ++level) {
        const size_t dot = scope.find('.');
        if (dot == std::string::npos) break;
        scope.erase(0, dot + 1);
    }
    return scope.empty() ? "?" : scope;
}

std::string design_assertion(const RtlStop& stop) {
    // The file as the user knows it: relative to the current folder when it is inside it.
    std::string where = stop.where;
    std::error_code ec;
    const auto colon = where.rfind(':');
    if (colon != std::string::npos && !where.empty() && where[0] == '/') {
        const auto relative = std::filesystem::path(where.substr(0, colon)).lexically_relative(std::filesystem::current_path(ec));
        if (!ec && !relative.empty() && relative.begin()->string() != "..") where = relative.string() + where.substr(colon);
    }
    return "the design's assertion " + design_scope(stop) + " at " + where;
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
        const RtlStop& stop = verdict.rtl_assertion;
        verdict.violations.push_back(
            stop.where.empty()
                ? Violation{*verdict.rtl_assertion_cycle, "rtl.assertion", top, "no failure", "failed",
                            "an RTL assertion failed: Verilator's %Error line names it"}
                : Violation{*verdict.rtl_assertion_cycle, "rtl.assertion", design_scope(stop), "no failure", "failed",
                            design_assertion(stop) + " failed" + (stop.message.empty() ? "" : ": " + stop.message)});
        ++verdict.violation_count;
    }
    std::stable_sort(verdict.violations.begin(), verdict.violations.end(),
                     [](const Violation& a, const Violation& b) { return a.cycle < b.cycle; });
    if (!verdict.violations.empty()) verdict.first_violation_cycle = verdict.violations.front().cycle;
    verdict.passed = verdict.violation_count == 0 && !verdict.interrupted;
}

}  // namespace creditloop
