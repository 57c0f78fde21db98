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

namespace {

constexpr long long kMaxSizeBytes = 1LL << 20;   // flits and credits: up to 1 MiB each
constexpr long long kMaxBatch = 1LL << 20;

const char* const kBandwidthUnits =
    "B/s KB/s MB/s GB/s TB/s (decimal), KiB/s MiB/s GiB/s TiB/s (binary), "
    "b/s Kb/s Mb/s Gb/s Tb/s (bits), B/cycle, flits/cycle";
const char* const kTimeUnits = "ps, ns, us (or µs), ms, s, or cycles";

std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::string trim(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    const auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

bool one_of(const std::string& text, std::initializer_list<const char*> words) {
    return std::any_of(words.begin(), words.end(), [&](const char* w) { return text == w; });
}

// ---- numbers as printed ------------------------------------------------------------------

// A value within a part in 1e9 of a whole number is that number: 16e9 x 500e-9 is 8000 to the
// last bit or two, and should print as 8,000, not 7,999.999999.
double snap_whole(double value) {
    const double whole = std::round(value);
    return std::fabs(value - whole) <= 1e-9 * std::max(1.0, std::fabs(value)) ? whole : value;
}

bool is_whole(double value) { return value == std::round(value); }

std::string with_commas(const std::string& digits) {
    std::string out;
    const size_t n = digits.size();
    for (size_t i = 0; i < n; ++i) {
        if (i > 0 && (n - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// A number as written back to the user: "16", "0.5", "1e+20".
std::string plain(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.12g", value);
    return text;
}

// A count of bytes or credits: "8,000", "500.3125", "0.000123".
std::string amount(double value) {
    const bool negative = value < 0;
    const double magnitude = std::fabs(value);
    char text[64];
    if (is_whole(magnitude) && magnitude < 1e18) {
        std::snprintf(text, sizeof text, "%.0f", magnitude);
        return (negative ? "-" : "") + with_commas(text);
    }
    if (magnitude >= 1e18 || magnitude < 1e-4) {
        std::snprintf(text, sizeof text, "%.6g", value);
        return text;
    }
    std::snprintf(text, sizeof text, "%.4f", magnitude);
    std::string fixed = text;
    fixed.erase(fixed.find_last_not_of('0') + 1);
    if (fixed.back() == '.') fixed.pop_back();
    const auto point = fixed.find('.');
    const std::string integer = fixed.substr(0, point);
    const std::string fraction = point == std::string::npos ? "" : fixed.substr(point);
    return (negative ? "-" : "") + with_commas(integer) + fraction;
}

// Engineering notation as seed 001 writes it: 16e9, 500e-9, 8.
std::string engineering(double value) {
    if (value == 0) return "0";
    int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value)) / 3.0)) * 3;
    double mantissa = value / std::pow(10.0, exponent);
    char text[40];
    std::snprintf(text, sizeof text, "%.12g", mantissa);
    if (std::fabs(std::strtod(text, nullptr)) >= 1000.0) {   // 999.9999999999 printed as 1000
        exponent += 3;
        mantissa = value / std::pow(10.0, exponent);
        std::snprintf(text, sizeof text, "%.12g", mantissa);
    } else if (std::fabs(std::strtod(text, nullptr)) < 1.0) {
        exponent -= 3;
        mantissa = value / std::pow(10.0, exponent);
        std::snprintf(text, sizeof text, "%.12g", mantissa);
    }
    return exponent == 0 ? std::string(text) : std::string(text) + "e" + std::to_string(exponent);
}

std::string percent(double share) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", share * 100.0);
    return text;
}

std::string time_text(double seconds) {
    struct Scale { double factor; const char* unit; };
    for (const Scale s : {Scale{1, "s"}, Scale{1e-3, "ms"}, Scale{1e-6, "us"}, Scale{1e-9, "ns"}}) {
        if (seconds >= s.factor) return plain(snap_whole(seconds / s.factor * 1e6) / 1e6) + " " + s.unit;
    }
    return plain(snap_whole(seconds / 1e-12 * 1e6) / 1e6) + " ps";
}

std::string frequency_text(double hz) {
    struct Scale { double factor; const char* unit; };
    for (const Scale s : {Scale{1e9, "GHz"}, Scale{1e6, "MHz"}, Scale{1e3, "kHz"}}) {
        if (hz >= s.factor) return plain(hz / s.factor) + " " + s.unit;
    }
    return plain(hz) + " Hz";
}

std::string cycles_text(double cycles) { return amount(cycles) + (cycles == 1 ? " cycle" : " cycles"); }

// ---- numbers with units ------------------------------------------------------------------

// Splits "16 GB/s" into 16 and "GB/s". Only plain decimals: no hex, inf or nan, which strtod
// would otherwise take.
bool split_quantity(const std::string& raw, double& number, std::string& unit) {
    const std::string text = trim(raw);
    size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    const size_t digits_start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    size_t digits = i - digits_start;
    if (i < text.size() && text[i] == '.') {
        ++i;
        const size_t fraction_start = i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
        digits += i - fraction_start;
    }
    if (digits == 0) return false;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        size_t j = i + 1;
        if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
        if (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) {
            while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
            i = j;
        }
    }
    number = std::strtod(text.substr(0, i).c_str(), nullptr);
    unit = trim(text.substr(i));
    return std::isfinite(number);
}

