#include "tops_command.h"

#include <filesystem>
#include <iostream>

#include "cli_parse.h"
#include "dut_library.h"
#include "observed_tops.h"

namespace fs = std::filesystem;

namespace creditloop {

int run_tops(const std::vector<std::string>& args) {
    std::string out, rtl;
    bool force = false;
    CLI::App app{"The testbench tops the harness drives, as creditloop generates them: credit_link_observed (one "
                 "channel) and channel_link_observed (many), from credit_link's parameter header and the observed "
                 "signals' lists.",
                 "creditloop tops"};
    app.add_option("--out", out, "the folder to write them into (made if missing)")->required();
    app.add_option("--rtl", rtl, "the folder of your credit_link.sv (default: the checkout's rtl/)");
    add_flag(app, "--force", force, "replace the two files if --out has them");
    ParseError error;
    if (!parse_command(app, args, error)) return parse_failed(error);
    DutSources sources = DutSources::from_environment();
    if (!rtl.empty())
        if (const std::string e = use_rtl_directory(sources, rtl); !e.empty()) return refuse(e, 2);
    const fs::path file = rtl.empty() ? fs::path(sources.source_root) / "rtl" / "credit_link.sv" : fs::path(sources.rtl_files.front());
    LinkDeclaration link = credit_link_declaration({file.string()});
    if (link.parameters.empty())
        return refuse(file.string() + " declares no 'module credit_link #(...)': the tops take its parameters from it", 2);
    // The outputs they connect are the contract's, the checkout's credit_link's.
    link.outputs = credit_link_declaration({(fs::path(sources.source_root) / "rtl" / "credit_link.sv").string()}).outputs;
    const std::vector<std::pair<std::string, std::string>> tops = {
        {"credit_link_observed.sv", observed_top_sv(link.parameters, link.outputs)},
        {"channel_link_observed.sv", channel_top_sv(link.parameters, link.outputs)}};
    std::error_code ec;
    for (const auto& [name, text] : tops)
        if (fs::exists(fs::path(out) / name, ec) && !force)
            return refuse((fs::path(out) / name).string() + " exists: give --force to replace it, or another --out", 2);
    fs::create_directories(out, ec);
    for (const auto& [name, text] : tops) {
        if (const std::string e = write_if_changed((fs::path(out) / name).string(), text); !e.empty()) return refuse(e, 3);
        std::cout << (fs::path(out) / name).string() << "\n";
    }
    return 0;
}

}  // namespace creditloop
