// What the fuzz targets share: the input as text and as lines, a scratch directory that is the
// only place a target writes, and the checks every parser of user input owes its caller.
//
// A target never writes outside the scratch directory, never verilates and never starts a
// process: it calls the parse and validate step of a command (the function that reads and
// checks, before any build or run), never the command itself.
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace creditloop::fuzz {

inline std::string text_of(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

// One item a line (a command line: the subcommand, then one argument a line), so the seeds in
// fuzz/corpus/ read as what they are. A last line without '\n' counts.
inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = text.find('\n', start);
        lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return lines;
}

// The first line and the rest ("counter\n{...}": which parser, then its input).
inline std::pair<std::string, std::string> head_and_rest(const std::string& text) {
    const size_t end = text.find('\n');
    if (end == std::string::npos) return {text, ""};
    return {text.substr(0, end), text.substr(end + 1)};
}

// This process's scratch directory under $TMPDIR (or /tmp), made on first use and removed at a
// normal exit (a crash leaves it for a look). Kept in a plain array, which has no destructor:
// the exit handler that removes the directory may run after the statics are destroyed.
inline const char* scratch_dir() {
    static char path[4096] = "";
    if (!*path) {
        const char* tmp = std::getenv("TMPDIR");
        std::snprintf(path, sizeof path, "%s/creditloop_fuzz_XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(path)) {
            std::perror("creditloop fuzz: mkdtemp");
            std::abort();
        }
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        });
    }
    return path;
}

// A file parser's failure: a line that says what is wrong, not nothing. (It may quote a string of
// the file, and a JSON string may hold a newline, so it is not held to one line.)
inline void expect_error(const std::string& message, const char* parser) {
    if (message.empty()) {
        std::fprintf(stderr, "creditloop fuzz: %s failed without saying why\n", parser);
        std::abort();
    }
}

// A command line's failure, as the project promises it (docs/cli.md): one line, not empty. Anything
// else stops the fuzzer with the input that broke it.
inline void expect_one_line(const std::string& message, const char* parser) {
    if (message.empty() || message.find('\n') != std::string::npos) {
        std::fprintf(stderr, "creditloop fuzz: %s failed without one error line: '%s'\n", parser, message.c_str());
        std::abort();
    }
}

// A property that must hold (a rerun line that parses back, a report read back the same).
inline void expect(bool holds, const char* what, const std::string& detail) {
    if (!holds) {
        std::fprintf(stderr, "creditloop fuzz: %s: %s\n", what, detail.c_str());
        std::abort();
    }
}

}  // namespace creditloop::fuzz
