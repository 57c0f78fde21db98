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

std::optional<SizeResult> compute_size(const SizeInputs& in, SizeParseError& error) {
    SizeResult out;
    const Bandwidth& bw = in.bandwidth;
    const Duration& rtt = in.round_trip;
    const bool bw_per_second = bw.base == TimeBase::seconds;
    const bool rtt_in_seconds = rtt.base == TimeBase::seconds;

    if (bw_per_second) out.bandwidth_bytes_per_second = bw.bytes_per_base;
    else out.bandwidth_bytes_per_cycle = bw.bytes_per_base;
    if (rtt_in_seconds) out.round_trip_seconds = rtt.value;
    else out.round_trip_cycles = rtt.value;
    if (in.clock_hz) {
        const double hz = *in.clock_hz;
        if (bw_per_second) out.bandwidth_bytes_per_cycle = snap_whole(bw.bytes_per_base / hz);
        else out.bandwidth_bytes_per_second = snap_whole(bw.bytes_per_base * hz);
        if (rtt_in_seconds) out.round_trip_cycles = snap_whole(rtt.value * hz);
        else out.round_trip_seconds = rtt.value / hz;
    }

    if (bw_per_second != rtt_in_seconds && !in.clock_hz) {
        const std::string bw_text = plain(bw.amount) + bw.unit;
        const std::string rtt_text = plain(rtt.amount) + rtt.unit;
        if (bw_per_second)
            error.message = "--rtt " + rtt_text + " is in cycles but --bandwidth " + bw_text +
                            " is per second: add --clock (e.g. --clock 1GHz), or give the round trip in ns";
        else
            error.message = "--bandwidth " + bw_text + " is per cycle but --rtt " + rtt_text +
                            " is in time: add --clock (e.g. --clock 1GHz), or give the round trip in cycles";
        return std::nullopt;
    }
    // Multiply in the bandwidth's own time base, so that the common cases (both per second, or
    // both per cycle) involve no clock at all.
    const double product = bw_per_second ? bw.bytes_per_base * *out.round_trip_seconds
                                         : bw.bytes_per_base * *out.round_trip_cycles;
    out.delay_product_bytes = snap_whole(product);
    out.rate = in.rate.value_or(1.0);
    out.rate_limited_bytes = snap_whole(out.rate * out.delay_product_bytes);
    out.batch = in.batch.value_or(1);

    out.credit_bytes = in.credit_bytes ? in.credit_bytes : in.flit_bytes;
    if (out.credit_bytes) {
        const double credit = static_cast<double>(*out.credit_bytes);
        out.credits_exact = snap_whole(out.delay_product_bytes / credit);
        out.credits = static_cast<long long>(std::ceil(out.credits_exact));
        out.rate_limited_credits_exact = snap_whole(out.rate_limited_bytes / credit);
        out.rate_limited_credits = static_cast<long long>(std::ceil(out.rate_limited_credits_exact));
        out.batch_extra_credits = out.batch - 1;
        out.batch_extra_bytes = out.batch_extra_credits * *out.credit_bytes;
        out.buffer_credits = out.rate_limited_credits + out.batch_extra_credits;
        out.buffer_bytes = static_cast<double>(out.buffer_credits) * credit;
        if (in.credit_message_bytes) {
            out.return_share_one_by_one = *in.credit_message_bytes / credit;
            if (in.batch) out.return_share_batched = *in.credit_message_bytes / (static_cast<double>(out.batch) * credit);
        }
    } else {
        out.buffer_bytes = std::ceil(out.rate_limited_bytes);
    }
    return out;
}

namespace {

std::string credits_of(long long count, long long credit_bytes) {
    return amount(static_cast<double>(count)) + (count == 1 ? " credit of " : " credits of ") +
           amount(static_cast<double>(credit_bytes)) + " bytes";
}

// "500 credits of 16 bytes", or "500.3125 credits of 16 bytes, rounded up to 501 credits = 8,016 bytes".
std::string credit_need(double exact, long long whole, long long credit_bytes) {
    if (is_whole(exact)) return credits_of(whole, credit_bytes);
    return amount(exact) + " credits of " + amount(static_cast<double>(credit_bytes)) + " bytes, rounded up to " +
           amount(static_cast<double>(whole)) + (whole == 1 ? " credit = " : " credits = ") +
           amount(static_cast<double>(whole * credit_bytes)) + " bytes";
}

std::string quantity(double number, const std::string& unit) { return plain(number) + " " + unit; }

}  // namespace

