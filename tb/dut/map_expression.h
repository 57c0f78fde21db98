// Values a map gives as expressions of the link's parameters ("B", "B-1", "2*L+1"): a parameter
// of your module, a tie, a role's value at reset. One map then serves every B (and L, W) of a
// regression. The grammar: whole numbers, the names the map allows, + - * / and parentheses;
// / is integer division, as SystemVerilog's on int parameters.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace creditloop {

// `text` checked against the grammar, with `names` the parameters it may use: "" or what is
// wrong ("unknown name 'X'", "')' expected at 'B-'"). `canonical` gets it without spaces.
std::string check_map_expression(const std::string& text, const std::vector<std::string>& names, std::string& canonical);

// Its value with its names bound; nullopt when it divides by zero or a name is unbound.
std::optional<long> evaluate_map_expression(const std::string& text, const std::map<std::string, long>& values);

// The expression as SystemVerilog, in parentheses, each name renamed as `rename` says (B -> MAXC
// inside a counter's wrapper); a name not in `rename` is kept.
std::string map_expression_sv(const std::string& text, const std::map<std::string, std::string>& rename = {});

}  // namespace creditloop
