// `make mutants`: the regression run against each buggy RTL variant kept in rtl/mutants/.
// Every mutant must be caught; the kill table says by which check, on which cycle, with the
// waveform of the failure.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "dut_library.h"
#include "regression.h"

namespace creditloop {

struct Mutant {
    std::string name;        // file stem, e.g. credit_counter_ifelse_leak
    std::string path;        // rtl/mutants/<name>.mutant, a patch of its block
    std::string replaces;    // the rtl/ file it stands in for, e.g. credit_counter.sv
    std::string bug_class;
    std::string source;      // the seed or public report it comes from
    std::string expect;      // the check of the testbench's own that catches it ("" if not said)
};

// The `// creditloop-mutant: key=value` lines of a mutant file.
std::map<std::string, std::string> mutant_tags(const std::string& path);

// Reads the `// creditloop-mutant: key=value` lines of every rtl/mutants/*.mutant. One error
// line per mutant that does not apply to its block goes to `errors`.
std::vector<Mutant> find_mutants(const std::string& source_root, std::vector<std::string>& errors);

// The RTL set with the mutant applied to its block (written under <build>/mutants/src/).
DutSources mutant_sources(const DutSources& base, const Mutant& mutant);

// "conservation.total, lockstep": the checks that fired on the first failing cycle of a failed
// run, and the first check of the testbench's own when only lockstep and RTL assertions did.
std::string checks_that_fired(const std::vector<Violation>& violations);

// The stimulus every mutant faces, in order, until one catches it.
std::vector<RegressionCase> mutation_cases(uint64_t seed);

struct MutantsCommand {
    std::string filter;              // mutant names (glob or substring)
    uint64_t seed = 1;
    std::string waves_dir = "waves/mutants";
    int jobs = 2;
    bool channels = true;            // the multi-channel link's mutants too (rtl/mutants/channels/)
    std::string emit_dir;            // set: write every mutant's built block here and stop
};

// Prints the kill table; 0 when every mutant is caught, 1 when one survives, 2 bad input,
// 3 a build problem.
int run_mutants(const MutantsCommand& command, const std::string& program);

}  // namespace creditloop
