#include "log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <mutex>

namespace creditloop {

namespace {

thread_local std::optional<uint64_t> current_cycle;

class CycleFlag final : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg&, const std::tm&, spdlog::memory_buf_t& dest) override {
        const std::string text = current_cycle ? "cycle " + std::to_string(*current_cycle) : "cycle -";
        dest.append(text.data(), text.data() + text.size());
    }
    std::unique_ptr<custom_flag_formatter> clone() const override {
        return spdlog::details::make_unique<CycleFlag>();
    }
};

std::mutex logger_mutex;
spdlog::level::level_enum log_level = spdlog::level::warn;

}  // namespace

void set_log_cycle(std::optional<uint64_t> cycle) { current_cycle = cycle; }

std::shared_ptr<spdlog::logger> logger(const std::string& name) {
    std::lock_guard<std::mutex> guard(logger_mutex);
    if (auto existing = spdlog::get(name)) return existing;
    auto log = spdlog::stderr_color_mt(name);
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<CycleFlag>('*').set_pattern("[%*] [%n] %l: %v");
    log->set_formatter(std::move(formatter));
    log->set_level(log_level);
    return log;
}

bool set_log_level(const std::string& level) {
    const auto parsed = spdlog::level::from_str(level);
    if (parsed == spdlog::level::off && level != "off") return false;
    std::lock_guard<std::mutex> guard(logger_mutex);
    log_level = parsed;
    spdlog::apply_all([&](std::shared_ptr<spdlog::logger> l) { l->set_level(parsed); });
    return true;
}

}  // namespace creditloop
