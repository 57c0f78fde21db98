// The observed signals are declared once (cpp_models/observed_signals.def); these tests show
// that what is derived from the list stays in step with it, signal by signal: the names, the
// lockstep compare, the GTKWave save file and the ports of the generated bank.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "channel_observation.h"
#include "dut_bank.h"
#include "gtkw.h"
#include "lockstep.h"
#include "observation.h"
#include "observed_tops.h"
#include "test_support.h"

using namespace creditloop;
using namespace creditloop::testing;
namespace fs = std::filesystem;

namespace {

// `o` with the field of `signal` changed, through the list itself rather than through the code
// under test (x ^ 1 flips a bool and changes a count).
Observation with_changed(Observation o, Signal signal) {
    switch (signal) {
#define CREDITLOOP_OBSERVED_SIGNAL(field, leaf, type, group, width, waves, source, term) \
    case Signal::field: o.field = static_cast<type>(o.field ^ 1u); break;
#include "observed_signals.def"
    }
    return o;
}

// The signal lines of a GTKWave save file (not flags, group names, comments or settings).
std::vector<std::string> shown_signals(const std::string& save) {
    std::vector<std::string> shown;
    std::istringstream lines(save);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty() && line[0] != '@' && line[0] != '-' && line[0] != '[' && line[0] != '*') shown.push_back(line);
    return shown;
}

bool is_driven_port(const char* name) {
    const auto& ports = bank_ports();
    return std::any_of(ports.begin(), ports.end(),
                       [name](const BankPort& p) { return p.input && std::string(p.name) == name; });
}

}  // namespace

TEST_CASE("every observed signal's name round-trips through signal_name and lookup_signal", "[signals]") {
    std::set<std::string> names;
    for (const SignalInfo& s : kObservedSignals) {
        CAPTURE(s.field);
        const std::string name = signal_name(s.signal);
        CHECK(name.rfind("link.", 0) == 0);
        CHECK(lookup_signal(name) == s.signal);
        CHECK(&signal_info(s.signal) == &s);   // the table is indexed by the enum
        names.insert(name);
    }
    CHECK(names.size() == static_cast<size_t>(kSignalCount));   // no two signals share a name
    CHECK_FALSE(lookup_signal("link.sender.nothing").has_value());
    CHECK(std::string(signal_name(Signal::fwd_flits)) == "link.fwd.flits");
    CHECK(std::string(signal_name(Signal::want_send)) == "link.want_send");
}

TEST_CASE("lockstep names exactly the one signal that differs, for every observed signal", "[signals][lockstep]") {
    for (const SignalInfo& s : kObservedSignals) {
        CAPTURE(s.field);
        Observation model;
        model.cycle = 3;
        const Observation rtl = with_changed(model, s.signal);
        CHECK(signal_value(rtl, s.signal) != signal_value(model, s.signal));
        CHECK(differing_signals(model, rtl) == (1u << static_cast<unsigned>(s.signal)));
        LockstepScoreboard lockstep;
        lockstep.expect(model);
        lockstep.step(rtl);
        REQUIRE(lockstep.violations().size() == 1);
        CHECK(lockstep.violations()[0].check == "lockstep");
        CHECK(lockstep.violations()[0].signal == signal_name(s.signal));
        CHECK(lockstep.violations()[0].cycle == 3);
    }
}

TEST_CASE("the GTKWave save file shows every observed signal that is an RTL port", "[signals][waves]") {
    const fs::path dir = fs::temp_directory_path() / "creditloop_signals_gtkw";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const LinkConfig config{5, 8, 2, 16};
    const std::string scope = "bank.creditloop_bank.link_L5_B8_K2_W16";
    Violation first;
    first.cycle = 50;
    first.check = "data.order";
    first.signal = signal_name(Signal::pop_payload);
    const Violation* none = nullptr;
    for (const Violation* violation : {none, static_cast<const Violation*>(&first)}) {
        const std::string path = write_gtkw((dir / "run.vcd").string(), config, scope, violation, 0);
        REQUIRE_FALSE(path.empty());
        const auto shown = shown_signals(creditloop::testing::slurp(path));
        std::set<std::string> ports;
        for (const auto& line : shown) ports.insert(line.substr(0, line.find('[')));
        CHECK(ports.size() == shown.size());   // each signal once
        for (const SignalInfo& s : kObservedSignals) {
            CAPTURE(s.field);
            const bool port = s.source == SignalSource::rtl_output || is_driven_port(s.field);
            CHECK(ports.count(scope + "." + s.field) == (port ? 1u : 0u));
        }
    }
    fs::remove_all(dir);
}

