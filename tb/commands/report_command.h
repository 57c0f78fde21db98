// `creditloop report`: the HTML report (docs/report.md) of a JUnit file already written, such as
// the merged file of a sharded run; `creditloop regress --report DIR` writes the same page.
#pragma once

#include <string>
#include <vector>

namespace creditloop {

// args exclude "creditloop report". 0 written; 2 bad input (no such JUnit file, an index.html
// of the user's in the folder without --force), one line on stderr; 3 it cannot be written.
int run_report(const std::vector<std::string>& args);

}  // namespace creditloop