enum class UnitMatch { ok, unknown, ambiguous };

struct BandwidthUnit {
    double factor = 1;          // bytes (or flits) per base, per unit
    bool flits = false;
    TimeBase base = TimeBase::seconds;
    std::string canonical;
};

// [prefix][B | b | byte(s) | bit(s) | flit(s)] then /s, ps or /cycle. B is bytes and b is bits,
// so a lowercase m, g or t before a one-letter b or B is refused: "gb/s" is written by people
// who mean either.
UnitMatch match_bandwidth_unit(const std::string& unit, BandwidthUnit& out) {
    std::string quantity, per;
    const auto slash = unit.find('/');
    if (slash != std::string::npos) {
        quantity = trim(unit.substr(0, slash));
        per = lower(trim(unit.substr(slash + 1)));
    } else if (unit.size() > 2 && lower(unit.substr(unit.size() - 2)) == "ps") {
        quantity = unit.substr(0, unit.size() - 2);
        per = "s";
    } else {
        return UnitMatch::unknown;
    }
    if (one_of(per, {"s", "sec", "second"})) out.base = TimeBase::seconds;
    else if (one_of(per, {"cycle", "cycles", "cyc", "clk", "clock"})) out.base = TimeBase::cycles;
    else return UnitMatch::unknown;

    // The base: a word (any case), else one letter whose case says bytes or bits.
    std::string prefix;
    bool word = false, bits = false;
    const std::string quantity_lower = lower(quantity);
    for (const char* w : {"bytes", "byte", "bits", "bit", "flits", "flit"}) {
        const std::string s = w;
        if (quantity_lower.size() >= s.size() && quantity_lower.compare(quantity_lower.size() - s.size(), s.size(), s) == 0) {
            prefix = quantity.substr(0, quantity.size() - s.size());
            word = true;
            bits = s.rfind("bit", 0) == 0;
            out.flits = s.rfind("flit", 0) == 0;
            break;
        }
    }
    if (!word) {
        if (quantity.empty()) return UnitMatch::unknown;
        const char letter = quantity.back();
        if (letter != 'B' && letter != 'b') return UnitMatch::unknown;
        bits = letter == 'b';
        prefix = quantity.substr(0, quantity.size() - 1);
    }
    if (out.flits && !prefix.empty()) return UnitMatch::unknown;

    double scale = 1;
    std::string canonical_prefix;
    if (!prefix.empty()) {
        const char p = prefix[0];
        const bool binary = prefix.size() == 2 && (prefix[1] == 'i' || prefix[1] == 'I');
        if (prefix.size() > 2 || (prefix.size() == 2 && !binary)) return UnitMatch::unknown;
        int power = 0;
        switch (std::toupper(static_cast<unsigned char>(p))) {
            case 'K': power = 1; break;
            case 'M': power = 2; break;
            case 'G': power = 3; break;
            case 'T': power = 4; break;
            default: return UnitMatch::unknown;
        }
        scale = std::pow(binary ? 1024.0 : 1000.0, power);
        canonical_prefix = std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(p)))) + (binary ? "i" : "");
        // Lowercase k is the SI spelling; lowercase m, g, t with a one-letter base is not. The
        // canonical bytes spelling goes back for the error line.
        if (!word && (p == 'm' || p == 'g' || p == 't')) {
            out.canonical = canonical_prefix + "B" + (out.base == TimeBase::seconds ? "/s" : "/cycle");
            return UnitMatch::ambiguous;
        }
    }
    out.factor = scale / (bits ? 8.0 : 1.0);
    out.canonical = canonical_prefix + (out.flits ? "flits" : bits ? "b" : "B") +
                    (out.base == TimeBase::seconds ? "/s" : "/cycle");
    return UnitMatch::ok;
}

