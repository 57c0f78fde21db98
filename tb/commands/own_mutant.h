// A mutant of your own RTL in run and regress: `--mutant PATH.mutant` with the map of the files it
// patches (tb/dut/port_map.h applies it). A --mutant that is neither an existing file nor ends in
// .mutant is a mutant of rtl/mutants/ by name, for creditloop's own link.
#pragma once

#include <string>

#include "parse_error.h"

namespace creditloop {

// The option whose map takes `mutant` (a .mutant file: is_mutant_file()), "--counter", "--link"
// or "--rtl", in `option`; given the run's --counter, --link and --rtl values. The problem:
// no such file, no map, or more than one map.
Problem map_for_mutant(const std::string& mutant, const std::string& counter_file, const std::string& link_map,
                           const std::string& rtl_dir, std::string& option);

}  // namespace creditloop
