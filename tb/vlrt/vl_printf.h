// Verilator's runtime prints through VL_PRINTF; creditloop's runtime is compiled with
// VL_PRINTF=creditloop_vl_printf (forced in by CMakeLists.txt), which prints the same and keeps
// the last %Error line, so a failed assertion can be named (verilated_fatal.cpp).
#pragma once

void creditloop_vl_printf(const char* format, ...) __attribute__((format(printf, 1, 2)));
