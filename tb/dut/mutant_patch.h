// The hand-written mutants of rtl/mutants/ are patches of the live blocks (<name>.mutant; the
// format is in scripts/mutant_patch.py's header, which checks them): '@' lines pin the place, '-'
// lines come out, '+' lines (each saying MUTANT) go in. A mutant is applied to its block as the
// block is when the mutant is built, so it cannot drift from the design it breaks. A mutant of
// your own RTL (examples/own_rtl/*/mutants/) is the same kind of patch, of a file a port map names.
#pragma once

#include <string>

namespace creditloop {

// The block (<rtl_dir>/<replaces>) with the mutant applied; "" and one line in `error` when the
// mutant does not apply (its lines are not found exactly once, an added line is unmarked, ...).
// `rtl_dir` is rtl/ for the project's mutants, the folder of the file it patches for your own.
std::string apply_mutant(const std::string& mutant_path, const std::string& rtl_dir, std::string& error);

// The file name a mutant patches (its `// creditloop-mutant: replaces=` value), or "".
std::string mutant_replaces(const std::string& mutant_path);

// Whether a --mutant value is a .mutant file of your own (a path that exists, or one ending in
// .mutant) rather than the name of a mutant of rtl/mutants/.
bool is_mutant_file(const std::string& value);

// Where the mutated blocks are written: <build>/mutants/src.
std::string mutant_build_dir(const std::string& build_root);

// Writes the mutated block to <out_dir>/<mutant's stem>.sv (left alone when it already holds the
// same bytes, so a cached build stays valid) and returns its path; "" and `error` on failure.
std::string build_mutant(const std::string& mutant_path, const std::string& rtl_dir, const std::string& out_dir,
                         std::string& error);

}  // namespace creditloop
