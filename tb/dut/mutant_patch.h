// The hand-written mutants of rtl/mutants/ are patches of the live blocks (<name>.mutant; the
// format is in scripts/mutant_patch.py's header, which checks them): '@' lines pin the place, '-'
// lines come out, '+' lines (each saying MUTANT) go in. A mutant is applied to its block as the
// block is when the mutant is built, so it cannot drift from the design it breaks.
#pragma once

#include <string>

namespace creditloop {

// The block (rtl/<replaces>) with the mutant applied; "" and one line in `error` when the
// mutant does not apply (its lines are not found exactly once, an added line is unmarked, ...).
std::string apply_mutant(const std::string& mutant_path, const std::string& rtl_dir, std::string& error);

// Where the mutated blocks are written: <build>/mutants/src.
std::string mutant_build_dir(const std::string& build_root);

// Writes the mutated block to <out_dir>/<mutant's stem>.sv (left alone when it already holds the
// same bytes, so a cached build stays valid) and returns its path; "" and `error` on failure.
std::string build_mutant(const std::string& mutant_path, const std::string& rtl_dir, const std::string& out_dir,
                         std::string& error);

}  // namespace creditloop
