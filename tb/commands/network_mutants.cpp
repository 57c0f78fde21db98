// `creditloop network --mutants` (network_command.h): the network's mutants, each a patch of the
// live RTL (rtl/mutants/noc/*.mutant), run as its header says and required to fail first at the
// check it names.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "mutant_patch.h"
#include "network_bank.h"
#include "network_command.h"

namespace fs = std::filesystem;

namespace creditloop {

namespace {

struct NetworkMutant {
    std::string path, name, expect, args_text;
    NetworkRequest request;
    std::vector<std::string> rtl;
};

// The value of `// creditloop-<tag>: ` lines (the mutant's run, its expected check).
std::string header_value(const std::string& path, const std::string& tag) {
    std::ifstream in(path);
    std::string line;
    const std::string prefix = "// creditloop-" + tag;
    while (std::getline(in, line))
        if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
    return "";
}

}  // namespace

int run_network_mutants(const DutSources& sources, const std::string& program) {
    const fs::path dir = fs::path(sources.source_root) / "rtl" / "mutants" / "noc";
    std::vector<NetworkMutant> mutants;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.path().extension() == ".mutant") mutants.push_back({entry.path().string(), entry.path().stem().string(), "", "", {}, {}});
    if (mutants.empty()) {
        std::cerr << "creditloop: no network mutants in " << dir.string() << "\n";
        return 3;
    }
    std::sort(mutants.begin(), mutants.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    std::vector<NetworkWanted> wanted;
    for (auto& m : mutants) {
        m.args_text = header_value(m.path, "network:");
        const std::string expect = header_value(m.path, "mutant: expect=");
        m.expect = expect;
        std::istringstream words(m.args_text);
        std::vector<std::string> args;
        for (std::string w; words >> w;) args.push_back(w);
        ParseError parse_error;
        const auto request = parse_network_request(args, parse_error);
        if (!request || m.expect.empty()) {
            std::cerr << "creditloop: " << m.path << ": "
                      << (!request && !parse_error.help ? "its '// creditloop-network:' line: " + parse_error.message
                                                  : "needs a '// creditloop-network: <network options>' line and a "
                                                    "'// creditloop-mutant: expect=<check>' line")
                      << "\n";
            return 2;
        }
        m.request = *request;
        std::string error;
        m.rtl = network_mutant_rtl(m.path, sources, error);
        if (m.rtl.empty()) {
            std::cerr << "creditloop: " << m.path << ": " << error << "\n";
            return 2;
        }
        wanted.push_back({m.request.spec.config, m.rtl});
    }
    if (const Problem e = build_networks(wanted, sources, "building " + std::to_string(mutants.size()) + " network mutants")) return refuse(*e, 3);
    int escaped = 0;
    std::cout << "| mutant | network | expected check | caught by | first failure |\n|---|---|---|---|---|\n";
    for (const auto& m : mutants) {
        std::string error;
        auto lib = NetworkLibrary::load({m.request.spec.config, m.rtl}, sources, error);
        if (!lib) return refuse(error, 3);
        auto dut = lib->create();
        std::ostringstream lines;
        const NetworkVerdict v = check_network(m.request, dut.get(), lines, nullptr);
        std::string first;
        std::istringstream all(lines.str());
        for (std::string line; std::getline(all, line);)
            if (line.rfind("FAIL ", 0) == 0) {
                first = line.substr(5);
                break;
            }
        const bool caught = v.first_check == m.expect;
        escaped += caught ? 0 : 1;
        std::cout << "| " << m.name << " | " << noc_key(m.request.spec.config) << " | " << m.expect << " | "
                  << (v.failures ? v.first_check : std::string("ESCAPED")) << (caught ? "" : " (WRONG)") << " | " << first << " |\n";
    }
    std::cout << "\n" << mutants.size() - size_t(escaped) << " of " << mutants.size() << " network mutants caught by their expected check"
              << (escaped ? "; rerun one: " + program + " network --mutant rtl/mutants/noc/<name>.mutant <its network: line>" : "") << "\n";
    return escaped ? 1 : 0;
}

}  // namespace creditloop
