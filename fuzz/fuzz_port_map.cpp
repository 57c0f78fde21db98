// libFuzzer target: the port maps of your own RTL (docs/own-rtl.md, tb/dut/port_map.h), the part
// of swap_mapped_counter, swap_mapped_link and use_rtl_map that reads and checks a map before
// any RTL is read (check_map_text): no Verilator, nothing written.
//
// The input: the first line names the option the map was given to (counter, link or rtl), the
// rest is the map's JSON. Its paths are relative to a directory of the scratch directory that
// holds the files the examples name (examples/own_rtl/, rtl/credit_link.map.json), so a valid map
// gets through to its last check. A map must be accepted or refused with an error line.
#include <cstdint>
#include <filesystem>
#include <fstream>

#include "fuzz_support.h"
#include "port_map.h"

using namespace creditloop;
using namespace creditloop::fuzz;

namespace {

std::string base_dir() { return std::string(scratch_dir()) + "/own_rtl/map"; }

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    namespace fs = std::filesystem;
    const fs::path base = base_dir();
    fs::create_directories(base / "include");
    fs::create_directories(base.parent_path() / "include");
    for (const char* file : {"occupancy_credit_counter.sv", "vr_credit_counter.sv", "cbfc_tx.sv", "cbfc_rx.sv",
                             "credit_link.sv", "credit_counter.sv", "credit_counters.sv", "credit_return.sv", "pipeline.sv", "return_policy.sv",
                             "return_port.sv", "rx_buffer.sv", "update_rx.sv", "update_tx.sv", "my.f"})
        std::ofstream(base / file) << "// an empty stand-in: only its existence is checked\n";
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto [option, map] = head_and_rest(text_of(data, size));
    const MapKind kind = option == "link" ? MapKind::link : option == "rtl" ? MapKind::rtl : MapKind::counter;
    const std::string problem = check_map_text(kind, map, base_dir(), "--" + option + " my.map.json");
    if (!problem.empty()) expect_error(problem, "check_map_text");
    return 0;
}
