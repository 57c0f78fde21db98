// `creditloop tops`: the generated testbench tops (tb/dut/observed_tops.h) written out, for
// reading them or linting them with the design (make lint).
#pragma once

#include <string>
#include <vector>

namespace creditloop {

// `creditloop tops --out DIR [--rtl DIR] [--force]`: args exclude "creditloop tops". Writes
// credit_link_observed.sv and channel_link_observed.sv into --out. Bad input (an unknown option,
// a file there already without --force) gets one line on stderr and exit 2; a file that cannot be
// written, exit 3.
int run_tops(const std::vector<std::string>& args);

}  // namespace creditloop
