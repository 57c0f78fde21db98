// The multi-channel link's options (channels_command.h): `creditloop run --preset/--channel/--channels`
// parsed with CLI11, the JSON description of a link (--channels FILE), the arguments that rerun a
// channel run exactly, and `creditloop hol`'s options.
#include "channels_command.h"
#include "replay.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_parse.h"

namespace creditloop {

bool is_channel_run(const std::vector<std::string>& args) {
    for (const auto& a : args)
        for (const char* option : {"--preset", "--channel", "--channels"})
            if (a == option || a.rfind(std::string(option) + "=", 0) == 0) return true;
    return false;
}

namespace {

constexpr long long kMaxCycles = 100000000000LL;
constexpr long long kMaxSeed = 0x7FFFFFFFFFFFFFFFLL;

std::string fmt_number(double v) {
    std::string s = fmt::format("{}", v);
    return s;
}

// A JSON number that is a whole number an int holds, or nothing. nlohmann's get<int>() would
// convert a float with a plain cast, undefined behaviour out of int's range (fuzz_channel_file
// found {"L": 11111111111111111122222222}), and wrap a large integer to a small one.
std::optional<int> whole_int(const nlohmann::json& value) {
    if (!value.is_number_integer()) return std::nullopt;
    if (value.is_number_unsigned())
        return value.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int>::max())
                   ? std::optional<int>(static_cast<int>(value.get<uint64_t>()))
                   : std::nullopt;
    const int64_t v = value.get<int64_t>();
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) return std::nullopt;
    return static_cast<int>(v);
}

std::string channel_text(const ChannelSpec& c) {
    std::string out = "name=" + c.name + ",credits=" + std::to_string(c.credits) + ",batch=" + std::to_string(c.batch);
    if (c.split) out += ",data=" + std::to_string(c.data_credits) + ",data_batch=" + std::to_string(c.data_batch);
    if (c.full_rate) out += ",full_rate=1";
    if (c.policy == ReturnPolicy::hybrid)
        out += ",policy=hybrid,low=" + std::to_string(c.low < 0 ? c.batch : c.low) + ",idle=" + std::to_string(c.idle);
    if (c.timeout) out += ",timeout=" + std::to_string(c.timeout);
    out += ",unit=" + std::to_string(c.unit) + ",bytes=" + std::to_string(c.traffic.min_bytes) + "-" +
           std::to_string(c.traffic.max_bytes) + ",load=" + fmt_number(c.traffic.load);
    out += c.traffic.drain_every > 0 ? ",drain_every=" + std::to_string(c.traffic.drain_every)
                                     : ",drain=" + fmt_number(c.traffic.drain);
    return out;
}

}  // namespace

Problem read_channel_description(const std::string& path, ChannelLinkConfig& config) {
    std::ifstream in(path);
    if (!in) return "--channels " + path + ": cannot read it (does it exist?)";
    std::ostringstream text;
    text << in.rdbuf();
    return parse_channel_description(text.str(), path, config);
}