std::string size_text(const SizeInputs& in, const SizeResult& r) {
    std::ostringstream out;
    const Bandwidth& bw = in.bandwidth;
    const Duration& rtt = in.round_trip;
    const std::string clock = in.clock_hz ? " at " + frequency_text(*in.clock_hz) : "";

    out << "bandwidth: " << quantity(bw.amount, bw.unit);
    if (bw.base == TimeBase::seconds) {
        out << " = " << engineering(*r.bandwidth_bytes_per_second) << " B/s";
        if (r.bandwidth_bytes_per_cycle) out << " = " << amount(*r.bandwidth_bytes_per_cycle) << " B/cycle" << clock;
    } else {
        if (bw.flits_per_base > 0) out << " = " << amount(bw.bytes_per_base) << " B/cycle";
        if (r.bandwidth_bytes_per_second) out << " = " << engineering(*r.bandwidth_bytes_per_second) << " B/s" << clock;
    }
    out << "\n";

    out << "round trip: " << quantity(rtt.amount, rtt.unit);
    if (rtt.base == TimeBase::seconds) {
        out << " = " << engineering(*r.round_trip_seconds) << " s";
        if (r.round_trip_cycles) out << " = " << cycles_text(*r.round_trip_cycles) << clock;
    } else if (r.round_trip_seconds) {
        out << " = " << time_text(*r.round_trip_seconds) << clock;
    }
    out << "\n";

    out << "bandwidth-delay product: " << quantity(bw.amount, bw.unit) << " x " << quantity(rtt.amount, rtt.unit)
        << " = " << amount(r.delay_product_bytes) << " bytes\n";

    if (r.credit_bytes) {
        out << "credits: " << amount(r.delay_product_bytes) << " bytes / " << *r.credit_bytes
            << " bytes = " << credit_need(r.credits_exact, r.credits, *r.credit_bytes) << "\n";
    } else {
        out << "credits: give --credit-bytes or --flit-bytes to count the buffer in credits\n";
    }

    if (in.rate) {
        out << "rate " << plain(r.rate) << ": " << plain(r.rate) << " x " << amount(r.delay_product_bytes)
            << " bytes = " << amount(r.rate_limited_bytes) << " bytes";
        if (r.credit_bytes)
            out << " = " << credit_need(r.rate_limited_credits_exact, r.rate_limited_credits, *r.credit_bytes);
        out << "\n";
    }

    if (in.batch && r.credit_bytes) {
        // Seed 000 counts the extra in flits: say flits when a credit is a flit.
        const bool credit_is_flit = in.flit_bytes && *in.flit_bytes == *r.credit_bytes;
        const char* noun = credit_is_flit ? (r.batch_extra_credits == 1 ? " more flit of " : " more flits of ")
                                          : (r.batch_extra_credits == 1 ? " more credit of " : " more credits of ");
        out << "batch " << r.batch << ": K - 1 = " << r.batch_extra_credits << noun << *r.credit_bytes
            << " bytes = " << amount(static_cast<double>(r.batch_extra_bytes)) << " bytes of extra buffer\n";
    }

    if (r.return_share_one_by_one) {
        // The return bandwidth in the unit the forward bandwidth was given in (bytes for flits).
        const bool flits = bw.flits_per_base > 0;
        const double forward = flits ? bw.bytes_per_base : bw.amount;
        const std::string unit = flits ? "B/cycle" : bw.unit;
        const std::string message = amount(*in.credit_message_bytes);
        const std::string credit = amount(static_cast<double>(*r.credit_bytes));
        out << "return path one by one: " << message << " / " << credit << " = " << percent(*r.return_share_one_by_one)
            << " of forward bandwidth = " << amount(forward * *r.return_share_one_by_one) << " " << unit << "\n";
        if (r.return_share_batched)
            out << "return path in batches of " << r.batch << ": " << message << " / (" << r.batch << " x " << credit
                << ") = " << percent(*r.return_share_batched) << " of forward bandwidth = "
                << amount(forward * *r.return_share_batched) << " " << unit << "\n";
    } else if (in.batch) {
        out << "return path: give --credit-message-bytes N to compare return bandwidth one by one and in batches\n";
    }

    std::string purpose = in.rate ? "for rate " + plain(r.rate) : "for full rate";
    if (r.batch > 1) purpose += " with batches of " + std::to_string(r.batch);
    out << "buffer: ";
    if (r.credit_bytes) {
        if (r.batch > 1)
            out << amount(static_cast<double>(r.rate_limited_credits)) << " + " << r.batch_extra_credits << " = ";
        out << credits_of(r.buffer_credits, *r.credit_bytes) << " = " << amount(r.buffer_bytes) << " bytes " << purpose << "\n";
    } else {
        out << amount(r.buffer_bytes) << " bytes " << purpose;
        if (!is_whole(r.rate_limited_bytes)) out << " (" << amount(r.rate_limited_bytes) << " rounded up)";
        out << "\n";
    }
    return out.str();
}

