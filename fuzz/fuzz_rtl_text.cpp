// libFuzzer target: what creditloop reads out of SystemVerilog text itself, without Verilator:
// a mutant's manifest lines (`// creditloop-mutant: key=value`, tb/commands/mutants.h's
// mutant_tags, read from rtl/mutants/*.sv and any mutant a user adds), the modules a file
// declares and their renaming when two RTL variants share one bank (tb/dut/dut_bank.h's
// declared_modules and rename_modules, run on your own RTL with --rtl, --counter or --return).
//
// The input is one .sv file, written to the scratch directory. Renamed with a suffix, its text
// must declare only suffixed modules: a module left as it was would clash with the same module
// of another variant in the bank.
#include <cstdint>
#include <fstream>

#include "dut_bank.h"
#include "fuzz_support.h"
#include "mutants.h"

using namespace creditloop;
using namespace creditloop::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text = text_of(data, size);
    const std::string file = std::string(scratch_dir()) + "/input.sv";
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    mutant_tags(file);
    const std::vector<std::string> modules = declared_modules({file});
    const std::string renamed = rename_modules(text, modules, "_v1");
    const std::string renamed_file = std::string(scratch_dir()) + "/renamed.sv";
    std::ofstream(renamed_file, std::ios::binary | std::ios::trunc) << renamed;
    for (const auto& m : declared_modules({renamed_file}))
        expect(m.size() > 3 && m.compare(m.size() - 3, 3, "_v1") == 0, "rename_modules left a module unrenamed", m);
    return 0;
}