TEST_CASE("the bank connects every observed signal that is an RTL output", "[signals][bank]") {
    const auto& ports = bank_ports();
    for (const SignalInfo& s : kObservedSignals) {
        CAPTURE(s.field);
        const auto port = std::find_if(ports.begin(), ports.end(),
                                       [&s](const BankPort& p) { return std::string(p.name) == s.field; });
        if (s.source == SignalSource::rtl_output) {
            REQUIRE(port != ports.end());
            CHECK_FALSE(port->input);
        } else {
            // An echoed input is either driven (want_send) or the harness's alone (reset_tx).
            CHECK((port == ports.end() || port->input));
        }
    }
    // And the generated header gives the plugin a pointer per port.
    const std::string header = bank_ports_header({{LinkConfig{}, 0, "link_L4_B12_K1_W32"}});
    for (const BankPort& p : ports) CHECK(header.find(std::string("* ") + p.name + ";") != std::string::npos);
}

TEST_CASE("credit_link's parameter header is read as written: comments dropped, nested brackets kept",
          "[signals][tops]") {
    const fs::path file = fs::temp_directory_path() / "creditloop_header_test.sv";
    {
        std::ofstream out(file);
        out << "// module credit_link #(parameter int FAKE = 1) in a comment is not the module\n"
               "module credit_link_other #(parameter int X = 1) ();\nendmodule\n"
               "module credit_link #(\n  parameter int L = 4,   // stages (a comment, with a ')' in it)\n"
               "  parameter logic [16*16-1:0] POOL_B = {16{16'(L)}}, parameter int Q = (2), R = 3,\n"
               "  localparam int N = (L > 1) ? 1 : 2\n) (\n  input logic clk,\n  output logic [N-1:0] a, b, /* c, */\n"
               "  input logic [3:0] d,\n  output logic y   // z\n);\nendmodule\n";
    }
    const LinkDeclaration link = credit_link_declaration({file.string()});
    const std::string& header = link.parameters;
    fs::remove(file);
    CHECK(header == "\n  parameter int L = 4,   \n  parameter logic [16*16-1:0] POOL_B = {16{16'(L)}}, parameter int Q = (2), R = 3,\n"
                    "  localparam int N = (L > 1) ? 1 : 2");
    // Every parameter but the local one is passed down, R too (a declaration without a keyword).
    const std::string top = observed_top_sv(header, link.outputs);
    CHECK(top.find("credit_link #(.L(L), .POOL_B(POOL_B), .Q(Q), .R(R)) dut (") != std::string::npos);
    CHECK(top.find(".N(N)") == std::string::npos);
    // Its outputs, each with the type it was declared with; the top connects them by port.
    REQUIRE(link.outputs.size() == 3);
    CHECK((link.outputs[0].name == "a" && link.outputs[0].range == "[N-1:0]"));
    CHECK((link.outputs[1].name == "b" && link.outputs[1].range == "[N-1:0]"));
    CHECK((link.outputs[2].name == "y" && link.outputs[2].range.empty()));
    CHECK(top.find(",\n    .a (dut_a),\n    .b (dut_b),\n    .y (dut_y));") != std::string::npos);
    CHECK(credit_link_declaration({"/nonexistent/credit_link.sv"}).parameters.empty());
}

