#include "map_expression.h"

#include <cctype>
#include <limits>

namespace creditloop {

namespace {

// A recursive-descent reader of one expression: expr = term {(+|-) term}, term = factor
// {(*|/) factor}, factor = number | name | (expr) | -factor. With `values` it also evaluates;
// without, it only checks.
class Reader {
public:
    Reader(const std::string& text, const std::vector<std::string>* names, const std::map<std::string, long>* values)
        : text_(text), names_(names), values_(values) {}

    std::optional<long> whole(std::string& error) {
        skip();
        const auto v = expr();
        skip();
        if (error_.empty() && pos_ != text_.size()) fail("unexpected '" + text_.substr(pos_, 1) + "'");
        error = error_;
        return error_.empty() ? v : std::nullopt;
    }

private:
    void skip() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool eat(char c) {
        skip();
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    void fail(const std::string& what) {
        if (error_.empty()) error_ = what;
    }
    // Arithmetic in 64 bits with overflow refused (a parameter this large is a typo).
    std::optional<long> checked(__int128 v) {
        if (v > std::numeric_limits<long>::max() || v < std::numeric_limits<long>::min()) {
            fail("the value overflows");
            return std::nullopt;
        }
        return static_cast<long>(v);
    }
    std::optional<long> expr() {
        auto v = term();
        for (;;) {
            if (eat('+')) {
                const auto r = term();
                if (v && r) v = checked(static_cast<__int128>(*v) + *r);
            } else if (eat('-')) {
                const auto r = term();
                if (v && r) v = checked(static_cast<__int128>(*v) - *r);
            } else {
                return error_.empty() ? v : std::nullopt;
            }
        }
    }
    std::optional<long> term() {
        auto v = factor();
        for (;;) {
            if (eat('*')) {
                const auto r = factor();
                if (v && r) v = checked(static_cast<__int128>(*v) * *r);
            } else if (eat('/')) {
                const auto r = factor();
                if (v && r) {
                    if (*r == 0) {
                        fail("it divides by zero");
                        v = std::nullopt;
                    } else {
                        v = *v / *r;
                    }
                }
            } else {
                return v;
            }
        }
    }
    std::optional<long> factor() {
        skip();
        if (pos_ >= text_.size()) {
            fail("it ends where a number, a name or '(' is expected");
            return std::nullopt;
        }
        if (eat('-')) {
            const auto v = factor();
            return v ? checked(-static_cast<__int128>(*v)) : std::nullopt;
        }
        if (eat('(')) {
            const auto v = expr();
            if (!eat(')')) fail("')' expected");
            return v;
        }
        const char c = text_[pos_];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            __int128 v = 0;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
                v = v * 10 + (text_[pos_++] - '0');
                if (v > std::numeric_limits<long>::max()) {
                    fail("the number is too large");
                    return std::nullopt;
                }
            }
            return static_cast<long>(v);
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const size_t start = pos_;
            while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
            const std::string name = text_.substr(start, pos_ - start);
            if (names_) {
                bool known = false;
                for (const auto& n : *names_) known = known || n == name;
                if (!known) fail("unknown name '" + name + "'");
                return 0;
            }
            const auto it = values_->find(name);
            if (it == values_->end()) {
                fail("unknown name '" + name + "'");
                return std::nullopt;
            }
            return it->second;
        }
        fail("unexpected '" + std::string(1, c) + "'");
        return std::nullopt;
    }

    const std::string& text_;
    const std::vector<std::string>* names_;
    const std::map<std::string, long>* values_;
    size_t pos_ = 0;
    std::string error_;
};

}  // namespace

std::string check_map_expression(const std::string& text, const std::vector<std::string>& names, std::string& canonical) {
    std::string error;
    Reader(text, &names, nullptr).whole(error);
    if (error == "it divides by zero") error.clear();   // names read as 0 here; evaluation decides
    canonical.clear();
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) canonical += c;
    return error;
}

std::optional<long> evaluate_map_expression(const std::string& text, const std::map<std::string, long>& values) {
    std::string error;
    return Reader(text, nullptr, &values).whole(error);
}

std::string map_expression_sv(const std::string& text, const std::map<std::string, std::string>& rename) {
    std::string out = "(";
    for (size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const size_t start = i;
            while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
            const std::string name = text.substr(start, i - start);
            const auto it = rename.find(name);
            out += it == rename.end() ? name : it->second;
        } else {
            out += c;
            ++i;
        }
    }
    return out + ")";
}

}  // namespace creditloop
