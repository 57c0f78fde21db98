#include "dut_detail.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "observed_tops.h"
#include "process.h"


namespace creditloop::dut_detail {


std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// FNV-1a, 64 bits: a content stamp, not a security boundary.
uint64_t fnv1a(const std::string& text, uint64_t hash) {
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 0x100000001b3ull;
    }
    return hash;
}

std::vector<std::string> sv_files_in(const fs::path& rtl) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(rtl, ec)) {
        if (entry.is_regular_file() && entry.path().extension() == ".sv")
            files.push_back(entry.path().string());
    }
    // The top first, the rest in a fixed order: the same inputs give the same build.
    std::sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
        const bool a_top = fs::path(a).filename() == "credit_link.sv";
        const bool b_top = fs::path(b).filename() == "credit_link.sv";
        if (a_top != b_top) return a_top;
        return a < b;
    });
    return files;
}

std::vector<std::string> design_files(const DutSources& sources) {
    return sources.rtl_files.empty() ? sv_files_in(fs::path(sources.source_root) / "rtl") : sources.rtl_files;
}

std::string generated_top(const DutSources& sources, const std::string& name, const std::string& text) {
    // Under a folder named for its text: designs whose credit_link headers differ get tops of their own.
    const fs::path dir = fs::path(sources.build_root) / "blocks" / "tops" / hex(fnv1a(text));
    std::error_code ec;
    fs::create_directories(dir, ec);
    const std::string path = (dir / name).string();
    if (const std::string error = write_if_changed(path, text); !error.empty())
        throw std::runtime_error(error + " (the generated testbench top; is the build folder writable?)");
    return path;
}

LinkDeclaration top_declaration(const DutSources& sources, const std::vector<std::string>& design) {
    const LinkDeclaration contract = credit_link_declaration({(fs::path(sources.source_root) / "rtl" / "credit_link.sv").string()});
    LinkDeclaration link = credit_link_declaration(design);
    if (link.parameters.empty()) link.parameters = contract.parameters;
    link.outputs = contract.outputs;
    return link;
}

std::vector<std::string> rtl_files(const DutSources& sources) {
    std::vector<std::string> files = design_files(sources);
    // The testbench top, generated (observed_tops.h), and the probe it binds into the design,
    // whichever design (a link of your own, mapped, comes with a generated top of its own).
    if (sources.own_top) return files;
    const LinkDeclaration link = top_declaration(sources, files);
    files.push_back(generated_top(sources, "credit_link_observed.sv", observed_top_sv(link.parameters, link.outputs)));
    files.push_back((fs::path(sources.source_root) / "rtl" / "observe" / "credit_link_probe.sv").string());
    return files;
}

std::string runtime_dir(const DutSources& sources) {
    return sources.runtime_dir.empty() ? sources.build_root : sources.runtime_dir;
}

std::string runtime_library(const DutSources& sources) {
    return (fs::path(runtime_dir(sources)) / "libcreditloop_vlrt.so").string();
}

std::vector<std::string> core_libraries(const DutSources& sources) {
    std::vector<std::string> libraries;
    for (const char* layer : {"commands", "dut", "analysis", "report", "harness", "scoreboards", "model", "common"})
        libraries.push_back((fs::path(runtime_dir(sources)) / ("libcreditloop_" + std::string(layer) + ".a")).string());
    return libraries;
}

std::string hex(uint64_t value) { return fmt::format("{:016x}", value); }

const char* coverage_flavour() {
#ifdef CREDITLOOP_COVERAGE
    return " coverage";
#else
    return "";
#endif
}

// Run argv with its output appended to `log` (process.h); while it runs, `status` hears how far
// the build is ("compiling: 40 %", from CMake's "[ 40%]" lines).
int run_logged(const std::vector<std::string>& argv, const std::string& log, const BuildStatus& status,
               const std::string& phase) {
    if (!status) return run_to_log(argv, log);
    return run_to_log(argv, log, [&] {
        const std::string text = read_file(log);
        const auto at = text.rfind("%]");
        if (at == std::string::npos || at < 3) return;
        const auto open = text.rfind('[', at);
        if (open != std::string::npos) status(phase + ": " + text.substr(open + 1, at - open - 1) + " %");
    });
}

// The first line of the build log that says what went wrong. A port the harness needs but the
// RTL top lacks shows up as a pin the generated bank cannot connect (or, for the SystemC
// harness, as a C++ error on the verilated class); say it in RTL terms.
std::string first_error_line(const std::string& log) {
    std::istringstream in(read_file(log));
    std::string line;
    const auto quoted_after = [](const std::string& rest) {
        // g++ and Verilator quote a name as 'name' or with UTF-8 quotes; keep what lies between.
        std::string name;
        bool inside = false;
        for (size_t i = 0; i < rest.size(); ++i) {
            const bool quote = rest[i] == '\'' || (static_cast<unsigned char>(rest[i]) == 0xe2 && i + 2 < rest.size());
            if (quote) {
                if (inside) break;
                inside = true;
                if (rest[i] != '\'') i += 2;
                continue;
            }
            if (inside) name += rest[i];
        }
        return name;
    };
    const auto no_port = [](const std::string& port) {
        return "the RTL top credit_link has no port '" + port +
               "'; its ports must match rtl/credit_link.sv (see docs/own-rtl.md)";
    };
    while (std::getline(in, line)) {
        // The probe (rtl/observe/credit_link_probe.sv) binds to the design's internal signals by name.
        const auto undefined = line.find("Can't find definition of variable:");
        if (undefined != std::string::npos &&
            (line.find("credit_link_probe.sv") != std::string::npos || line.find("link_signals.svh") != std::string::npos))
            return "credit_link has no signal '" + quoted_after(line.substr(line.find(':', undefined))) +
                   "' for the observation probe (rtl/observe/credit_link_probe.sv binds to it by name; see "
                   "docs/own-rtl.md)";
        // Verilator: "Pin not found: 'x'", or "Pin is not an in/out/inout/...: 'x'" when the
        // name is an internal signal.
        for (const char* pin_error : {"Pin not found:", "Pin is not an in/out"}) {
            const auto pin = line.find(pin_error);
            if (pin != std::string::npos && line.rfind("%Error", 0) == 0) return no_port(quoted_after(line.substr(pin)));
        }
        const auto member = line.find("has no member named");
        if (member != std::string::npos && line.find("Vcredit_link") != std::string::npos)
            return no_port(quoted_after(line.substr(member + 19)));
        if (line.rfind("%Error", 0) == 0 || line.rfind("%Warning", 0) == 0 ||
            line.find("error:") != std::string::npos || line.find("CMake Error") != std::string::npos)
            return line;
    }
    return "";
}

// The port a "no port" error names, or "" when the error is about something else.
bool missing_port(const std::string& error) { return error.find("has no port '") != std::string::npos; }


}  // namespace creditloop::dut_detail
