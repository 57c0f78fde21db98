// The device under test as the harness sees it: one credit link that takes a LinkInputs and
// gives back an Observation every cycle. The verilated RTL implements it inside a plugin
// (verilated_link.cpp, one shared object per bank of configurations); nothing outside the plugin
// includes a Verilator header.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "link_config.h"
#include "link_inputs.h"
#include "observation.h"

namespace creditloop {

class LinkDut {
public:
    virtual ~LinkDut() = default;

    // Hold rst_n low across two rising edges, release it; the next step() is cycle 0.
    virtual void reset() = 0;
    // One cycle: drive `in`, let the logic settle, fill `out` from the observation ports,
    // then give the clock its rising edge.
    virtual void step(const LinkInputs& in, Observation& out) = 0;
    // Waveforms from now on into `path` (VCD or FST, as the plugin was built); an empty
    // string on success, otherwise what went wrong.
    virtual std::string open_trace(const std::string& path) = 0;
    // Flush and close the waveform; safe to call when none is open. "" when every byte was
    // written, else what went wrong (a full disk): the file is then incomplete.
    virtual std::string close_trace() = 0;
    // The cycle of the first failed RTL assertion ($error under --assert), if any. Verilator
    // prints that one; later ones are silenced, as the first is the one that matters.
    virtual std::optional<uint64_t> first_assertion_cycle() const = 0;
};

// Plugin ABI: each shared object is a bank of instances (dut_bank.h) and exports these with C
// linkage. describe() gives an instance's configuration, the trace format and the scope its
// signals have in the waves; create() a LinkDut driving that instance (nullptr: no such index),
// whose VerilatedContext gets `argc` plusargs ("+name=value") for the RTL's $value$plusargs /
// $test$plusargs (argv may be null when argc is 0).
constexpr int kDutAbiVersion = 6;
using DutAbiVersionFn = int (*)();
using DutBankSizeFn = int (*)();
using DutDescribeFn = void (*)(int index, LinkConfig* config, const char** trace_format, const char** trace_scope);
using DutCreateFn = LinkDut* (*)(int index, int argc, const char* const* argv);

}  // namespace creditloop
