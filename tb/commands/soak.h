// creditloop soak (make soak): one very long run of random traffic with resets, the RTL in
// lockstep with the golden model and every scoreboard on, to show the harness holds no memory
// per cycle (resident memory sampled along the run: flat) and to give its speed.
#pragma once

#include <string>
#include <vector>

namespace creditloop {

// 0: the run passed and memory stayed flat; 1: a check fired or memory grew; 2: bad input;
// 3: the configuration would not build; 128 + signal when interrupted.
int run_soak(const std::vector<std::string>& args);

}  // namespace creditloop
