// The tables the seeds print, typed in from ../shared/seeds as they appear there: the reference
// the golden model and the RTL must reproduce to the printed digit. Never generated from code.
#pragma once

#include <array>

namespace creditloop::seeds {

// Seed 001: saturating sender, drain every cycle, 6000 cycles, sends counted in the second half.
constexpr std::array<int, 10> kSeed001Buffers = {1, 2, 4, 6, 8, 10, 12, 14, 16, 18};
struct Seed001Row {
    int stages;
    int drain_every;
    std::array<const char*, 10> throughput;
};
constexpr std::array<Seed001Row, 4> kSeed001Rows = {{
    {1, 1, {"0.250", "0.500", "1.000", "1.000", "1.000", "1.000", "1.000", "1.000", "1.000", "1.000"}},
    {4, 1, {"0.100", "0.200", "0.400", "0.600", "0.800", "1.000", "1.000", "1.000", "1.000", "1.000"}},
    {8, 1, {"0.056", "0.111", "0.223", "0.334", "0.445", "0.555", "0.666", "0.777", "0.889", "1.000"}},
    {4, 2, {"0.100", "0.200", "0.400", "0.500", "0.500", "0.500", "0.500", "0.500", "0.500", "0.500"}},
}};

// Seed 000: L = 4, B = 12, batches of K, same window.
constexpr int kSeed000Stages = 4;
constexpr int kSeed000Buffer = 12;
constexpr std::array<int, 6> kSeed000Batches = {1, 2, 4, 6, 8, 12};
constexpr std::array<const char*, 6> kSeed000Throughput = {"1.000", "1.000", "0.923", "0.800", "0.615", "0.572"};

constexpr int kSeedCycles = 6000;

}  // namespace creditloop::seeds
