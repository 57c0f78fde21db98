// libFuzzer target: the manifest scripts/mutation.py writes and `creditloop mutation --run`
// reads (tb/commands/mutation.h's check_mutation_manifest: the checks made before anything is
// built). A netlist's "rtl" directory is only looked for, relative to the current directory.
//
// The input is the manifest's text. It must be accepted or refused with an error line.
#include <cstdint>

#include "fuzz_support.h"
#include "mutation.h"

using namespace creditloop;
using namespace creditloop::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (const auto problem = check_mutation_manifest(text_of(data, size), "manifest.json", 1))
        expect_error(*problem, "check_mutation_manifest");
    return 0;
}
