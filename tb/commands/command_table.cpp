#include "command_table.h"

#include <algorithm>
#include <iostream>

#include "parse_error.h"

namespace creditloop {

namespace {

// The summaries start in this column of "creditloop <name> <arguments>" (a longer one is
// followed by two spaces instead).
constexpr size_t kSummaryColumn = 19;

}  // namespace

std::string usage_text(const std::vector<Subcommand>& commands) {
    std::string out;
    for (const auto& command : commands) {
        for (const auto& [arguments, summary] : command.forms) {
            const std::string synopsis = command.name + (arguments.empty() ? "" : " " + arguments);
            out += (out.empty() ? "usage: creditloop " : "       creditloop ") + synopsis;
            out += std::string(synopsis.size() < kSummaryColumn ? kSummaryColumn - synopsis.size() : 2, ' ');
            out += summary + "\n";
        }
    }
    return out + "'creditloop <command> --help' lists a command's options.\n";
}

std::string unknown_command(const std::string& name, const std::vector<Subcommand>& commands) {
    std::string names;
    for (size_t i = 0; i < commands.size(); ++i)
        names += (i == 0 ? "" : i + 1 == commands.size() ? " or " : ", ") + ("'" + commands[i].name + "'");
    return "unknown command '" + name + "': use " + names + " (see 'creditloop --help')";
}

int dispatch(const std::vector<Subcommand>& commands, std::vector<std::string> args, const std::string& program) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << usage_text(commands);
        return args.empty() ? 2 : 0;
    }
    const std::string name = args[0];
    args.erase(args.begin());
    const auto command = std::find_if(commands.begin(), commands.end(), [&](const Subcommand& c) { return c.name == name; });
    if (command == commands.end()) return refuse(unknown_command(name, commands));
    return command->handler(args, program);
}

}  // namespace creditloop
