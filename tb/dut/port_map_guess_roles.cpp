// The role tables behind `creditloop map` (port_map_guess.h): a port's name split into words, a
// table of word patterns per role (with the direction and width each role needs), and one greedy
// pass that places the best-scoring port on each role. The tables are the whole of the knowledge:
// a new naming style is a row, not a branch.
#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

#include "port_map_detail.h"
#include "port_map_guess_table.h"

namespace creditloop::port_map_detail {

namespace {

// ---- words

// Word classes, each a pattern a single word of a name must match.
const std::map<std::string, std::regex>& word_classes() {
    static const std::map<std::string, std::regex> classes = {
        {"clock", std::regex("^(a|i)?clk[0-9]*$|^clock$")},
        {"reset", std::regex("^(a|s)?(rst|reset)(n|b)?$|^n(rst|reset)$")},
        {"valid", std::regex("^(valid|vld|val|v|req)$")},
        {"ready", std::regex("^(ready|rdy|ack)$")},
        {"data", std::regex("^(data|dat|payload|pld|flit|msg|d)$")},
        {"credit", std::regex("^(credit|credits|crd|crds|cred|creds|crdt|crdts|tok|token|tokens)$")},
        {"count", std::regex("^(cnt|count|counter|num|level|value|balance|amount|avail|available)$")},
        {"avail", std::regex("^(avail|available|left)$")},
        {"take", std::regex("^(take|spend|consume|decr|dec|decrement|debit|use|sub|send|deduct)$")},
        {"give", std::regex("^(give|return|ret|rtn|returned|incr|inc|increment|release|refund|restore|add|free|freed|replenish)$")},
        {"init", std::regex("^(init|initial|reinit|reload|preset)$")},
        {"withhold", std::regex("^(withhold|hold|reserve|reserved|stall)$")},
        {"can", std::regex("^(left|ready|rdy|can|avail|available|nonzero|ok|has|any)$")},
        {"full", std::regex("^(full|empty|zero|none|max)$")},
        {"request", std::regex("^(request|requests|req|reqs)$")},
        {"grant", std::regex("^(grant|grants|granted|gnt)$")},
        {"vc", std::regex("^(vc|vcs|vcid|vch|vl|lane|channel|chan|ch|id)$")},
    };
    return classes;
}

// A name's words: lower case, split at '_' and at a lower-to-upper change ("NumCredits"), the
// direction suffix (_i, _o, _ni, _no, _in, _out) taken off. `low` says the suffix or the
// name marks an active-low signal (_n, _ni, _b, a trailing n as in rstn).
struct Words {
    std::vector<std::string> words;
    bool low = false;
    std::string low_why;
};

Words split(const std::string& name) {
    Words w;
    std::string word;
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool boundary = c == '_' || (i > 0 && std::isupper(static_cast<unsigned char>(c)) &&
                                           std::islower(static_cast<unsigned char>(name[i - 1])));
        if (boundary && !word.empty()) w.words.push_back(word), word.clear();
        if (c != '_') word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (!word.empty()) w.words.push_back(word);
    while (w.words.size() > 1) {
        const std::string last = w.words.back();
        if (last == "n" || last == "ni" || last == "no" || last == "b" || last == "nb") {
            w.low = true;
            w.low_why = "the name ends in _" + last;
        } else if (last != "i" && last != "o" && last != "in" && last != "out" && last != "io") {
            break;
        }
        w.words.pop_back();
    }
    if (!w.words.empty() && !w.low) {
        const std::string& last = w.words.back();
        if (std::regex_match(last, std::regex("^(a|s)?(rst|reset)n$|^n(rst|reset)$"))) {
            w.low = true;
            w.low_why = "the name " + name + " says active low";
        }
    }
    return w;
}

bool has(const Words& w, const std::string& cls) {
    const std::regex& re = word_classes().at(cls);
    return std::any_of(w.words.begin(), w.words.end(), [&](const std::string& word) { return std::regex_match(word, re); });
}

// The words that name an interface, without its valid/ready/data word: decr_valid and decr share "decr".
std::string stem(const Words& w) {
    std::string s;
    for (const auto& word : w.words) {
        Words one;
        one.words = {word};
        if (has(one, "valid") || has(one, "ready") || has(one, "data")) continue;
        s += (s.empty() ? "" : "_") + word;
    }
    return s;
}

// ---- the role tables

const std::vector<Pattern> kClockReset = {
    {"clock", "input", Width::one, {"clock"}, {}, 10, "named like a clock"},
    {"reset", "input", Width::one, {"reset"}, {}, 10, "named like a reset"},
};

const std::vector<Pattern> kCounter = {
    {"send", "input", Width::any, {"take"}, {"valid"}, 6, "named like a take (take, spend, consume, decr)"},
    {"send", "input", Width::any, {"take", "valid"}, {}, 4, "a valid named like a take"},
    {"credit_return", "input", Width::any, {"give"}, {"valid"}, 6, "named like a return (give, return, release, incr)"},
    {"credit_return", "input", Width::any, {"give", "valid"}, {}, 4, "a valid named like a return"},
    {"credit_return", "input", Width::any, {"credit"}, {"valid", "init", "withhold", "take"}, 3, "a credit input"},
    {"can_send", "output", Width::one, {"can"}, {"full", "give"}, 5, "named like credits left (left, avail, ready)"},
    {"credits", "output", Width::wide, {"credit", "count"}, {}, 7, "named like a count of credits"},
    {"credits", "output", Width::wide, {"avail"}, {}, 6, "a count named like the credits available"},
    {"credits", "output", Width::wide, {"credit"}, {}, 5, "a count named like the credits"},
    {"credits", "output", Width::wide, {"count"}, {}, 4, "named like a count"},
    {"init", "input", Width::any, {"init"}, {}, 6, "named like an initial value or re-initialise"},
    {"withhold", "input", Width::any, {"withhold"}, {}, 6, "named like a withhold"},
};

const std::vector<Pattern> kSender = {
    {"in_valid", "input", Width::one, {"valid"}, {"credit"}, 5, "the valid of the flit in"},
    {"in_ready", "output", Width::one, {"ready"}, {"credit"}, 5, "the ready of the flit in"},
    {"in_data", "input", Width::wide, {"data"}, {"credit"}, 5, "the data of the flit in"},
    {"in_data", "input", Width::wide, {}, {"credit", "count", "init", "withhold"}, 1, "the wide input left"},
    {"out_valid", "output", Width::one, {"valid"}, {"credit"}, 5, "the valid of the flit out"},
    {"out_data", "output", Width::wide, {"data"}, {"credit"}, 5, "the data of the flit out"},
    {"out_data", "output", Width::wide, {}, {"credit", "count"}, 1, "the wide output left"},
    {"credit_valid", "input", Width::one, {"credit", "valid"}, {}, 6, "the valid of the credits back"},
    {"credit_count", "input", Width::any, {"credit"}, {"valid", "init", "withhold"}, 5, "credits back, as a count"},
    {"credits", "output", Width::wide, {"credit"}, {}, 4, "its count, named like credits"},
    {"credits", "output", Width::wide, {"count"}, {}, 3, "its count"},
};

const std::vector<Pattern> kReceiver = {
    {"in_valid", "input", Width::one, {"valid"}, {"credit"}, 5, "the valid of the flit in"},
    {"in_data", "input", Width::wide, {"data"}, {"credit"}, 5, "the data of the flit in"},
    {"in_data", "input", Width::wide, {}, {"credit", "count", "init", "withhold"}, 1, "the wide input left"},
    {"out_valid", "output", Width::one, {"valid"}, {"credit"}, 5, "the valid of the flit out"},
    {"out_ready", "input", Width::one, {"ready"}, {"credit"}, 5, "the ready of the flit out"},
    {"out_data", "output", Width::wide, {"data"}, {"credit"}, 5, "the data of the flit out"},
    {"out_data", "output", Width::wide, {}, {"credit", "count"}, 1, "the wide output left"},
    {"credit_valid", "output", Width::one, {"credit", "valid"}, {}, 6, "the valid of the credits it returns"},
    {"credit_count", "output", Width::any, {"credit"}, {"valid"}, 5, "the credits it returns, as a count"},
    {"slot_freed", "input", Width::one, {"give"}, {"valid", "data"}, 5, "named like a slot freed downstream (credit logic only)"},
    {"slot_freed", "input", Width::one, {"credit"}, {"valid", "init", "withhold"}, 4,
     "a one-bit credit input: a slot freed downstream (credit logic only)"},
};

// Each kind's roles in the map's order, and which of them a map must have.
const RoleList kCounterRoles = {{"clock", "reset", "send", "credit_return", "can_send", "credits", "init", "withhold"},
                                {"clock", "reset", "send", "credit_return", "credits"}};
const RoleList kSenderRoles = {{"clock", "reset", "in_valid", "in_ready", "in_data", "out_valid", "out_data", "credit_valid",
                                "credit_count", "credits"},
                               {"clock", "reset", "in_valid", "in_ready", "in_data", "out_valid", "out_data", "credit_count"}};
const RoleList kReceiverRoles = {{"clock", "reset", "in_valid", "in_data", "out_valid", "out_ready", "out_data", "slot_freed",
                                  "credit_valid", "credit_count"},
                                 {"clock", "reset", "in_valid", "in_data", "out_valid", "out_ready", "out_data", "credit_count"}};

// Parameters: B sizes the credits or the buffer, W the data (a link's only).
const std::regex kWidthName("^(.*width.*|.*bits|.*w|log.*)$");
const std::regex kDataWidthName("^(w|dw|width|dwidth|(data|payload|pld|flit|msg)(width|w|bits)|datawidthbits)$");
const std::regex kCreditWord("^(.*credit.*|.*crd.*)$");
const std::regex kCreditsName("^(.*credit.*|.*crd.*|.*depth.*|.*slots.*|.*entries.*|.*(fifo|buf|buffer|queue)size.*|max.*)$");

// ---- one side's guess

std::string width_text(int width) { return width == 1 ? "one bit" : std::to_string(width) + " bits"; }

// Which of two modules sends: a name that says so (tx, sender, src), else the one that takes credits in.
const std::regex kSenderName("^(tx|sender|send|src|source|master|producer|transmitter|snd|egress|upstream|initiator)$");
const std::regex kReceiverName("^(rx|receiver|recv|rcv|snk|sink|consumer|slave|ingress|downstream|target)$");

}  // namespace

GuessedSide guess_side(const UserModule& m, GuessKind kind) {
    const bool link = kind == GuessKind::sender || kind == GuessKind::receiver;
    // A module of channels: its roles are slices per channel (per_channel_role), each port's
    // width one channel's; a per-VC sender adds its flit rows to the counter's.
    const bool channels = kind == GuessKind::counters || kind == GuessKind::vc_sender;
    const bool carries_data = link || kind == GuessKind::vc_sender;
    const std::vector<Pattern>& table = !link ? kCounter : kind == GuessKind::sender ? kSender : kReceiver;
    const RoleList& list = kind == GuessKind::vc_sender ? vc_sender_roles()
                           : !link                      ? kCounterRoles
                           : kind == GuessKind::sender  ? kSenderRoles
                                                        : kReceiverRoles;
    const auto bits = [](const UserPort& p) { return p.slice ? p.slice : p.width; };
    const auto span_fits = [&](const std::string& role, const UserPort& p) { return !channels || per_channel_role(role) == (p.slice > 0); };
    GuessedSide side;
    side.module = m.name;
    // Parameters. A sender that names its credits keeps its depths: they size a FIFO of its own.
    const auto names_credits = [](const std::string& flat) { return std::regex_match(flat, kCreditWord); };
    const bool credits_named = kind == GuessKind::sender &&
                               std::any_of(m.parameters.begin(), m.parameters.end(),
                                           [&](const std::string& p) { return names_credits(lower_flat(p)); });
    for (const auto& p : m.parameters) {
        const std::string flat = lower_flat(p);
        if (carries_data && std::regex_match(flat, kDataWidthName))
            side.parameters.push_back({p, "W", "named like a data width: the payload bits, W (confirm)"});
        else if (!std::regex_match(flat, kWidthName) && std::regex_match(flat, kCreditsName) &&
                 (!credits_named || names_credits(flat)))
            side.parameters.push_back({p, "B", "named like the number of credits or slots: B (confirm it sizes the credits)"});
        else
            side.parameters_left.push_back(p);
    }
    // Every (role, port) a row allows, best first; then one greedy pass.
    struct Candidate {
        int score;
        size_t row, order;
        std::string role, port, why;
    };
    std::vector<Candidate> candidates;
    std::vector<Pattern> rows = kClockReset;
    if (kind == GuessKind::vc_sender) rows.insert(rows.end(), vc_sender_rows().begin(), vc_sender_rows().end());
    for (const auto& row : table)
        if (std::find(list.roles.begin(), list.roles.end(), row.role) != list.roles.end()) rows.push_back(row);
    for (size_t r = 0; r < rows.size(); ++r) {
        const Pattern& row = rows[r];
        for (size_t i = 0; i < m.port_order.size(); ++i) {
            const std::string& name = m.port_order[i];
            const UserPort& port = m.ports.at(name);
            if (port.direction != row.dir || !span_fits(row.role, port)) continue;
            if ((row.width == Width::one && bits(port) != 1) || (row.width == Width::wide && bits(port) == 1)) continue;
            const Words w = split(name);
            const bool fits = std::all_of(row.all_of.begin(), row.all_of.end(), [&](const char* c) { return has(w, c); }) &&
                              std::none_of(row.none_of.begin(), row.none_of.end(), [&](const char* c) { return has(w, c); });
            if (!fits) continue;
            int score = row.score;
            // A flop's edge says clock or reset louder than a name does.
            if (row.role == std::string("clock") && m.edges.count(name)) score += 2;
            if (row.role == std::string("reset") && m.edges.count(name)) score += 1;
            candidates.push_back({score, r, i, row.role, name, row.why});
        }
    }
    std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        return a.score != b.score ? a.score > b.score : a.row != b.row ? a.row < b.row : a.order < b.order;
    });
    std::map<std::string, Candidate> placed;   // role -> its port
    std::map<std::string, std::string> used;   // port -> role
    std::map<std::string, std::string> valids;   // role -> the valid that goes with its count
    for (const auto& c : candidates) {
        if (placed.count(c.role) || used.count(c.port)) continue;
        placed.emplace(c.role, c);
        used[c.port] = c.role;
        // A counter's take or return with a valid of its own (decr and decr_valid): claim the valid.
        if (!link && (c.role == "send" || c.role == "credit_return") && !has(split(c.port), "valid")) {
            const std::string s = stem(split(c.port));
            for (const auto& name : m.port_order) {
                const UserPort& p = m.ports.at(name);
                if (used.count(name) || p.direction != "input" || bits(p) != 1 || !span_fits(c.role, p) || !has(split(name), "valid"))
                    continue;
                if (stem(split(name)) != s) continue;
                valids[c.role] = name;
                used[name] = c.role + ".valid";
                break;
            }
        }
    }
    // A receiver hands flits on with a ready (its own buffer) or is told of slots freed (credit
    // logic only: creditloop supplies the buffer, and the flit-out roles are optional); with both
    // in sight, the ready wins and the other input is left to the ties.
    std::vector<std::string> required = list.required;
    if (kind == GuessKind::receiver && placed.count("slot_freed")) {
        if (placed.count("out_ready")) {
            used.erase(placed.at("slot_freed").port);
            placed.erase("slot_freed");
        } else {
            required.erase(std::remove_if(required.begin(), required.end(),
                                          [](const std::string& r) {
                                              return r == "out_ready" || r == "out_valid" || r == "out_data" || r == "in_data";
                                          }),
                           required.end());
        }
    }
    // A sender's arbiter ports go together: with one of request and grant placed, both are needed.
    if (placed.count("request") != placed.count("grant")) required.insert(required.end(), {"request", "grant"});
    // The roles as map entries, each with where its guess came from and what to confirm.
    for (const auto& role : list.roles) {
        const auto it = placed.find(role);
        if (it == placed.end()) {
            if (std::find(required.begin(), required.end(), role) != required.end()) {
                side.unplaced.push_back(role);
                side.ports.push_back({role, "?", "NOT PLACED: no port fits; name the port that plays " + role});
            } else {
                side.absent.push_back(role);
            }
            continue;
        }
        const std::string& port = it->second.port;
        const UserPort& p = m.ports.at(port);
        const Words w = split(port);
        std::string why = it->second.why + "; " + p.direction + ", " + width_text(bits(p)) + (p.slice ? " a channel" : "");
        nlohmann::ordered_json value = port;
        if (role == "reset") {
            const auto edge = m.edges.find(port);
            const bool on_edge = edge != m.edges.end();
            const bool low = on_edge ? edge->second == "NEG" : w.low;
            // Synchronous when a clocked block reads it (itself, or through logic: rst || other_rst)
            // and no flop takes its edge; when no flop of this module reads it (its flops are in
            // modules it instantiates), the name decides.
            const bool clocked = std::any_of(m.clocked_reads.begin(), m.clocked_reads.end(), [&](const std::string& read) {
                return read == port || reaches(m, read, {port});
            });
            const bool sync = !on_edge && (clocked || std::regex_search(lower_flat(port), std::regex("sync|srst")));
            value = {{"port", port}, {"active", low ? "low" : "high"}, {"kind", sync ? "sync" : "async"}};
            why = std::string("active ") + (low ? "low" : "high") + ": " +
                  (on_edge ? std::string("the flops take its ") + (low ? "negedge" : "posedge")
                           : w.low ? w.low_why : std::string("no _n in its name")) +
                  "; " + (sync ? "sync" : "async") + ": " +
                  (on_edge ? "it is on the flops' edge"
                   : clocked ? "its flops read it on the clock's edge only"
                             : std::string(sync ? "its name says so" : "a guess (no flop of this module reads it)")) +
                  ". Confirm both (a guess)";
        } else if (role == "clock") {
            why += m.edges.count(port) ? ", on the flops' edge" : "";
        } else if (valids.count(role)) {
            value = {{"port", port}, {"valid", valids[role]}};
            why += ", with its valid " + valids[role] + ": confirm";
        } else if (role == "init") {
            if (bits(p) == 1) {
                value = {{"port", port}, {"tie", 0}};
                why = "a soft re-initialise, held at 0: confirm it is never needed";
            } else {
                value = {{"port", port}, {"value", "B"}};
                why = "the count after reset, given B (a full counter): confirm the initial value";
            }
        } else if (role == "withhold") {
            value = {{"port", port}, {"tie", 0}};
            why = "held at 0, nothing withheld: confirm";
        } else {
            why += ": confirm";
        }
        side.ports.push_back({role, value, why});
    }
    // Every input left over is held at a value: an initial count at B, anything else at 0.
    for (const auto& name : m.port_order) {
        const UserPort& p = m.ports.at(name);
        if (p.direction != "input" || used.count(name)) continue;
        if (bits(p) > 1 && has(split(name), "init"))
            side.ties.push_back({name, "B", "no role: an initial count, held at B (a full count): confirm"});
        else
            side.ties.push_back({name, 0, "no role: held at 0, confirm (or map it to a role)"});
    }
    return side;
}

std::string lower_flat(const std::string& name) {
    std::string s;
    for (char c : name)
        if (c != '_') s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

int sender_evidence(const UserModule& m) {
    const Words w = split(m.name);
    int score = 0;
    for (const auto& word : w.words) {
        if (std::regex_match(word, kSenderName)) score += 2;
        if (std::regex_match(word, kReceiverName)) score -= 2;
    }
    for (const auto& [name, port] : m.ports) {
        const Words pw = split(name);
        if (has(pw, "credit") && !has(pw, "valid") && !has(pw, "init") && !has(pw, "withhold"))
            score += port.direction == "input" ? 1 : -1;
    }
    return score;
}

}  // namespace creditloop::port_map_detail
