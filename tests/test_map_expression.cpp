// A map's values as expressions of the link's parameters (map_expression.h): values worked by
// hand, SystemVerilog's integer division and precedence, and the errors a typo gets.
#include <catch2/catch.hpp>

#include "map_expression.h"

using namespace creditloop;

namespace {

long value(const std::string& text, long b = 12, long l = 4, long w = 32) {
    const auto v = evaluate_map_expression(text, {{"B", b}, {"L", l}, {"W", w}});
    REQUIRE(v);
    return *v;
}

std::string problem(const std::string& text, const std::vector<std::string>& names = {"B", "L", "W"}) {
    std::string canonical;
    return check_map_expression(text, names, canonical);
}

}  // namespace

TEST_CASE("a map expression has the value worked by hand", "[fast][own-rtl][map-expression]") {
    CHECK(value("B") == 12);
    CHECK(value("B-1") == 11);
    CHECK(value("B - 1", 6) == 5);
    CHECK(value("2*L+1") == 9);            // * before +
    CHECK(value("2*(L+1)") == 10);
    CHECK(value("(B+W)/2") == 22);
    CHECK(value("7/2") == 3);              // integer division, as on int parameters
    CHECK(value("-B+20") == 8);
    CHECK(value("B-L-1") == 7);            // left to right
    CHECK(value("0") == 0);
    CHECK_FALSE(evaluate_map_expression("B/(L-4)", {{"B", 12}, {"L", 4}}));   // divides by zero
    CHECK_FALSE(evaluate_map_expression("W", {{"B", 12}}));                  // unbound
}

TEST_CASE("a map expression that is not one says where and why", "[fast][own-rtl][map-expression][bad-input]") {
    CHECK(problem("B-1") == "");
    CHECK(problem("B/(B-B)") == "");   // the names' values decide, at each B
    CHECK(problem("X") == "unknown name 'X'");
    CHECK(problem("L", {"B"}) == "unknown name 'L'");
    CHECK(problem("B+") == "it ends where a number, a name or '(' is expected");
    CHECK(problem("(B") == "')' expected");
    CHECK(problem("B)") == "unexpected ')'");
    CHECK(problem("B % 2") == "unexpected '%'");
    CHECK(problem("99999999999999999999") == "the number is too large");
    std::string canonical;
    CHECK(check_map_expression(" B - 1 ", {"B"}, canonical) == "");
    CHECK(canonical == "B-1");
}

TEST_CASE("a map expression in SystemVerilog keeps its order and renames what it is told", "[fast][own-rtl][map-expression]") {
    CHECK(map_expression_sv("B-1") == "(B-1)");
    CHECK(map_expression_sv("2*B", {{"B", "MAXC"}}) == "(2*MAXC)");
    CHECK(map_expression_sv("BB+B", {{"B", "MAXC"}}) == "(BB+MAXC)");   // whole names only
}