TEST_CASE("the generated testbench tops take every parameter of credit_link.sv and every observed signal",
          "[signals][tops]") {
    // credit_link.sv's parameter names, read here by a pattern of this test's own.
    const std::string rtl = slurp(source_dir() + "/rtl/credit_link.sv");
    const LinkDeclaration link = credit_link_declaration({source_dir() + "/rtl/credit_link.sv"});
    const std::string& header = link.parameters;
    REQUIRE_FALSE(header.empty());
    std::vector<std::string> names;
    const std::regex parameter(R"(\n\s*parameter\s+(?:int|logic\s*\[[^\]]*\])\s+(\w+)\s*=)");
    const std::string module = rtl.substr(rtl.find("\nmodule credit_link #("));
    for (auto it = std::sregex_iterator(module.begin(), module.begin() + static_cast<long>(module.find("\n) (")), parameter);
         it != std::sregex_iterator(); ++it)
        names.push_back((*it)[1]);
    REQUIRE(names.size() >= 30);   // the one-channel and the multi-channel parameters
    // And its output ports, which the tops connect by port (and read observed signals from).
    std::set<std::string> outputs;
    const std::regex output(R"(\n\s*output\s+logic\s*(?:\[[^\]]*\])?\s*(\w+))");
    for (auto it = std::sregex_iterator(module.begin(), module.begin() + static_cast<long>(module.find("\n);")), output);
         it != std::sregex_iterator(); ++it)
        outputs.insert((*it)[1]);
    REQUIRE(outputs.size() >= 7);   // grant, eligible, send, send_lane, send_payload, pop, pop_payload
    const auto from = [&](const std::string& name) { return outputs.count(name) ? "dut_" + name : "dut." + name; };
    const std::string one = observed_top_sv(header, link.outputs);
    const std::string many = channel_top_sv(header, link.outputs);
    for (const std::string& name : names) {
        CAPTURE(name);
        CHECK(one.find("." + name + "(" + name + ")") != std::string::npos);
        CHECK(many.find("." + name + "(" + name + ")") != std::string::npos);
    }
    // One output port and one assignment from credit_link's net of the same name per RTL output.
    for (const SignalInfo& s : kObservedSignals) {
        if (s.source != SignalSource::rtl_output) continue;
        CAPTURE(s.field);
        const std::regex port("output logic (\\[[^\\]]*\\] )?" + std::string(s.field) + "[,\n]");
        CHECK(std::regex_search(one, port));
        CHECK(one.find(s.group == SignalGroup::loop ? std::string("dut.u_probe.") + s.field : from(s.field)) != std::string::npos);
    }
    for (const ChannelSignalInfo& s : kChannelSignals) {
        CAPTURE(s.field);
        const int bits = port_width(s.shape, s.width);
        const std::string range = bits > 1 ? "[" + std::to_string(bits - 1) + ":0] " : "";
        CHECK(many.find("output logic " + range + s.field) != std::string::npos);
        CHECK(many.find(std::string("assign ") + s.field + " = " + std::to_string(bits) + "'(" + from(s.field) + ")") != std::string::npos);
    }
    for (const ChannelInputInfo& s : kChannelInputs) CHECK(many.find(std::string(".") + s.field + " (" + s.field + ")") != std::string::npos);
    for (const std::string& name : outputs) {
        CHECK(one.find("." + name + " (dut_" + name + ")") != std::string::npos);
        CHECK(many.find("." + name + " (dut_" + name + ")") != std::string::npos);
    }
}

TEST_CASE("creditloop tops writes both tops, and keeps a file that is there without --force", "[signals][tops][binary]") {
    const fs::path dir = fs::temp_directory_path() / "creditloop_tops_test";
    fs::remove_all(dir);
    CliOutcome o = run_creditloop("tops --out " + dir.string());
    CHECK(o.exit_code == 0);
    CHECK(slurp((dir / "credit_link_observed.sv").string()).find("module credit_link_observed #(") != std::string::npos);
    CHECK(slurp((dir / "channel_link_observed.sv").string()).find("module channel_link_observed #(") != std::string::npos);
    { std::ofstream((dir / "channel_link_observed.sv").string()) << "mine\n"; }
    o = run_creditloop("tops --out " + dir.string());
    CHECK(o.exit_code == 2);
    CHECK(o.err.find("exists: give --force") != std::string::npos);
    CHECK(slurp((dir / "channel_link_observed.sv").string()) == "mine\n");
    CHECK(run_creditloop("tops --out " + dir.string() + " --force").exit_code == 0);
    CHECK(slurp((dir / "channel_link_observed.sv").string()).find("module channel_link_observed") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a generated top written by several writers at once is always whole", "[signals][tops]") {
    // Two regressions sharing a build folder generate the same top at the same moment: each must
    // succeed and leave the whole file, not fail on the other's temporary.
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("creditloop_tops_race_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string path = (dir / "top.sv").string();
    for (int round = 0; round < 40; ++round) {
        const std::string text = "module top_" + std::to_string(round) + ";\n" + std::string(4096, 'x') + "\nendmodule\n";
        std::vector<std::string> errors(4);
        std::vector<std::thread> writers;
        for (size_t w = 0; w < errors.size(); ++w) writers.emplace_back([&, w] { errors[w] = write_if_changed(path, text); });
        for (auto& t : writers) t.join();
        for (const auto& error : errors) CHECK(error.empty());
        CHECK(testing::slurp(path) == text);
    }
    std::vector<std::string> left;
    for (const auto& entry : fs::directory_iterator(dir)) left.push_back(entry.path().filename().string());
    CHECK(left == std::vector<std::string>{"top.sv"});   // no temporary left behind
    fs::remove_all(dir);
}
