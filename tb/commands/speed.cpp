#include "speed.h"

#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli_parse.h"
#include "credit_loop_model.h"
#include "dut_library.h"
#include "link_run.h"
#include "stimulus.h"

namespace fs = std::filesystem;

namespace creditloop {

namespace {

long peak_rss_kb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// The checksum keeps the compiler from dropping a loop whose results nobody reads.
uint64_t verilated_alone(LinkDut& dut, const RunSpec& spec) {
    Stimulus stimulus(spec.stimulus, spec.config.payload_bits);
    Observation o;
    uint64_t sends = 0;
    dut.reset();
    for (uint64_t cycle = 0; cycle < spec.cycles; ++cycle) {
        dut.step(stimulus.next(), o);
        stimulus.accepted(o.send);
        sends += o.send;
    }
    return sends;
}

uint64_t model_alone(const RunSpec& spec) {
    Stimulus stimulus(spec.stimulus, spec.config.payload_bits);
    CreditLoopModel model(spec.config);
    uint64_t sends = 0;
    for (uint64_t cycle = 0; cycle < spec.cycles; ++cycle) {
        const Observation& o = model.evaluate(stimulus.next());
        stimulus.accepted(o.send);
        sends += o.send;
        model.update();
    }
    return sends;
}

// Seed 001's Python simulate() written out in C++, line for line (credits, two pipelines of
// bits, a buffer count; the invariant asserted every cycle): what the language alone buys, to set
// the golden model's figure against. It sends only when it has a credit and drains every cycle.
uint64_t seed001_in_cpp(int stages, int buffer, uint64_t cycles) {
    int credits = buffer, buf = 0;
    std::vector<int> fwd(static_cast<size_t>(stages), 0), back(static_cast<size_t>(stages), 0);
    size_t head = 0;   // fwd[-1] and back[-1] of the deques live at head; rotate(1) moves it back
    int in_fwd = 0, in_back = 0;
    uint64_t sends = 0;
    for (uint64_t t = 0; t < cycles; ++t) {
        const int arrive = fwd[head], credit_in = back[head];
        const int send = credits > 0 ? 1 : 0;
        const int pop = buf > 0 ? 1 : 0;
        credits += credit_in - send;
        buf += arrive - pop;
        in_fwd += send - arrive;
        in_back += pop - credit_in;
        fwd[head] = send;
        back[head] = pop;
        head = head == 0 ? fwd.size() - 1 : head - 1;
        if (credits + in_fwd + buf + in_back != buffer || buf < 0 || buf > buffer) return 0;   // the seed's asserts
        sends += static_cast<uint64_t>(send);
    }
    return sends;
}

}  // namespace

std::optional<SpeedCommand> parse_speed(const std::vector<std::string>& args, ParseError& error) {
    SpeedCommand cmd;
    RunSpec& spec = cmd.spec;
    spec.cycles = 10000000;
    CLI::App app{"One timed run of one mode, as one JSON line (make bench runs them in rounds).", "creditloop speed"};
    app.add_option("--mode", cmd.mode, "what is timed: the verilated link alone, the full harness, the golden model "
                                       "alone, a failure replayed with waves, or seed 001's loop in C++")
        ->check(one_of({"verilated", "harness", "model", "replay", "seed001-cpp"}, "a mode"))->capture_default_str();
    add_link_options(app, spec.config.stages, spec.config.buffer_slots, &spec.config.batch);
    app.add_option("--cycles", spec.cycles, "cycles to run")->check(whole_number(1, 100000000000LL))->capture_default_str();
    app.add_option("--fail-at", cmd.fail_at, "replay: the cycle of the failure")->check(whole_number(0, 100000000000LL))->capture_default_str();
    app.add_option("--waves", cmd.waves, "replay: where the waves go")->capture_default_str();
    if (!parse_command(app, args, error)) return std::nullopt;
    if (auto problem = validate(spec)) {
        error.message = *problem;
        return std::nullopt;
    }
    return cmd;
}

int run_speed(const std::vector<std::string>& args) {
    ParseError error;
    auto cmd = parse_speed(args, error);
    if (!cmd) return parse_failed(error);
    const std::string& mode = cmd->mode;
    RunSpec& spec = cmd->spec;
    const uint64_t fail_at = cmd->fail_at;
    const std::string& waves = cmd->waves;

    std::unique_ptr<DutLibrary> library;
    std::unique_ptr<LinkDut> dut;
    if (mode != "model" && mode != "seed001-cpp") {
        std::string load_error;
        // A plugin of this configuration alone at -O2: a bank's idle instances would be timed too.
        DutSources sources = DutSources::from_environment();
        sources.solo = true;
        library = DutLibrary::load(spec.config, sources, load_error);
        if (!library) return refuse(load_error, 3);
        dut = library->create();
    }
    RunOptions options;
    if (mode == "replay") {
        spec.stimulus.reset_tx_at = fail_at;   // conservation.one_sided_reset fires in that cycle
        options.trace_path = waves;
        options.trace_from = fail_at > 200 ? fail_at - 200 : 0;
        options.stop_after_violation = 20;
        std::error_code ec;
        if (fs::path(waves).has_parent_path()) fs::create_directories(fs::path(waves).parent_path(), ec);
    }

    const auto start = std::chrono::steady_clock::now();
    uint64_t sends = 0;
    uint64_t cycles = spec.cycles;
    bool passed = true;
    if (mode == "verilated") {
        sends = verilated_alone(*dut, spec);
    } else if (mode == "model") {
        sends = model_alone(spec);
    } else if (mode == "seed001-cpp") {
        sends = seed001_in_cpp(spec.config.stages, spec.config.buffer_slots, spec.cycles);
        passed = sends != 0;
    } else {
        const RunResult result = run_link(dut.get(), spec, options);
        sends = result.window_sends;
        cycles = result.cycles;
        passed = result.passed;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    nlohmann::ordered_json out;
    out["mode"] = mode;
    out["config"] = spec.config.key();
    out["cycles"] = cycles;
    out["seconds"] = seconds;
    out["cycles_per_s"] = seconds > 0 ? static_cast<double>(cycles) / seconds : 0.0;
    out["sends"] = sends;
    out["passed"] = passed;
    out["max_rss_kb"] = peak_rss_kb();
    std::cout << out.dump() << "\n";
    return 0;
}

}  // namespace creditloop
