// Typed reads of a port map's JSON (map_json.h).
#include "map_json.h"

#include <limits>

#include "map_expression.h"

namespace creditloop::port_map_detail {

std::string map_value(const json& value, const std::vector<std::string>& names, const std::string& where, std::string& error) {
    std::string forms;
    for (const auto& n : names) forms += (forms.empty() ? "" : ", ") + n;
    const std::string expected = where + ": give a whole number or an expression of " + forms + " (\"" + names.front() +
                                 "\", \"" + names.front() + "-1\")";
    if (value.is_number_integer()) {
        if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<long>::max())) {
            error = expected + ": " + value.dump() + " is too large";
            return "";
        }
        return std::to_string(value.get<long>());
    }
    if (!value.is_string()) {
        error = expected + ", not " + value.dump();
        return "";
    }
    std::string canonical;
    if (auto problem = check_map_expression(value.get<std::string>(), names, canonical); !problem.empty()) {
        error = expected + ": '" + value.get<std::string>() + "': " + problem;
        return "";
    }
    return canonical;
}

const std::vector<std::string> kCounterNames = {"B"};
const std::vector<std::string> kLinkNames = {"B", "L", "W"};
const std::vector<std::string> kArrayNames = {"B", "N", "W"};

std::string text_at(const json& object, const char* key, const std::string& where, std::string& error, const char* form) {
    if (!object.is_object() || !object.contains(key) || object[key].is_null()) return "";
    const json& value = object[key];
    if (value.is_string()) return value.get<std::string>();
    if (error.empty()) error = where + ": " + key + ": give " + form + ", not " + value.dump();
    return "";
}

std::vector<std::string> texts_at(const json& object, const char* key, const std::string& where, std::string& error,
                                  const char* form) {
    std::vector<std::string> out;
    if (!object.is_object() || !object.contains(key) || object[key].is_null()) return out;
    const json& value = object[key];
    bool texts = value.is_array();
    for (const auto& item : value.is_array() ? value : json::array()) {
        texts = texts && item.is_string();
        if (item.is_string()) out.push_back(item.get<std::string>());
    }
    if (!texts && error.empty()) error = where + ": " + key + ": give " + form + ", not " + value.dump();
    return texts ? out : std::vector<std::string>();
}

json object_at(const json& object, const char* key, const std::string& where, std::string& error, const char* form) {
    if (!object.is_object() || !object.contains(key) || object[key].is_null()) return json::object();
    if (object[key].is_object()) return object[key];
    if (error.empty()) error = where + ": " + key + ": give " + form + ", not " + object[key].dump();
    return json::object();
}

std::string read_ties(const json& ties, const std::vector<std::string>& names, const std::string& where,
                      std::map<std::string, std::string>& out) {
    if (!ties.is_object()) return where + ": ties: give an object {\"port\": value}";
    for (const auto& [name, value] : ties.items()) {
        std::string error;
        out[name] = map_value(value, names, where + ": ties: " + name, error);
        if (!error.empty()) return error;
    }
    return "";
}

// A whole number the map gives (a tie, a latency): a JSON integer that fits a long. nlohmann
// would convert a float with a plain cast, undefined behaviour beyond long's range (fuzz_port_map
// found "ties": {"x": 1e300}), and a large unsigned one would wrap.
bool whole_value(const json& value, long& out) {
    if (!value.is_number_integer()) return false;
    if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<long>::max()))
        return false;
    out = value.get<long>();
    return true;
}

}  // namespace creditloop::port_map_detail