struct TimeUnit {
    double factor = 1;          // seconds per unit (1 for cycles)
    TimeBase base = TimeBase::seconds;
    std::string canonical;
};

// Any case, except that only "ms" is milliseconds: "Ms" or "MS" could be read as mega.
UnitMatch match_time_unit(const std::string& unit, TimeUnit& out) {
    const std::string u = lower(unit);
    if (u == "ms" || u == "msec") {
        if (unit != "ms" && unit != "msec") return UnitMatch::ambiguous;
        out = {1e-3, TimeBase::seconds, "ms"};
    } else if (one_of(u, {"ps", "psec"})) out = {1e-12, TimeBase::seconds, "ps"};
    else if (one_of(u, {"ns", "nsec"})) out = {1e-9, TimeBase::seconds, "ns"};
    else if (one_of(u, {"us", "usec", "\xC2\xB5s", "\xCE\xBCs"})) out = {1e-6, TimeBase::seconds, "us"};
    else if (one_of(u, {"s", "sec", "secs", "second", "seconds"})) out = {1, TimeBase::seconds, "s"};
    else if (one_of(u, {"cycle", "cycles", "cyc", "cycs", "clk", "clks", "clock", "clocks"}))
        out = {1, TimeBase::cycles, "cycles"};
    else return UnitMatch::unknown;
    return UnitMatch::ok;
}

// ---- the options -------------------------------------------------------------------------


// "--x TEXT" quoted the way the user wrote it, for error lines.
std::string echo(const std::string& name, const std::string& text) { return name + " " + text; }

bool number_with_unit(const std::string& name, const std::string& text, double& number, std::string& unit,
                      const std::string& example, SizeParseError& error) {
    if (!split_quantity(text, number, unit)) {
        error.message = echo(name, text) + " is not a number with a unit: write e.g. " + example;
        return false;
    }
    return true;
}

// Checked after the unit, so that "0x10GB/s" is reported for its unit, not as zero.
bool positive(const std::string& name, const std::string& text, double number, const std::string& example,
              SizeParseError& error) {
    if (number > 0) return true;
    error.message = echo(name, text) + " must be positive: write e.g. " + example;
    return false;
}

bool parse_bandwidth(const std::string& name, const std::string& text, Bandwidth& out, SizeParseError& error) {
    double number = 0;
    std::string unit;
    const char* example = "16GB/s, 128Gb/s or 64B/cycle";
    if (!number_with_unit(name, text, number, unit, example, error)) return false;
    const std::string n = plain(number);
    if (unit.empty()) {
        error.message = echo(name, text) + " has no unit: write " + n + "GB/s, " + n + "Gb/s or " + n + "B/cycle";
        return false;
    }
    BandwidthUnit match;
    switch (match_bandwidth_unit(unit, match)) {
        case UnitMatch::ok: break;
        case UnitMatch::ambiguous: {
            // Offer both readings, spelt unambiguously: "gb/s" -> "GB/s" or "Gb/s".
            std::string bits_form = match.canonical;
            bits_form[bits_form.find('B')] = 'b';
            error.message = echo(name, text) + " is ambiguous: write " + n + match.canonical + " for bytes or " + n +
                            bits_form + " for bits (B is bytes, b is bits)";
            return false;
        }
        case UnitMatch::unknown:
            error.message = echo(name, text) + ": unknown unit '" + unit + "': accepted " + kBandwidthUnits;
            return false;
    }
    if (!positive(name, text, number, example, error)) return false;
    out.amount = number;
    out.unit = match.flits && number == 1 ? "flit/cycle" : match.canonical;
    out.base = match.base;
    if (match.flits) out.flits_per_base = number;
    else out.bytes_per_base = number * match.factor;
    return true;
}

