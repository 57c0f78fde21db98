// What a subcommand's option parsing says when it fails: kept apart from cli_parse.h so the
// headers that declare commands (cli.h, regression.h, ...) do not pull CLI11 into every file.
#pragma once

#include <string>

namespace creditloop {

struct ParseError {
    std::string message;   // one line; with help set, the help text instead
    bool help = false;     // --help was asked for: print message to stdout and exit 0
};

// What a subcommand returns when its parse failed: 0 after printing the help, else 2 after
// printing "creditloop: <message>" to stderr.
int parse_failed(const ParseError& error);

}  // namespace creditloop
