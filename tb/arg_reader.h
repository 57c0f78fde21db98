// The command line, one option at a time, for every creditloop subcommand: "--x v" and "--x=v",
// and one error line naming the option, its value and what is allowed.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace creditloop {

struct ParseError {
    std::string message;            // one line
};

class ArgReader {
public:
    ArgReader(const std::vector<std::string>& args, ParseError& error) : args_(args), error_(error) {}

    bool done() const { return index_ >= args_.size(); }

    // The next option name; "--x=v" is split so that value() returns v.
    std::string option() {
        std::string arg = args_[index_++];
        pending_value_.reset();
        const auto eq = arg.find('=');
        if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
            pending_value_ = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        return arg;
    }

    bool value(const std::string& name, std::string& out) {
        if (pending_value_) {
            out = *pending_value_;
            pending_value_.reset();
            return true;
        }
        if (done()) return fail(name + " needs a value");
        out = args_[index_++];
        return true;
    }

    bool integer(const std::string& name, long long low, long long high, long long& out,
                 const std::string& meaning) {
        std::string text;
        if (!value(name, text)) return false;
        char* end = nullptr;
        errno = 0;
        const long long v = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || !end || *end != '\0' || errno != 0)
            return fail(name + " " + text + " is not a whole number: allowed " + std::to_string(low) + ".." +
                        std::to_string(high) + meaning);
        if (v < low || v > high)
            return fail(name + " = " + text + " is out of range: allowed " + std::to_string(low) + ".." +
                        std::to_string(high) + meaning);
        out = v;
        return true;
    }

    bool flag_has_no_value(const std::string& name) {
        if (pending_value_) return fail(name + " takes no value");
        return true;
    }

    bool fail(const std::string& message) {
        error_.message = message;
        return false;
    }

private:
    const std::vector<std::string>& args_;
    ParseError& error_;
    size_t index_ = 0;
    std::optional<std::string> pending_value_;
};

}  // namespace creditloop