bool parse_duration(const std::string& name, const std::string& text, Duration& out, SizeParseError& error) {
    double number = 0;
    std::string unit;
    const char* example = "500ns, 0.5us or 40cycles";
    if (!number_with_unit(name, text, number, unit, example, error)) return false;
    if (unit.empty()) {
        error.message = echo(name, text) + " has no unit: write " + plain(number) + "ns, " + plain(number / 1000) +
                        "us or " + plain(number) + "cycles";
        return false;
    }
    TimeUnit match;
    switch (match_time_unit(unit, match)) {
        case UnitMatch::ok: break;
        case UnitMatch::ambiguous:
            error.message = echo(name, text) + " is ambiguous: write " + plain(number) + "ms for milliseconds";
            return false;
        case UnitMatch::unknown:
            error.message = echo(name, text) + ": unknown unit '" + unit + "': accepted " + kTimeUnits;
            return false;
    }
    if (!positive(name, text, number, example, error)) return false;
    out.amount = number;
    out.unit = match.canonical == "cycles" && number == 1 ? "cycle" : match.canonical;
    out.base = match.base;
    out.value = number * match.factor;
    return true;
}

// A frequency, or a clock period (1.25ns = 800 MHz): engineers quote either. Hz prefixes in
// any case: nobody clocks a link in millihertz, so "mhz" is MHz.
bool parse_clock(const std::string& name, const std::string& text, double& hz, SizeParseError& error) {
    double number = 0;
    std::string unit;
    const char* example = "1GHz or 800MHz";
    if (!number_with_unit(name, text, number, unit, example, error)) return false;
    const std::string accepted = "accepted Hz, kHz, MHz, GHz, or a period in ps, ns, us";
    if (unit.empty()) {
        error.message = echo(name, text) + " has no unit: write " + plain(number) + "GHz, " + plain(number) +
                        "MHz or a period such as 1ns";
        return false;
    }
    const std::string u = lower(unit);
    if (u == "hz") hz = number;
    else if (u == "khz") hz = number * 1e3;
    else if (u == "mhz") hz = number * 1e6;
    else if (u == "ghz") hz = number * 1e9;
    else {
        TimeUnit period;
        if (match_time_unit(unit, period) != UnitMatch::ok || period.base != TimeBase::seconds) {
            error.message = echo(name, text) + ": unknown unit '" + unit + "': " + accepted;
            return false;
        }
        if (!positive(name, text, number, example, error)) return false;
        hz = 1.0 / (number * period.factor);
    }
    return positive(name, text, number, example, error);
}

// A whole number of bytes, "64", "64B" or "64 bytes".
bool parse_whole_bytes(const std::string& name, const std::string& text, long long& out, SizeParseError& error) {
    double number = 0;
    std::string unit;
    const std::string range = "allowed 1.." + with_commas(std::to_string(kMaxSizeBytes)) + " bytes";
    if (!split_quantity(text, number, unit) || !(unit.empty() || one_of(lower(unit), {"b", "byte", "bytes"}) )) {
        error.message = echo(name, text) + " is not a number of bytes: write e.g. " + name + " 64";
        return false;
    }
    if (unit == "b") {   // b is bits everywhere else here
        error.message = echo(name, text) + " is in bits: give bytes, e.g. " + name + " " + plain(number / 8);
        return false;
    }
    if (!is_whole(number) || number < 1 || number > kMaxSizeBytes) {
        error.message = echo(name, text) + " is not a whole number of bytes in range: " + range;
        return false;
    }
    out = static_cast<long long>(number);
    return true;
}

}  // namespace

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