std::string size_json(const SizeInputs& in, const SizeResult& r) {
    nlohmann::ordered_json out;
    // A whole number as an integer (8000, not 8000.0); null when there is none.
    const auto number = [&](const char* name, std::optional<double> value) {
        if (!value) out[name] = nullptr;
        else if (is_whole(*value) && std::fabs(*value) < 9e15) out[name] = static_cast<long long>(*value);
        else out[name] = *value;
    };
    const auto whole = [&](const char* name, std::optional<long long> value) {
        out[name] = value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
    };
    out["bandwidth"] = plain(in.bandwidth.amount) + " " + in.bandwidth.unit;
    out["round_trip"] = plain(in.round_trip.amount) + " " + in.round_trip.unit;
    number("clock_hz", in.clock_hz);
    number("bandwidth_bytes_per_second", r.bandwidth_bytes_per_second);
    number("bandwidth_bytes_per_cycle", r.bandwidth_bytes_per_cycle);
    number("round_trip_seconds", r.round_trip_seconds);
    number("round_trip_cycles", r.round_trip_cycles);
    number("delay_product_bytes", r.delay_product_bytes);
    whole("flit_bytes", in.flit_bytes);
    whole("credit_bytes", r.credit_bytes);
    const bool credits = r.credit_bytes.has_value();
    number("credits_exact", credits ? std::optional<double>(r.credits_exact) : std::nullopt);
    whole("credits", credits ? std::optional<long long>(r.credits) : std::nullopt);
    out["credits_rounded_up"] = credits ? nlohmann::ordered_json(!is_whole(r.credits_exact)) : nlohmann::ordered_json(nullptr);
    number("rate", r.rate);
    number("rate_limited_bytes", r.rate_limited_bytes);
    number("rate_limited_credits_exact", credits ? std::optional<double>(r.rate_limited_credits_exact) : std::nullopt);
    whole("rate_limited_credits", credits ? std::optional<long long>(r.rate_limited_credits) : std::nullopt);
    whole("batch", r.batch);
    whole("batch_extra_credits", credits ? std::optional<long long>(r.batch_extra_credits) : std::nullopt);
    whole("batch_extra_bytes", credits ? std::optional<long long>(r.batch_extra_bytes) : std::nullopt);
    number("credit_message_bytes", in.credit_message_bytes);
    number("return_share_one_by_one", r.return_share_one_by_one);
    number("return_share_batched", r.return_share_batched);
    whole("buffer_credits", credits ? std::optional<long long>(r.buffer_credits) : std::nullopt);
    number("buffer_bytes", r.buffer_bytes);
    return out.dump();
}

int run_size(const std::vector<std::string>& args) {
    SizeParseError error;
    const auto inputs = parse_size(args, error);
    if (!inputs) {
        std::cerr << "creditloop: " << error.message << "\n";
        return 2;
    }
    if (inputs->help) {
        std::cout << error.message;   // the help text
        return 0;
    }
    const auto result = compute_size(*inputs, error);
    if (!result) {
        std::cerr << "creditloop: " << error.message << "\n";
        return 2;
    }
    if (inputs->json) std::cout << size_json(*inputs, *result) << "\n";
    else std::cout << size_text(*inputs, *result);
    return 0;
}

}  // namespace creditloop
