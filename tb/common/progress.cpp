#include "progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

#include <fmt/format.h>

namespace creditloop {

namespace {

using Clock = std::chrono::steady_clock;

// A plain line in a log at most this often while nothing else is printed.
constexpr auto kPlainInterval = std::chrono::seconds(5);
// A terminal line is redrawn this often (the elapsed time moves).
constexpr auto kTerminalInterval = std::chrono::milliseconds(250);

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

std::string clock_text(double seconds) {
    const long total = static_cast<long>(seconds + 0.5);
    if (total >= 3600) return fmt::format("{}:{:02}:{:02}", total / 3600, total / 60 % 60, total % 60);
    return fmt::format("{}:{:02}", total / 60, total % 60);
}

Progress::Progress(std::string prefix, std::FILE* out)
    : prefix_(std::move(prefix)), out_(out), terminal_(isatty(fileno(out)) != 0), start_(Clock::now()),
      phase_start_(start_), last_plain_(start_) {
    const char* term = std::getenv("TERM");
    if (term && std::string(term) == "dumb") terminal_ = false;
    thread_ = std::thread([this] { ticker(); });
}

Progress::~Progress() {
    finish();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void Progress::phase(const std::string& what, size_t total) {
    std::lock_guard<std::mutex> lock(mutex_);
    what_ = what;
    detail_.clear();
    total_ = total;
    done_ = 0;
    phase_start_ = Clock::now();
    active_ = true;
    draw_locked(true);
}

void Progress::status(const std::string& detail) {
    std::lock_guard<std::mutex> lock(mutex_);
    detail_ = detail;
    if (terminal_) draw_locked(false);
}

void Progress::advance(size_t steps) {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ += steps;
    if (terminal_) draw_locked(false);
}

void Progress::print(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (terminal_ && drawn_) std::fputs("\r\033[K", out_);
    std::fputs(text.c_str(), out_);
    std::fputc('\n', out_);
    drawn_ = false;
    last_plain_ = Clock::now();   // the log moved: no plain progress line needed yet
    if (terminal_ && active_) draw_locked(true);
    std::fflush(out_);
}

void Progress::finish() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (terminal_ && drawn_) std::fputs("\r\033[K", out_);
    if (!terminal_ && active_ && total_ && done_ != done_shown_) draw_locked(true);
    std::fflush(out_);
    drawn_ = false;
    active_ = false;
}

std::string Progress::line() const {
    std::string text = prefix_ + ": " + what_;
    if (total_) text += " " + std::to_string(done_) + " of " + std::to_string(total_);
    if (!detail_.empty()) text += " (" + detail_ + ")";
    text += ", " + clock_text(seconds_since(start_)) + " elapsed";
    if (total_ && done_ && done_ < total_) {
        const double per_step = seconds_since(phase_start_) / static_cast<double>(done_);
        text += ", about " + clock_text(per_step * static_cast<double>(total_ - done_)) + " left";
    }
    return text;
}

void Progress::draw_locked(bool force) {
    if (!active_) return;
    const std::string text = line();
    if (terminal_) {
        if (!force && drawn_ && text == last_drawn_) return;
        // One row only: a wrapped line could not be rewritten in place.
        winsize size{};
        std::string shown = text;
        if (ioctl(fileno(out_), TIOCGWINSZ, &size) == 0 && size.ws_col > 1 && shown.size() >= size.ws_col)
            shown = shown.substr(0, size.ws_col - 1);
        std::fputs("\r\033[K", out_);
        std::fputs(shown.c_str(), out_);
        drawn_ = true;
    } else {
        if (!force && Clock::now() - last_plain_ < kPlainInterval) return;
        std::fputs(text.c_str(), out_);
        std::fputc('\n', out_);
        last_plain_ = Clock::now();
        done_shown_ = done_;
    }
    last_drawn_ = text;
    std::fflush(out_);
}

void Progress::ticker() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
        wake_.wait_for(lock, terminal_ ? kTerminalInterval : std::chrono::duration_cast<Clock::duration>(kPlainInterval) / 5);
        if (!stop_) draw_locked(false);
    }
}

}  // namespace creditloop
