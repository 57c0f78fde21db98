// The subcommands of creditloop, declared once in a table (main.cpp): the usage text, the
// dispatch and the unknown-command error are all read from it, so adding a command is one row.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace creditloop {

// A subcommand's entry point: its own arguments (without "creditloop <name>") and how to call
// this program again (for rerun lines). Returns the exit code.
using CommandHandler = int (*)(const std::vector<std::string>& args, const std::string& program);

struct Subcommand {
    std::string name;                                        // "run"
    std::vector<std::pair<std::string, std::string>> forms;  // usage lines: arguments, one-line summary
    CommandHandler handler;
};

// For a handler that makes no rerun lines: run_hol becomes ignoring_program<run_hol>.
template <int (*Handler)(const std::vector<std::string>&)>
int ignoring_program(const std::vector<std::string>& args, const std::string&) {
    return Handler(args);
}

// "usage: creditloop run [options]      check one ...\n       creditloop ...", one line per form.
std::string usage_text(const std::vector<Subcommand>& commands);

// "unknown command 'x': use 'run', ... or 'network' (see 'creditloop --help')"
std::string unknown_command(const std::string& name, const std::vector<Subcommand>& commands);

// Run the command `args` names (args exclude the program name). No arguments: the usage on
// stdout and 2; --help, -h or help: the usage and 0; an unknown command: one error line and 2.
int dispatch(const std::vector<Subcommand>& commands, std::vector<std::string> args, const std::string& program);

}  // namespace creditloop
