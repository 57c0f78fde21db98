#include "size_units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <tuple>

namespace creditloop {


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


}  // namespace creditloop
