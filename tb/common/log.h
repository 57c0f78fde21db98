// spdlog with the simulated cycle in every line: "[cycle 1234] [link.sender] info: ...".
// Loggers are named by their place in the loop (link, link.sender, link.rx, regress).
#pragma once

#include <spdlog/spdlog.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace creditloop {

// The cycle the current thread is simulating, shown in each log line ("-" outside a run).
void set_log_cycle(std::optional<uint64_t> cycle);
// A logger writing to stderr with the cycle pattern; created once per name.
std::shared_ptr<spdlog::logger> logger(const std::string& name);
// "off", "error", "warn", "info", "debug", "trace"; false if the name is unknown.
bool set_log_level(const std::string& level);

}  // namespace creditloop
