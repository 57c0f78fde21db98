// Typed reads of a port map's JSON (port_map_detail.h): values as whole numbers or expressions of
// the link's parameters, ties, and keys that must be text, lists of text or objects. A key of the
// wrong type is one line naming the key (`where: key`) and the form it takes, never nlohmann's
// "type must be string". Not for use outside the port map's files.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace creditloop::port_map_detail {

using nlohmann::json;

extern const std::vector<std::string> kCounterNames;   // what a counter map's values may name: B
extern const std::vector<std::string> kLinkNames;      // a link map's: B, L, W
extern const std::vector<std::string> kArrayNames;     // a counter array's: B (the largest pool's, or the pool's), N (channels), W (payload bits)

// A value the map gives at `where` (a parameter, a tie, a role's value): a whole number, or an
// expression of `names` ("B", "B-1", "2*L"). Its canonical text, or "" and one line in `error`
// naming where and the form expected.
std::string map_value(const json& value, const std::vector<std::string>& names, const std::string& where, std::string& error);

// A map's "ties" object: each input and the value it is held at.
std::string read_ties(const json& ties, const std::vector<std::string>& names, const std::string& where,
                      std::map<std::string, std::string>& out);

// A whole number the map gives (a latency): a JSON integer that fits a long.
bool whole_value(const json& value, long& out);

// The text at `key` of `object` ("" when absent or null); another type sets `error` (when still empty).
std::string text_at(const json& object, const char* key, const std::string& where, std::string& error,
                    const char* form = "a name in quotes");
// The list of texts at `key` (empty when absent).
std::vector<std::string> texts_at(const json& object, const char* key, const std::string& where, std::string& error,
                                  const char* form);
// The object at `key` (empty when absent).
json object_at(const json& object, const char* key, const std::string& where, std::string& error, const char* form);

}  // namespace creditloop::port_map_detail