Problem parse_channel_description(const std::string& json_text, const std::string& path, ChannelLinkConfig& config) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::exception& e) {
        return "--channels " + path + " is not JSON (" + e.what() + ")";
    }
    const std::string where = "--channels " + path + ": ";
    try {
        if (!j.is_object()) return where + "the top level must be an object with a \"channels\" list";
        for (const auto& [key, value] : j.items()) {
            if (key == "protocol") {
                const std::string p = value.get<std::string>();
                if (p != "generic" && p != "chi" && p != "pcie" && p != "ib")
                    return where + "protocol '" + p + "': generic, chi, pcie or ib";
                config.protocol = p == "chi" ? ChannelProtocol::chi : p == "pcie" ? ChannelProtocol::pcie
                                  : p == "ib" ? ChannelProtocol::ib : ChannelProtocol::generic;
            } else if (key == "L") {
                const auto stages = whole_int(value);
                if (!stages) return where + "L = " + value.dump() + ": a whole number of stages (1.." + std::to_string(kMaxStages) + ")";
                config.stages = *stages;
            } else if (key == "sync" || key == "free_delay") {
                const auto cycles = whole_int(value);
                if (!cycles) return where + key + " = " + value.dump() + ": a whole number of cycles (0..64)";
                (key == "sync" ? config.sync_stages : config.free_delay) = *cycles;
            } else if (key == "shared_pool") {
                config.shared_pool = value.get<bool>();
            } else if (key == "shared_return") {
                config.shared_return = value.get<bool>();
            } else if (key == "channels") {
                if (!value.is_array()) return where + "\"channels\" must be a list of objects";
                config.channels.clear();
                for (const auto& ch : value) {
                    ChannelSpec spec;
                    spec.name = "C" + std::to_string(config.channels.size());
                    // The same keys as --channel, as JSON values: {"name": "REQ", "credits": 15, "bytes": [1, 64]}.
                    std::string text;
                    for (const auto& [k, v] : ch.items()) {
                        std::string item;
                        if (k == "bytes" && v.is_array() && v.size() == 2) {
                            const auto low = whole_int(v[0]), high = whole_int(v[1]);
                            if (!low || !high) return where + "bytes = " + v.dump() + ": [MIN, MAX] in whole bytes";
                            item = std::to_string(*low) + "-" + std::to_string(*high);
                        }
                        else if (v.is_string()) item = v.get<std::string>();
                        else if (v.is_boolean()) item = v.get<bool>() ? "1" : "0";
                        else item = v.dump();
                        text += (text.empty() ? "" : ",") + k + "=" + item;
                    }
                    const std::string problem = apply_channel_text(spec, text);
                    if (!problem.empty()) return where + problem;
                    config.channels.push_back(spec);
                }
            } else {
                return where + "unknown key '" + key + "' (known: protocol, L, sync, free_delay, shared_pool, shared_return, channels)";
            }
        }
    } catch (const nlohmann::json::exception& e) {
        return where + "a value has the wrong type (" + e.what() + ")";
    }
    if (!j.contains("channels")) return where + "no \"channels\" list: describe at least one channel";
    return std::nullopt;
}

std::string channel_run_arguments(const ChannelRunSpec& spec) {
    const ChannelLinkConfig& c = spec.config;
    std::string out = std::string("--protocol ") + protocol_name(c.protocol) + " --L " + std::to_string(c.stages);
    if (c.shared_pool) out += " --shared-pool";
    if (c.shared_return) out += " --shared-return";
    if (c.recovery)
        out += " --recovery --total-bits " + std::to_string(c.total_bits) + " --resend " + std::to_string(c.resend_period);
    if (c.sync_stages) out += " --sync " + std::to_string(c.sync_stages);
    if (c.free_delay) out += " --free-delay " + std::to_string(c.free_delay);
    for (const auto& ch : c.channels) out += " --channel " + channel_text(ch);
    if (spec.replay) return out + " --replay " + spec.replay_file;
    out += " --cycles " + std::to_string(spec.cycles) + " --seed " + std::to_string(spec.seed);
    const ChannelEnvironment& e = spec.environment;
    if (e.flush_probability > 0.0) out += " --flush " + exact_number(e.flush_probability);
    if (e.reverse_load > 0.0) out += " --reverse-load " + exact_number(e.reverse_load);
    if (e.reset_every) out += " --reset-every " + std::to_string(e.reset_every);
    if (e.reset_tx_at) out += " --reset-sender-at " + std::to_string(*e.reset_tx_at);
    if (e.reset_rx_at) out += " --reset-receiver-at " + std::to_string(*e.reset_rx_at);
    const FaultSpec& f = spec.faults;
    if (f.drop_probability > 0.0) out += " --drop " + exact_number(f.drop_probability);
    if (f.drop_at) out += " --drop-at " + std::to_string(*f.drop_at);
    if (f.drop_every) out += " --drop-every " + std::to_string(f.drop_every);
    if (f.corrupt_probability > 0.0) out += " --corrupt " + exact_number(f.corrupt_probability);
    if (f.corrupt_at) out += " --corrupt-at " + std::to_string(*f.corrupt_at);
    if ((f.corrupt_probability > 0.0 || f.corrupt_at) && f.corrupt_add != 1) out += " --corrupt-add " + std::to_string(f.corrupt_add);
    return out;
}

