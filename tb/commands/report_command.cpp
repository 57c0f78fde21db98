#include "report_command.h"

#include <iostream>

#include "cli_parse.h"
#include "dut_library.h"
#include "report_folder.h"

namespace creditloop {

int run_report(const std::vector<std::string>& args) {
    std::string junit = "build/results.xml", out_dir = "build/report";
    bool force = false;
    CLI::App app{"The regression's HTML report (one self-contained index.html) from its JUnit file, the coverage "
                 "JSON beside it and the mutants' table and plots in the same folder.",
                 "creditloop report"};
    app.add_option("--junit", junit, "the JUnit file of creditloop regress or creditloop merge")->capture_default_str();
    app.add_option("--out", out_dir, "the folder index.html goes to")->capture_default_str();
    add_flag(app, "--force", force, "replace an index.html that creditloop did not write");
    ParseError error;
    if (!parse_command(app, args, error)) return parse_failed(error);
    bool bad_input = false;
    const std::string problem =
        write_report_folder(junit, out_dir, DutSources::from_environment().source_root, force, bad_input);
    if (!problem.empty()) {
        std::cerr << "creditloop report: " << problem << "\n";
        return bad_input ? 2 : 3;
    }
    std::cout << "report: " << report_index_path(out_dir) << "\n";
    return 0;
}

}  // namespace creditloop
