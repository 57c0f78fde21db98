// The testbench tops the harness drives, generated: credit_link_observed (one channel, the
// observation of cpp_models/observed_signals.def) and channel_link_observed (any number of
// channels at fixed port widths, cpp_models/channel_signals.def).
//
// Each list comes from its one declaration:
//   parameters  credit_link's own header (rtl/credit_link.sv, or the design's credit_link),
//               declared verbatim and passed down whole;
//   ports       the clock and resets, then the stimulus (tb/harness/driven_ports.def, or
//               cpp_models/channel_inputs.def), then the observation (the signals' .def);
//   the body    connects credit_link's outputs by port and reads each other observed signal
//               from credit_link's internal signal of the same name
//               (the probe's credit_total from the bound probe), pool 0 and lane 0 for the
//               one-channel top, every pool and lane at fixed widths for the channel top.
// Adding an observed signal is one line in its .def; adding a parameter, one in credit_link.sv.
#pragma once

#include <string>
#include <vector>

namespace creditloop {

struct LinkPort {
    std::string range;   // "[NLANE*W-1:0]", or "" for one bit
    std::string name;
};
// module credit_link as the first of `files` that declares it has it (comments dropped): its
// parameter list (the text between `#(` and its `)`; "" when no file declares it) and its output
// ports. The tops pass the design's parameters down and connect the outputs of the checkout's
// credit_link (the contract: a design without one of them is refused, naming it).
struct LinkDeclaration {
    std::string parameters;
    std::vector<LinkPort> outputs;
};
LinkDeclaration credit_link_declaration(const std::vector<std::string>& files);

// `module credit_link_observed #(<header>) (<ports>);` without a body: the one-channel top's
// interface, which a mapped link's generated top (port_map.cpp) keeps too.
std::string observed_top_interface(const std::string& parameter_header);
// The whole one-channel top around credit_link, and the channel top.
std::string observed_top_sv(const std::string& parameter_header, const std::vector<LinkPort>& outputs);
std::string channel_top_sv(const std::string& parameter_header, const std::vector<LinkPort>& outputs);

// Writes `text` to `path` unless it already holds exactly that (so a stamp or a build that
// reads the file sees no change); "" or the error. Safe when several processes or threads write
// the same path at once: the file is always whole.
std::string write_if_changed(const std::string& path, const std::string& text);

}  // namespace creditloop