std::optional<std::string> channel_counter_refuses(const ChannelRunSpec& spec, const SwappedBlock& swapped) {
    const ChannelLinkConfig& c = spec.config;
    for (const ChannelSpec& channel : c.channels) {
        const PacketCost most = packet_cost(channel, channel.traffic.max_bytes);
        if (swapped.single_credit_send && (most.header_credits > 1 || most.data_credits > 1))
            return std::string(swapped.owns_flits ? "your sender pushes packets of one flit and one credit"
                                                  : "your counter takes one credit a send (a one-bit send)") +
                   ", but a packet of channel " + channel.name + " of " + std::to_string(channel.traffic.max_bytes) + " bytes takes " +
                   std::to_string(std::max(most.header_credits, most.data_credits)) + " credits at once: keep every packet to one credit (bytes <= unit)" +
                   (swapped.owns_flits ? "" : " or map send as a count with its valid");
        if (swapped.single_credit_return && (channel.batch > 1 || (channel.split && channel.data_batch > 1) || most.data_credits > 1))
            return "your counter takes one credit a cycle back (a one-bit credit_return), but channel " + channel.name +
                   " returns several at once (a batch, or a packet's data credits): give it batch=1 and one-credit packets";
    }
    if (swapped.single_credit_return &&
        (c.shared_return || c.recovery || spec.environment.flush_probability > 0.0 || spec.faults.corrupt_probability > 0.0 ||
         spec.faults.corrupt_at))
        return "your counter takes one credit a cycle back (a one-bit credit_return): drop the shared return path, recovery, "
               "flushes and corrupted messages, which return several at once";
    if (swapped.owns_flits && c.shared_pool) return "your sender keeps a counter a virtual channel: drop --shared-pool (every lane one pool)";
    for (const ChannelSpec& channel : c.channels)
        if (swapped.owns_flits && channel.split)
            return "your sender launches one flit a channel, but channel " + channel.name + " is header/data (two lanes): give every channel one lane";
    if (swapped.equal_pools_only)
        for (const ChannelSpec& channel : c.channels)
            for (const int credits : {channel.credits, channel.split ? channel.data_credits : channel.credits})
                if (credits != c.channels.front().credits)
                    return "your counter array starts every pool from one B (no init role), but channel " + channel.name +
                           " has " + std::to_string(credits) + " credits and channel " + c.channels.front().name + " " +
                           std::to_string(c.channels.front().credits) + ": map the array's init port, or give every pool the same credits";
    const ChannelEnvironment& e = spec.environment;
    if (swapped.synchronous_reset && (e.reset_every || e.reset_tx_at || e.reset_rx_at))
        return "your counter resets synchronously, so it cannot take the mid-run reset pulses: drop --reset-every, "
               "--reset-sender-at and --reset-receiver-at";
    return std::nullopt;
}

std::optional<std::string> channel_systemc_refuses(const ChannelRunCommand& cmd) {
    if (cmd.model_only || !cmd.waves.empty() || !cmd.mutant.empty() || !cmd.rtl_dir.empty() || !cmd.counter_file.empty() ||
        !cmd.plusargs.empty())
        return std::string("--systemc runs the checkout's RTL under SystemC: drop --model, --waves, --mutant, --rtl, "
                           "--counter and --plusarg (the C++ harness takes them)");
    return std::nullopt;
}

