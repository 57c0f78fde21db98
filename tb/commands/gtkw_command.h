// `creditloop gtkw`: the GTKWave save file (tb/report/gtkw.h) for waves that creditloop did not
// simulate, so they open with the same layout as a simulation failure's: a formal
// counterexample (scripts/formal.py writes the VCD, then calls this), or waves of your own.
#pragma once

#include <string>
#include <vector>

namespace creditloop {

// `creditloop gtkw ...`: args exclude "creditloop gtkw". Writes <waves without extension>.gtkw
// beside the waves and prints the gtkwave command that opens them. Bad input gets one line
// "creditloop: ..." on stderr and exit 2; a save file that cannot be written, exit 3.
int run_gtkw(const std::vector<std::string>& args);

}  // namespace creditloop
