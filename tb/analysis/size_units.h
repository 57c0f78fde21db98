// The quantities `creditloop size` reads and prints, in the units engineers write them
// (16GB/s, 500ns, 64B/cycle, 40cycles, 1GHz): reading a number with its unit, and printing
// numbers back the way people read them. Only the size calculator and command use these.
#pragma once

#include <initializer_list>
#include <string>

#include "size_calculator.h"

namespace creditloop {

constexpr long long kMaxSizeBytes = 1LL << 20;   // flits and credits: up to 1 MiB each
constexpr long long kMaxBatch = 1LL << 20;

// ---- reading
// "16 GB/s" -> 16 and "GB/s"; false when there is no number first.
bool split_quantity(const std::string& raw, double& number, std::string& unit);
// Each reads `text` given to option `name`; false with one line in `error` naming both.
bool parse_bandwidth(const std::string& name, const std::string& text, Bandwidth& out, SizeParseError& error);
bool parse_duration(const std::string& name, const std::string& text, Duration& out, SizeParseError& error);
bool parse_clock(const std::string& name, const std::string& text, double& hz, SizeParseError& error);
bool parse_whole_bytes(const std::string& name, const std::string& text, long long& out, SizeParseError& error);
// "--x TEXT" as the user wrote it, for error lines.
std::string echo(const std::string& name, const std::string& text);

// ---- small helpers
std::string lower(std::string text);
bool one_of(const std::string& text, std::initializer_list<const char*> words);
bool is_whole(double value);
double snap_whole(double value);        // 7999.999999 -> 8000

// ---- printing
std::string with_commas(const std::string& digits);   // "8000" -> "8,000"
std::string plain(double value);        // shortest text that reads back the same
std::string amount(double value);       // with thousands separators
std::string engineering(double value);  // 16e9 -> "16 G"
std::string percent(double share);      // 0.125 -> "12.5 %"
std::string time_text(double seconds);  // 5e-7 -> "500 ns"
std::string frequency_text(double hz);  // 1e9 -> "1 GHz"
std::string cycles_text(double cycles);  // 40 -> "40 cycles"

}  // namespace creditloop
