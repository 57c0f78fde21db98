// A fatal error of the verilated model (Verilator's vl_fatal: a design whose combinational logic
// does not settle, a $fatal, a runtime limit) raised as an exception instead of abort(), so the
// run that hit it ends with a verdict: the run loop records it as the violation rtl.fatal at the
// cycle it happened, prints the summary and exits 1 (docs/checks.md). The runtime
// (libcreditloop_vlrt.so, tb/vlrt/verilated_fatal.cpp) throws it; the run loop catches it.
#pragma once

#include <stdexcept>
#include <string>

namespace creditloop {

// Visible across the runtime, the plugins and the harness, so a catch by type sees one type.
class __attribute__((visibility("default"))) VerilatedFatal : public std::runtime_error {
public:
    VerilatedFatal(std::string where, std::string message)
        : std::runtime_error(where.empty() ? message : where + ": " + message),
          where_(std::move(where)),
          message_(std::move(message)) {}
    const std::string& where() const { return where_; }       // "file:line" as Verilator gives it, or ""
    const std::string& message() const { return message_; }   // Verilator's own words

private:
    std::string where_, message_;
};

// A failed assertion of the verilated model (or its $error, $stop): where Verilator places it,
// the scope it names (TOP.<instances>.<label>) and its message. Empty `where`: none.
struct RtlStop {
    std::string where, scope, message;
};

// The first failed assertion on this thread since the record was last cleared (the run loop
// clears it before each run). Defined by creditloop's Verilator runtime; weak, so a harness built
// on Verilator's own runtime (the SystemC one) links without it and sees nullptr.
__attribute__((weak, visibility("default"))) RtlStop* rtl_stop_record();

}  // namespace creditloop