std::vector<std::string> channel_systemc_command(const std::string& harness, const ChannelRunSpec& spec) {
    const auto words = [](const std::string& text) {
        std::vector<std::string> out;
        std::istringstream in(text);
        for (std::string word; in >> word;) out.push_back(word);
        return out;
    };
    // Led by the preset the run came from (its name is in the report) when that changes nothing else.
    const std::string plain = channel_run_arguments(spec);
    std::vector<std::string> args = words(plain);
    if (!spec.config.preset.empty()) {
        std::vector<std::string> named = words("--preset " + spec.config.preset + " " + plain);
        ParseError error;
        const auto again = parse_channel_run(named, error);
        if (again && again->spec.config.preset == spec.config.preset && channel_run_arguments(again->spec) == plain)
            args = named;
    }
    args.insert(args.begin(), {harness, "run"});
    return args;
}

std::optional<ChannelRunCommand> parse_channel_run(const std::vector<std::string>& args, ParseError& error) {
    ChannelRunCommand cmd;
    std::string preset, protocol;
    std::vector<std::string> channels;
    std::vector<std::string> stalled;
    std::string description;
    int stages = 0;
    bool shared_pool = false, shared_return = false;
    CLI::App app{"Check the multi-channel link (docs/channels.md), the RTL in lockstep with the golden model.",
                 "creditloop run --preset NAME"};
    app.add_option("--preset", preset, "start from a seed's system: chi, pcie or ib")
        ->check(one_of(channel_presets(), "a channel preset"));
    app.add_option("--channel", channels,
                   "a channel, key=value,...: name, credits, data (header/data channel), batch, data_batch, unit "
                   "(bytes per credit), bytes (N or MIN-MAX), load, drain, drain_every, full_rate, policy (each, batch, hybrid), low, "
                   "idle, timeout (its pools' return policy); a preset's channel of the same name is changed, else one is added")
        ->take_all();
    app.add_option("--channels", description,
                   "the link described in a JSON file: {\"L\": 4, \"shared_return\": true, \"channels\": [{\"name\": "
                   "\"REQ\", \"credits\": 15, \"bytes\": [1, 64]}, ...]} (the --channel keys)");
    app.add_option("--protocol", protocol, "the rules the description must keep: generic, chi (at most 15 credits a channel)")
        ->check(one_of({"generic", "chi", "pcie", "ib"}, "a protocol"));
    app.add_option("--L", stages, "stages on the forward link and every return path")->check(stages_limit());
    add_flag(app, "--shared-pool", shared_pool, "every lane draws from one pool (the head-of-line case)");
    add_flag(app, "--shared-return", shared_return, "one (pool, count) credit message per cycle on one return path");
    app.add_option("--stall", stalled, "stall this channel's consumer (drain 0)")->take_all();
    bool recovery = false;
    int total_bits = 0, resend = 0;
    add_flag(app, "--recovery", recovery, "cumulative credit updates per pool, resent every --resend cycles (docs/recovery.md)");
    app.add_option("--total-bits", total_bits, "recovery: width n of the running totals (2^n > 2B for every pool)")
        ->check(whole_number(1, 16));
    app.add_option("--resend", resend, "recovery: cycles between a pool's updates when it has nothing new")
        ->check(whole_number(1, 4096));
    int sync = -1, free_delay = -1;
    app.add_option("--sync", sync, "synchroniser stages a clock-domain crossing adds to every return path")
        ->check(whole_number(0, kMaxSyncStages));
    app.add_option("--free-delay", free_delay, "every lane frees a slot N cycles after its flit leaves")
        ->check(whole_number(0, kMaxFreeDelay));
    ChannelEnvironment& env = cmd.spec.environment;
    uint64_t reset_tx_at = 0, reset_rx_at = 0;
    app.add_option("--flush", env.flush_probability, "tell each pool's return logic to flush, with probability P")
        ->check(probability("P", true));
    app.add_option("--reverse-load", env.reverse_load, "reverse traffic holds each return path with probability P")
        ->check(probability("P", false));
    app.add_option("--reset-every", env.reset_every, "reset both ends together every N cycles, mid-traffic")
        ->check(whole_number(0, kMaxCycles));
    auto* reset_tx = app.add_option("--reset-sender-at", reset_tx_at, "reset the sender end alone in cycle C");
    auto* reset_rx = app.add_option("--reset-receiver-at", reset_rx_at,
                                    "reset the receiver end alone in cycle C (with --reset-sender-at C: both)");
    FaultSpec& faults = cmd.spec.faults;
    uint64_t drop_at = 0, corrupt_at = 0;
    app.add_option("--drop", faults.drop_probability, "drop each credit message with probability P")->check(probability("P", true));
    auto* drop_at_option = app.add_option("--drop-at", drop_at, "drop the first credit message arriving at or after cycle C");
    app.add_option("--drop-every", faults.drop_every, "drop every Nth credit message")->check(whole_number(0, kMaxCycles));
    app.add_option("--corrupt", faults.corrupt_probability, "make each credit message larger with probability P")
        ->check(probability("P", true));
    auto* corrupt_at_option = app.add_option("--corrupt-at", corrupt_at, "make the first credit message arriving at or after cycle C larger");
    app.add_option("--corrupt-add", faults.corrupt_add, "by this much (default 1)")->check(whole_number(1, 65535));
    app.add_option("--cycles", cmd.spec.cycles, "cycles to run")->check(whole_number(20, kMaxCycles))->capture_default_str();
    app.add_option("--seed", cmd.spec.seed, "stimulus seed")->check(whole_number(0, kMaxSeed))->capture_default_str();
    add_run_output_options(app, cmd);
    std::string replay;
    auto* replay_option = app.add_option("--replay", replay,
                                         "every cycle's inputs from FILE (a proof's counterexample, written by make formal)");
    for (const char* other : {"--cycles", "--seed", "--flush", "--reverse-load", "--reset-every", "--reset-sender-at",
                              "--reset-receiver-at", "--drop", "--drop-at", "--drop-every", "--corrupt", "--corrupt-at", "--stall"})
        replay_option->excludes(app.get_option(other));
    app.add_option("--mutant", cmd.mutant, "a mutant of rtl/mutants/channels/ (by name), applied to its block, or with --counter a "
                                           ".mutant patch of one of your counter's files");
    app.add_option("--rtl", cmd.rtl_dir, "your own RTL: every .sv in DIR, top credit_link in credit_link.sv")
        ->excludes(app.get_option("--mutant"));
    app.add_option("--counter", cmd.counter_file,
                   "your own credit counter in every pool's place: a .json port map of it, or seed 002's .sv (docs/own-rtl.md); "
                   "--mutant PATH.mutant then patches a file of the map");
    if (!parse_command(app, args, error)) return std::nullopt;
    if (cmd.model_only && (!cmd.waves.empty() || !cmd.plusargs.empty() || !cmd.rtl_dir.empty() || !cmd.counter_file.empty())) {
        error.message = "--waves, --plusarg, --rtl and --counter need the RTL: drop --model";
        return std::nullopt;
    }

    if (replay_option->count()) {
        auto rows = read_channel_replay(replay, error.message);
        if (!rows) return std::nullopt;
        cmd.spec.cycles = rows->size();
        cmd.spec.replay = std::make_shared<const std::vector<ChannelInputs>>(std::move(*rows));
        cmd.spec.replay_file = replay;
    }
    ChannelLinkConfig& config = cmd.spec.config;
    if (!preset.empty()) config = *channel_preset(preset);
    if (!description.empty()) {
        if (auto problem = read_channel_description(description, config)) {
            error.message = *problem;
            return std::nullopt;
        }
    }
    if (!protocol.empty())
        config.protocol = protocol == "chi" ? ChannelProtocol::chi : protocol == "pcie" ? ChannelProtocol::pcie
                          : protocol == "ib" ? ChannelProtocol::ib : ChannelProtocol::generic;
    if (stages) config.stages = stages;
    if (sync >= 0) config.sync_stages = sync;
    if (free_delay >= 0) config.free_delay = free_delay;
    if (reset_tx->count()) env.reset_tx_at = reset_tx_at;
    if (reset_rx->count()) env.reset_rx_at = reset_rx_at;
    config.shared_pool = config.shared_pool || shared_pool;
    if (drop_at_option->count()) faults.drop_at = drop_at;
    if (corrupt_at_option->count()) faults.corrupt_at = corrupt_at;
    if (!recovery && (total_bits || resend)) {
        error.message = "--total-bits and --resend tune the recovery protocol: add --recovery";
        return std::nullopt;
    }
    config.recovery = config.recovery || recovery;
    if (resend) config.resend_period = resend;
    config.shared_return = config.shared_return || shared_return;
    for (const auto& text : channels) {
        // The name picks the channel to change; a new name adds one.
        std::string name;
        std::istringstream items(text);
        for (std::string item; std::getline(items, item, ',');)
            if (item.rfind("name=", 0) == 0) name = item.substr(5);
        auto it = std::find_if(config.channels.begin(), config.channels.end(),
                               [&](const ChannelSpec& c) { return !name.empty() && c.name == name; });
        ChannelSpec added;
        ChannelSpec& target = it != config.channels.end() ? *it : added;
        const std::string problem = apply_channel_text(target, text);
        if (!problem.empty()) {
            error.message = problem;
            return std::nullopt;
        }
        if (&target == &added) {
            if (added.name.empty()) added.name = "C" + std::to_string(config.channels.size());
            config.channels.push_back(added);
        }
    }
    for (const auto& name : stalled) {
        auto it = std::find_if(config.channels.begin(), config.channels.end(), [&](const ChannelSpec& c) { return c.name == name; });
        if (it == config.channels.end()) {
            error.message = "--stall " + name + ": no channel of that name";
            return std::nullopt;
        }
        it->traffic.drain = 0.0;
        it->traffic.drain_every = 0;
    }
    if (config.recovery) {
        // The narrowest totals that keep a stale total from looking new in every pool: they wrap soonest.
        const ChannelLayout l = layout(config);
        config.total_bits = 1;
        for (int p = 0; p < l.pools; ++p)
            while ((1LL << config.total_bits) <= 2LL * l.pool_credits[p] && config.total_bits < 16) ++config.total_bits;
        if (total_bits) config.total_bits = total_bits;
    }
    if (auto problem = validate(config)) {
        error.message = *problem;
        return std::nullopt;
    }
    return cmd;
}

