#include "size_command.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "cli_parse.h"
#include "size_units.h"

namespace creditloop {

const char* const kSizeUsage =
    "Units: --bandwidth takes B/s KB/s MB/s GB/s TB/s (decimal SI: 16 GB/s = 16e9 B/s), KiB/s MiB/s\n"
    "GiB/s TiB/s (binary: 1 GiB/s = 2^30 B/s), b/s Kb/s Mb/s Gb/s Tb/s (bits, also Gbps, Gbit/s:\n"
    "divided by 8), B/cycle or bytes/cycle (per clock cycle), flits/cycle (with --flit-bytes).\n"
    "--rtt takes ps ns us (or \u00b5s) ms s, or cycles: the credit round trip, from spending a credit to\n"
    "spending it again (wires, logic, return arbitration, counter update); size from the worst case.\n"
    "A space between number and unit is fine (\"16 GB/s\", \"0.5 us\"). B is bytes and b is bits, so\n"
    "\"gb/s\" is refused as ambiguous. A buffer holds whole credits: a fractional need is rounded up,\n"
    "and the output says so.\n"
    "\n"
    "examples:\n"
    "  creditloop size --bandwidth 16GB/s --rtt 500ns --credit-bytes 16\n"
    "  creditloop size --bandwidth 64B/cycle --rtt 10cycles --flit-bytes 64 --credit-message-bytes 8 --batch 4\n"
    "  creditloop size --bandwidth 128Gb/s --clock 1GHz --rtt 40cycles --flit-bytes 32\n";


std::optional<SizeInputs> parse_size(const std::vector<std::string>& args, SizeParseError& error) {
    SizeInputs in;
    CLI::App app{"The receiver buffer a credit loop needs: buffer >= bandwidth x credit round trip.",
                 "creditloop size"};
    // A quantity may come as one word or two ("500ns", "500 ns" unquoted): up to two values.
    std::vector<std::string> bandwidth, rtt, clock, flit_bytes, credit_bytes, message_bytes;
    auto* bandwidth_option = app.add_option("--bandwidth", bandwidth, "link bandwidth, one direction, at full rate (16GB/s)")->expected(1, 2);
    auto* rtt_option = app.add_option("--rtt", rtt, "credit round trip (500ns, 40cycles)")->expected(1, 2);
    app.add_option("--clock", clock, "the clock, to mix cycles with seconds: Hz kHz MHz GHz, or a period (1.25ns)")->expected(1, 2);
    app.add_option("--flit-bytes", flit_bytes, "bytes per flit (a whole number)")->expected(1, 2);
    app.add_option("--credit-bytes", credit_bytes, "bytes of buffer one credit stands for (default --flit-bytes; 16 for PCIe data credits)")->expected(1, 2);
    app.add_option("--credit-message-bytes", message_bytes,
                   "bytes of one credit-return message: its share of the forward bandwidth is N / credit bytes, "
                   "or N / (K x credit bytes) with --batch K")->expected(1, 2);
    std::string batch_text, rate_text;
    app.add_option("--batch", batch_text, "credits returned per message (default 1): full rate needs K - 1 more credits of buffer");
    app.add_option("--rate", rate_text, "fraction of peak the link must sustain, 0 < R <= 1 or a percentage (default 1)");
    add_flag(app, "--json", in.json, "print one JSON object");
    app.footer(kSizeUsage);
    ParseError parse_error;
    if (!parse_command(app, args, parse_error)) {
        in.help = parse_error.help;
        error.message = parse_error.message;
        return in.help ? std::optional<SizeInputs>(in) : std::nullopt;
    }
    // The two words of a quantity: a bare number then its unit. A second word after a number that
    // already has its unit is no part of it.
    const auto quantity = [&](const char* name, const std::vector<std::string>& words, std::string& text) {
        text = words.empty() ? "" : words[0];
        if (words.size() < 2) return true;
        double number = 0;
        std::string unit;
        if (split_quantity(words[0], number, unit) && unit.empty()) {
            text += " " + words[1];
            return true;
        }
        error.message = "unknown option '" + words[1] + "' for 'creditloop size' (after " + name + " " + words[0] +
                        "): see 'creditloop size --help'";
        return false;
    };
    std::string text, bandwidth_text, message_text;
    if (!quantity("--bandwidth", bandwidth, bandwidth_text) || !quantity("--rtt", rtt, text)) return std::nullopt;
    const bool have_bandwidth = bandwidth_option->count() > 0, have_rtt = rtt_option->count() > 0;
    if (have_bandwidth && !parse_bandwidth("--bandwidth", bandwidth_text, in.bandwidth, error)) return std::nullopt;
    if (have_rtt && !parse_duration("--rtt", text, in.round_trip, error)) return std::nullopt;
    if (!clock.empty()) {
        double hz = 0;
        if (!quantity("--clock", clock, text) || !parse_clock("--clock", text, hz, error)) return std::nullopt;
        in.clock_hz = hz;
    }
    for (auto [name, words, target] : {std::tuple{"--flit-bytes", &flit_bytes, &in.flit_bytes},
                                       std::tuple{"--credit-bytes", &credit_bytes, &in.credit_bytes}}) {
        if (words->empty()) continue;
        long long bytes = 0;
        if (!quantity(name, *words, text) || !parse_whole_bytes(name, text, bytes, error)) return std::nullopt;
        *target = bytes;
    }
    if (!message_bytes.empty()) {
        const std::string opt = "--credit-message-bytes";
        if (!quantity("--credit-message-bytes", message_bytes, message_text)) return std::nullopt;
        double number = 0;
        std::string unit;
        if (!split_quantity(message_text, number, unit) || !(unit.empty() || one_of(lower(unit), {"byte", "bytes"}) || unit == "B")) {
            error.message = echo(opt, message_text) + " is not a number of bytes: write e.g. " + opt + " 8";
            return std::nullopt;
        }
        if (!(number > 0) || number > kMaxSizeBytes) {
            error.message = echo(opt, message_text) + " is out of range: allowed 0 < N <= " +
                            with_commas(std::to_string(kMaxSizeBytes)) + " bytes";
            return std::nullopt;
        }
        in.credit_message_bytes = number;
    }
    if (!batch_text.empty()) {
        double number = 0;
        std::string unit;
        if (!split_quantity(batch_text, number, unit) || !unit.empty() || !is_whole(number) || number < 1 || number > kMaxBatch) {
            error.message = echo("--batch", batch_text) + " is not a whole number in range: allowed 1.." +
                            with_commas(std::to_string(kMaxBatch)) + " credits per return message";
            return std::nullopt;
        }
        in.batch = static_cast<long long>(number);
    }
    if (!rate_text.empty()) {
        double number = 0;
        std::string unit;
        const bool parsed = split_quantity(rate_text, number, unit) && (unit.empty() || unit == "%");
        if (parsed && unit == "%") number /= 100.0;
        if (!parsed || !(number > 0 && number <= 1)) {
            error.message = echo("--rate", rate_text) + " is out of range: allowed 0 < R <= 1 or 0% < R <= 100% "
                            "(the fraction of peak the link must sustain)";
            return std::nullopt;
        }
        in.rate = number;
    }
    const char* example = "creditloop size --bandwidth 16GB/s --rtt 500ns --credit-bytes 16";
    if (!have_bandwidth && !have_rtt) {
        error.message = "size needs --bandwidth and --rtt: e.g. '" + std::string(example) + "'";
        return std::nullopt;
    }
    if (!have_bandwidth) {
        error.message = "--bandwidth is required: e.g. --bandwidth 16GB/s (see 'creditloop size --help')";
        return std::nullopt;
    }
    if (!have_rtt) {
        error.message = "--rtt is required: the credit round trip, e.g. --rtt 500ns or --rtt 40cycles";
        return std::nullopt;
    }
    if (in.bandwidth.flits_per_base > 0) {
        if (!in.flit_bytes) {
            error.message = echo("--bandwidth", bandwidth_text) + " is in flits: add --flit-bytes N, the bytes a flit carries";
            return std::nullopt;
        }
        in.bandwidth.bytes_per_base = in.bandwidth.flits_per_base * static_cast<double>(*in.flit_bytes);
    }
    const bool have_credit_size = in.flit_bytes || in.credit_bytes;
    if (in.batch && !have_credit_size) {
        error.message = echo("--batch", batch_text) + " needs --flit-bytes or --credit-bytes: the extra buffer is K - 1 credits of that size";
        return std::nullopt;
    }
    if (in.credit_message_bytes && !have_credit_size) {
        error.message = echo("--credit-message-bytes", message_text) +
                        " needs --flit-bytes or --credit-bytes: its share of the forward bandwidth is message / credit bytes";
        return std::nullopt;
    }
    return in;
}

int run_size(const std::vector<std::string>& args) {
    SizeParseError error;
    const auto inputs = parse_size(args, error);
    if (!inputs) return refuse(error.message);
    if (inputs->help) {
        std::cout << error.message;   // the help text
        return 0;
    }
    const auto result = compute_size(*inputs, error);
    if (!result) return refuse(error.message);
    if (inputs->json) std::cout << size_json(*inputs, *result) << "\n";
    else std::cout << size_text(*inputs, *result);
    return 0;
}

}  // namespace creditloop
