// The HTML report's folder (docs/report.md): index.html written from a JUnit file and what lies
// beside it. Written by `creditloop regress --report DIR` (make sim) and `creditloop report`.
#pragma once

#include <string>

namespace creditloop {

// "" when `out_dir` may take the report: it has no index.html, or one this program wrote. Any
// other index.html is the user's and is kept unless `force`.
std::string report_folder_problem(const std::string& out_dir, bool force);

// Reads `junit` (report_inputs.h), stamps the page with the commit of `source_root` (git
// rev-parse --short HEAD, "unknown" without git) and the time now, and writes out_dir/index.html
// whole (through a temporary file). "" or one line saying what went wrong; `bad_input` is set when
// it is the input's fault (no JUnit file of ours, a folder of the user's) rather than the disk's.
std::string write_report_folder(const std::string& junit, const std::string& out_dir, const std::string& source_root,
                                bool force, bool& bad_input);

// out_dir/index.html.
std::string report_index_path(const std::string& out_dir);

}  // namespace creditloop
