// What the HTML report (html_report.h) is made from: the JUnit file of `creditloop regress` or
// `creditloop merge`, the coverage JSON beside it, and from the folder that holds them (the build
// folder for make sim) the mutants' kill table (mutants/kills.json) and the plots that exist
// (sweep/, hol/, faults/, network/*.svg).
#pragma once

#include <optional>
#include <string>

#include "html_report.h"

namespace creditloop {

// The page's data; nullopt with one line in `error` when the JUnit file cannot be read or is not
// one of creditloop's. Relative paths in it (waves) are taken from the current directory and
// linked relative to `out_dir`. The commit and date are left for the caller.
std::optional<ReportPage> read_report_inputs(const std::string& junit, const std::string& out_dir, std::string& error);

// Where `creditloop mutants` keeps its kill table for the report, under a build folder.
std::string mutants_kills_path(const std::string& build_root);

}  // namespace creditloop
