// A coverage build's plugins (make coverage, docs/coverage.md; compiled with VM_COVERAGE=1) write
// the counts of each run when its DUT is destroyed: every line, branch, toggle and cover point of
// the one instance the run drove, per instance (its hierarchy kept, so the covers in a generate
// loop stay apart), into $CREDITLOOP_COVERAGE_DIR/<instance>.<fingerprint>.dat. The fingerprint
// is a hash of every input the run drove, cycle by cycle: the same run writes the same file, so a
// rerun replaces its file instead of adding a copy, and no two runs share one. Without the
// variable nothing is written. Included by verilated_top.h only when VM_COVERAGE is set.
#pragma once

#include <verilated.h>
#include <verilated_cov.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace creditloop {

// FNV-1a over the inputs of a run, a word at a time.
class RunFingerprint {
public:
    void add(uint64_t word) {
        for (int i = 0; i < 8; ++i) {
            hash_ ^= (word >> (8 * i)) & 0xffu;
            hash_ *= 0x100000001b3ull;
        }
    }
    uint64_t value() const { return hash_; }

private:
    uint64_t hash_ = 0xcbf29ce484222325ull;
};

// `scope` is the instance's place in the verilated top ("bank.creditloop_bank.link_L4_B12_K1_W32"):
// its points are kept (with any instance whose name it begins; scripts/coverage.py keeps the exact
// one), the idle instances' are dropped.
inline void write_coverage(VerilatedContext& context, const std::string& scope, const RunFingerprint& run) {
    const char* dir = std::getenv("CREDITLOOP_COVERAGE_DIR");
    if (!dir || !*dir) return;
    const std::string instance = scope.substr(scope.rfind('.') + 1);
    char fingerprint[17];
    std::snprintf(fingerprint, sizeof fingerprint, "%016llx", static_cast<unsigned long long>(run.value()));
    context.coveragep()->clearNonMatch(scope.c_str());
    context.coveragep()->forcePerInstance(true);
    context.coveragep()->write((std::string(dir) + "/" + instance + "." + fingerprint + ".dat").c_str());
}

}  // namespace creditloop
