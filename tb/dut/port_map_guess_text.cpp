// A guessed map as text (port_map_guess.h): the JSON a map reader takes, laid out as a person
// writes one, with a `//` comment on every guess saying where it came from and what to confirm,
// and a header that lists the roles it could not place. nlohmann-json writes no comments, so the
// lines are laid out here; every value on them is still nlohmann's dump, and the tests read the
// result back with nlohmann (comments ignored).
#include <string>
#include <vector>

#include "port_map_guess.h"

namespace creditloop {

namespace {

// A value on one line, with a space after each ':' and ',' as the hand-written maps have them.
std::string inline_json(const nlohmann::ordered_json& v) {
    std::string out;
    if (v.is_object()) {
        for (const auto& [key, item] : v.items())
            out += (out.empty() ? "" : ", ") + nlohmann::ordered_json(key).dump() + ": " + inline_json(item);
        return "{" + out + "}";
    }
    if (v.is_array()) {
        for (const auto& item : v) out += (out.empty() ? "" : ", ") + inline_json(item);
        return "[" + out + "]";
    }
    return v.dump();
}

// One line of an object: "key": value, or a comment alone.
struct Item {
    std::string text;   // "\"key\": value"; empty: a comment line
    std::string why;
};

// An object whose braces sit at `indent`, its items two spaces in; the commas go before the comments.
std::string block(const std::vector<Item>& items, const std::string& indent) {
    size_t last = items.size();
    for (size_t i = 0; i < items.size(); ++i)
        if (!items[i].text.empty()) last = i;
    if (last == items.size() && items.empty()) return "{}";
    std::string out = "{\n";
    for (size_t i = 0; i < items.size(); ++i) {
        const Item& item = items[i];
        if (item.text.empty()) {
            out += indent + "  // " + item.why + "\n";
            continue;
        }
        out += indent + "  " + item.text + (i < last ? "," : "") + (item.why.empty() ? "" : "   // " + item.why) + "\n";
    }
    return out + indent + "}";
}

std::string key(const std::string& k) { return nlohmann::ordered_json(k).dump() + ": "; }

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

std::vector<Item> entries(const std::vector<GuessedEntry>& list) {
    std::vector<Item> items;
    for (const auto& e : list) items.push_back({key(e.key) + inline_json(e.value), e.why});
    return items;
}

// What creditloop does without each optional role.
std::string without(const std::string& role) {
    if (role == "can_send") return "can_send: creditloop uses credits != 0";
    if (role == "credit_valid") return "credit_valid: the count alone says when credits come";
    if (role == "credits") return "credits: creditloop keeps the count from the sends and credits back";
    if (role == "init") return "init: none";
    if (role == "request" || role == "grant") return role + ": none, no arbiter ports (a push is sent as it comes)";
    if (role == "can_grant") return "can_grant: none";
    if (role == "withhold") return "withhold: none";
    return role;
}

// A counter's or one side's items (their keys at `indent`): parameters, the ones kept, ports, ties.
std::vector<Item> side_items(const GuessedSide& side, const std::string& indent, bool counter) {
    std::vector<Item> items;
    std::vector<Item> params = entries(side.parameters);
    std::string params_why;
    if (side.parameters.empty())
        params_why = counter ? "no parameter is named like the number of credits: confirm the count's size is fixed"
                             : "no parameter is named like the number of credits or a data width: confirm";
    items.push_back({key("parameters") + block(params, indent), params_why});
    if (!side.parameters_left.empty())
        items.push_back({"", "kept at their defaults: " + joined(side.parameters_left) +
                                 " (not named like a count of credits" + (counter ? "" : " or a data width") + "): confirm"});
    std::vector<Item> ports = entries(side.ports);
    for (const auto& role : side.absent) ports.push_back({"", "not placed (optional): " + without(role)});
    items.push_back({key("ports") + block(ports, indent), ""});
    if (!side.ties.empty()) items.push_back({key("ties") + block(entries(side.ties), indent), ""});
    return items;
}

}  // namespace

std::string GuessedMap::description() const {
    if (kind != "counters") return "a " + kind;
    return vc_sender ? "a per-virtual-channel sender" : "every channel's counters in one module";
}

std::string GuessedMap::text() const {
    const bool counter = kind != "link";   // one module: a counter, or every channel's counters
    std::string out = "// A map written by creditloop map from " +
                      (counter ? sides.front().module : sides.front().module + " and " + sides.back().module) + ": " +
                      description() + " (" + kind_why + ").\n";
    out += "// Each line's comment says where its guess came from. Confirm them all, then run it:\n";
    out += std::string("//   creditloop run ") + (counter ? "--counter" : "--link") + " THIS.map.json\n";
    if (kind == "counters") out += "//   (a pool a channel: add --preset chi, or --channel name=...,credits=... for each)\n";
    const auto missing = unplaced();
    if (missing.empty())
        out += "// Every role creditloop needs is placed.\n";
    else
        out += "// NOT PLACED: " + joined(missing) + ". Each is \"?\" below, and run refuses the map until it names a port.\n";
    std::vector<Item> top;
    top.push_back({key("block") + (kind == "counters" ? "\"credit_counters\"" : counter ? "\"credit_counter\"" : "\"link\""), ""});
    std::vector<Item> src;
    for (const auto& [k, v] : sources.items()) src.push_back({key(k) + inline_json(v), ""});
    top.push_back({key("sources") + block(src, "  "), ""});
    if (counter) {
        for (const auto& item : side_items(sides.front(), "  ", true)) top.push_back(item);
    } else {
        top.push_back({"", sides_why});
        for (size_t i = 0; i < 2; ++i) {
            std::vector<Item> s = {{key("module") + nlohmann::ordered_json(sides[i].module).dump(), ""}};
            for (const auto& item : side_items(sides[i], "    ", false)) s.push_back(item);
            top.push_back({key(i == 0 ? "sender" : "receiver") + block(s, "  "), ""});
        }
        top.push_back({key("return_latency") + std::to_string(return_latency),
                       (latency_why.empty() ? std::string() : latency_why + ". ") +
                           "Confirm: the cycles your receiver adds to the credit loop beyond 2L + 2"});
        top.push_back({key("credits_on_arrival") + (credits_on_arrival ? "true" : "false"),
                       (arrival_why.empty() ? std::string() : arrival_why + ". ") +
                           "Confirm: true when your sender spends a credit in the cycle it arrives (a bypass to its ready)"});
        if (sender_fifo)
            top.push_back({key("sender_fifo_latency") + "1",
                           fifo_why + ". Confirm: the cycles from a flit your sender takes to its first chance onto the link "
                                      "(1 for a registered FIFO, 0 for one that falls through)"});
    }
    return out + block(top, "") + "\n";
}

}  // namespace creditloop
