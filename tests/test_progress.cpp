// The progress line ends cleanly: in a log, a counted phase ends on its final count, never a
// stale "runs 0 of 8"; on a terminal the line is cleared, so nothing of it stays on the screen.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "progress.h"

using namespace creditloop;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::string read_all(int fd) {
    std::string text;
    char buffer[4096];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
    return text;
}

// What a terminal shows on its last row after `text`: "\r" returns to the column 0, "\033[K"
// erases to the end of the row.
std::string last_row_shown(const std::string& text) {
    std::string row;
    size_t column = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') {
            row.clear();
            column = 0;
        } else if (text[i] == '\r') {
            column = 0;
        } else if (text.compare(i, 3, "\033[K") == 0) {
            row.resize(column);
            i += 2;
        } else {
            if (column < row.size()) row[column] = text[i];
            else row += text[i];
            ++column;
        }
    }
    return row;
}

}  // namespace

TEST_CASE("a counted progress in a log ends on its final count, with no carriage returns", "[progress]") {
    std::FILE* log = std::tmpfile();
    REQUIRE(log);
    {
        Progress progress("creditloop hol", log);
        progress.phase("runs", 8);
        for (int i = 0; i < 8; ++i) progress.advance();
        progress.finish();
    }
    std::rewind(log);
    const std::string text = read_all(fileno(log));
    std::fclose(log);
    INFO(text);
    CHECK(text.find('\r') == std::string::npos);
    const auto lines = lines_of(text);
    REQUIRE(lines.size() == 2);
    CHECK(lines.front().rfind("creditloop hol: runs 0 of 8, ", 0) == 0);
    CHECK(lines.back().rfind("creditloop hol: runs 8 of 8, ", 0) == 0);
}

TEST_CASE("a log whose last line is already the final count gets no second one", "[progress]") {
    std::FILE* log = std::tmpfile();
    REQUIRE(log);
    {
        Progress progress("creditloop sweep", log);
        progress.phase("verilated configurations");
        progress.finish();
    }
    std::rewind(log);
    const auto lines = lines_of(read_all(fileno(log)));
    std::fclose(log);
    REQUIRE(lines.size() == 1);
    CHECK(lines.front().rfind("creditloop sweep: verilated configurations, ", 0) == 0);
}

TEST_CASE("on a terminal the progress line is gone when the phase is finished", "[progress]") {
    const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
    REQUIRE(master >= 0);
    REQUIRE(::grantpt(master) == 0);
    REQUIRE(::unlockpt(master) == 0);
    const int slave = ::open(::ptsname(master), O_RDWR | O_NOCTTY);
    REQUIRE(slave >= 0);
    std::FILE* terminal = ::fdopen(slave, "w");
    REQUIRE(terminal);
    const char* term = std::getenv("TERM");
    const std::string saved_term = term ? term : "";
    ::setenv("TERM", "xterm", 1);   // TERM=dumb (a CI log) would turn the line off
    {
        Progress progress("creditloop hol", terminal);
        progress.phase("runs", 8);
        for (int i = 0; i < 8; ++i) progress.advance();
        progress.print("a line of the report");
        progress.finish();
    }
    if (term) ::setenv("TERM", saved_term.c_str(), 1);
    else ::unsetenv("TERM");
    std::fclose(terminal);
    const std::string text = read_all(master);   // the slave is closed: read ends with EIO
    ::close(master);
    INFO(text);
    CHECK(text.find("runs 8 of 8") != std::string::npos);
    CHECK(last_row_shown(text).empty());
    CHECK(text.find("a line of the report") != std::string::npos);
}
