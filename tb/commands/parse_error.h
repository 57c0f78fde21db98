// What a subcommand's option parsing says when it fails: kept apart from cli_parse.h so the
// headers that declare commands (cli.h, regression.h, ...) do not pull CLI11 into every file.
#pragma once

#include <optional>
#include <string>

namespace creditloop {

// What a check in the command layer returns: nothing when all is well, else one line that names
// the problem and the fix (the caller prints "creditloop: <line>" and exits 2, or 3 for a file or
// a build). The one convention for the commands' checks: no "" for success, no out-parameter.
using Problem = std::optional<std::string>;

struct ParseError {
    std::string message;   // one line; with help set, the help text instead
    bool help = false;     // --help was asked for: print message to stdout and exit 0
};

// Print `problem` as creditloop's one line on stderr ("creditloop: <problem>") and return
// `exit_code`: 2 for bad input, 3 for a build or file problem.
int refuse(const std::string& problem, int exit_code = 2);

// What a subcommand returns when its parse failed: 0 after printing the help, else 2 after
// printing "creditloop: <message>" to stderr.
int parse_failed(const ParseError& error);

}  // namespace creditloop