// ---- the head-of-line table's options

std::optional<HolCommand> parse_hol(const std::vector<std::string>& args, ParseError& error) {
    HolCommand cmd;
    CLI::App app{"The head-of-line table (seed 003): the same traffic with channel 0's consumer stalled, once with "
                 "a pool per channel and once with one shared pool, against the closed forms.",
                 "creditloop hol"};
    app.add_option("--channels", cmd.channel_counts, "channels of each setup")->check(whole_number(2, kMaxChannels))->take_all();
    app.add_option("--credits", cmd.credit_counts, "credits per channel of each setup")->check(whole_number(1, 15))->take_all();
    app.add_option("--L", cmd.stage_counts, "stages of each setup")->check(stages_limit())->take_all();
    app.add_option("--cycles", cmd.cycles, "cycles per run (throughput over the second half)")
        ->check(whole_number(200, kMaxCycles))->capture_default_str();
    app.add_option("--seed", cmd.seed, "stimulus seed")->check(whole_number(0, kMaxSeed))->capture_default_str();
    add_flag(app, "--model", cmd.model_only, "the golden model alone (no RTL)");
    if (!parse_command(app, args, error)) return std::nullopt;
    if (cmd.channel_counts.size() != cmd.credit_counts.size() || cmd.channel_counts.size() != cmd.stage_counts.size()) {
        error.message = "--channels, --credits and --L need one value per setup (got " + std::to_string(cmd.channel_counts.size()) +
                        ", " + std::to_string(cmd.credit_counts.size()) + " and " + std::to_string(cmd.stage_counts.size()) + ")";
        return std::nullopt;
    }
    return cmd;
}

}  // namespace creditloop
