#include "channel_config.h"

#include <algorithm>
#include <sstream>

namespace creditloop {

const char* protocol_name(ChannelProtocol protocol) {
    switch (protocol) {
    case ChannelProtocol::chi: return "chi";
    case ChannelProtocol::pcie: return "pcie";
    case ChannelProtocol::ib: return "ib";
    case ChannelProtocol::generic: break;
    }
    return "generic";
}

std::string ChannelLinkConfig::key() const {
    std::ostringstream k;
    k << "C" << channels.size() << "_L" << stages << (shared_pool ? "_SP" : "") << (shared_return ? "_SR" : "");
    if (recovery) k << "_R" << total_bits << "p" << resend_period;
    if (sync_stages) k << "_S" << sync_stages;
    if (free_delay) k << "_D" << free_delay;
    if (credits_on_arrival) k << "_A";
    for (const auto& c : channels) {
        k << "_" << (c.split ? "s" : "p") << c.credits << "k" << c.batch << "u" << c.unit;
        if (c.split) k << "d" << c.data_credits << "k" << c.data_batch;
        if (c.full_rate) k << "F";
        if (c.policy == ReturnPolicy::hybrid) k << "H" << (c.low < 0 ? c.batch : c.low) << "i" << c.idle;
        if (c.timeout) k << "T" << c.timeout;
    }
    return k.str();
}

namespace {

// A pool's return policy from the channel it serves (`batch`: the pool's K, for LOW's default).
void set_policy(ChannelLayout& out, int pool, const ChannelSpec& spec, int batch) {
    out.pool_hybrid[pool] = spec.policy == ReturnPolicy::hybrid;
    out.pool_low[pool] = out.pool_hybrid[pool] ? (spec.low < 0 ? batch : spec.low) : 0;
    out.pool_idle[pool] = out.pool_hybrid[pool] ? spec.idle : 1;
    out.pool_timeout[pool] = spec.timeout;
}

}  // namespace

ChannelLayout layout(const ChannelLinkConfig& config) {
    ChannelLayout out;
    out.channels = static_cast<int>(config.channels.size());
    int lane = 0;
    for (int c = 0; c < out.channels && c < kMaxChannels; ++c) {
        const ChannelSpec& spec = config.channels[c];
        out.channel_lane[c] = lane;
        out.channel_split[c] = spec.split;
        out.channel_unit[c] = spec.unit;
        const int lanes = spec.split ? 2 : 1;
        for (int i = 0; i < lanes && lane < kMaxLanes; ++i, ++lane) {
            out.lane_channel[lane] = c;
            if (config.shared_pool) {
                out.lane_pool[lane] = 0;
            } else {
                out.lane_pool[lane] = lane;
                out.pool_credits[lane] = i == 0 ? spec.credits : spec.data_credits;
                out.pool_batch[lane] = i == 0 ? spec.batch : spec.data_batch;
                out.pool_channel[lane] = c;
                out.pool_full_rate[lane] = spec.full_rate;
                set_policy(out, lane, spec, out.pool_batch[lane]);
            }
        }
    }
    out.lanes = lane;
    if (config.shared_pool) {
        // One pool holds the credits every lane would have had; it batches as channel 0 does.
        out.pools = out.lanes > 0 ? 1 : 0;
        for (const auto& spec : config.channels) out.pool_credits[0] += spec.credits + (spec.split ? spec.data_credits : 0);
        out.pool_batch[0] = config.channels.empty() ? 1 : config.channels.front().batch;
        out.pool_channel[0] = -1;
        if (!config.channels.empty()) set_policy(out, 0, config.channels.front(), out.pool_batch[0]);
        for (const auto& spec : config.channels) out.pool_full_rate[0] = out.pool_full_rate[0] || spec.full_rate;
    } else {
        out.pools = out.lanes;
    }
    return out;
}

namespace {

// `text` fit for an error line: a byte that is not printable ASCII as \xNN.
std::string printable(const std::string& text) {
    std::string out;
    for (unsigned char c : text) {
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else {
            static const char* digits = "0123456789abcdef";
            out += std::string("\\x") + digits[c >> 4] + digits[c & 15];
        }
    }
    return out;
}

}  // namespace

std::optional<std::string> validate(const ChannelLinkConfig& config) {
    const auto bad = [](const std::string& what) { return std::optional<std::string>(what); };
    if (config.channels.empty()) return bad("no channels: describe at least one (--preset NAME or --channel name=X,credits=N)");
    if (config.channels.size() > kMaxChannels)
        return bad(std::to_string(config.channels.size()) + " channels: at most " + std::to_string(kMaxChannels));
    if (config.stages < 1 || config.stages > 1024)
        return bad("L = " + std::to_string(config.stages) + ": need 1 <= L <= 1024");
    if (config.sync_stages < 0 || config.sync_stages > kMaxSyncStages)
        return bad("--sync = " + std::to_string(config.sync_stages) + ": need 0.." + std::to_string(kMaxSyncStages) +
                   " synchroniser stages");
    if (config.free_delay < 0 || config.free_delay > kMaxFreeDelay)
        return bad("--free-delay = " + std::to_string(config.free_delay) + ": need 0.." + std::to_string(kMaxFreeDelay) +
                   " cycles");
    int lanes = 0;
    for (const auto& c : config.channels) lanes += c.split ? 2 : 1;
    if (config.recovery) {
        if (config.resend_period < 1 || config.resend_period > 4096)
            return bad("--resend = " + std::to_string(config.resend_period) + ": need 1..4096 cycles between updates");
        const ChannelLayout l = layout(config);
        for (int p = 0; p < l.pools; ++p)
            if (config.total_bits > 16 || (1LL << config.total_bits) <= 2LL * l.pool_credits[p]) {
                int need = 1;
                while ((1LL << need) <= 2LL * l.pool_credits[p]) ++need;
                return bad("--total-bits = " + std::to_string(config.total_bits) + ": running totals need 2^n > 2B for every pool, so " +
                           std::to_string(need) + "..16 with a pool of " + std::to_string(l.pool_credits[p]) + " credits");
            }
    }
    if (lanes > kMaxLanes)
        return bad(std::to_string(lanes) + " lanes (a header/data channel has two): at most " + std::to_string(kMaxLanes));
    for (const auto& c : config.channels) {
        const std::string who = "channel " + c.name + ": ";
        const auto pool = [&](const char* what, int credits, int batch) -> std::optional<std::string> {
            if (credits < 1 || credits > kMaxPoolCredits)
                return who + what + " = " + std::to_string(credits) + ": a pool needs 1 to " +
                       std::to_string(kMaxPoolCredits) + " credits";
            if (config.protocol == ChannelProtocol::chi && credits > kChiMaxCredits)
                return who + what + " = " + std::to_string(credits) + ": CHI's link layer allows at most " +
                       std::to_string(kChiMaxCredits) + " credits per channel";
            if (batch < 1 || batch > credits)
                return who + "batch = " + std::to_string(batch) + ": need 1 <= batch <= " + std::to_string(credits);
            return std::nullopt;
        };
        if (c.name.empty()) return bad("a channel has no name: give it one (name=REQ)");
        // The name goes into the rerun line (--channel name=...,credits=...), the report and the
        // waves' group names: a space, a comma or an '=' would make the rerun line another link.
        if (c.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
            return bad("channel name '" + printable(c.name) + "': use letters, digits and _ (it is part of the rerun line)");
        if (auto e = pool("credits", c.credits, c.batch)) return e;
        if (c.split) {
            if (auto e = pool("data credits", c.data_credits, c.data_batch)) return e;
        }
        if (c.unit < 1 || c.unit > kMaxPacketBytes)
            return bad(who + "unit = " + std::to_string(c.unit) + ": a credit stands for 1 to 65535 bytes");
        if (c.policy != ReturnPolicy::hybrid && (c.low != -1 || c.idle != kDefaultIdleCycles))
            return bad(who + "low and idle tune the hybrid policy: add policy=hybrid");
        const int fewest = c.split ? std::min(c.credits, c.data_credits) : c.credits;
        if (c.low < -1 || c.low > fewest)
            return bad(who + "low = " + std::to_string(c.low) + ": need 0 <= low <= " + std::to_string(fewest) +
                       " (the credits of its smallest pool)");
        if (c.idle < 1 || c.idle > kMaxIdleCycles)
            return bad(who + "idle = " + std::to_string(c.idle) + ": need 1.." + std::to_string(kMaxIdleCycles) + " cycles");
        if (c.timeout < 0 || c.timeout > kMaxFlushTimeout)
            return bad(who + "timeout = " + std::to_string(c.timeout) + ": need 0 (none) .. " +
                       std::to_string(kMaxFlushTimeout) + " cycles");
        const ChannelTraffic& t = c.traffic;
        if (t.min_bytes < 0 || t.max_bytes > kMaxPacketBytes || t.min_bytes > t.max_bytes)
            return bad(who + "bytes = " + std::to_string(t.min_bytes) + "-" + std::to_string(t.max_bytes) +
                       ": need 0 <= MIN <= MAX <= 65535");
        if (!(t.load >= 0.0 && t.load <= 1.0)) return bad(who + "load must be a probability in [0, 1]");
        if (!(t.drain >= 0.0 && t.drain <= 1.0)) return bad(who + "drain must be a probability in [0, 1]");
        if (t.drain_every < 0) return bad(who + "drain_every must be 0 (off) or a period of at least 1 cycle");
        // A packet that costs more than its pool holds would wait at the head forever.
        const PacketCost cost = packet_cost(c, t.max_bytes);
        const ChannelLayout l = layout(config);
        if (!config.shared_pool) {
            if (cost.header_credits > c.credits)
                return bad(who + "a packet of " + std::to_string(t.max_bytes) + " bytes costs " +
                           std::to_string(cost.header_credits) + " credits, more than the pool's " +
                           std::to_string(c.credits) + ": raise credits or lower bytes");
            if (c.split && cost.data_credits > c.data_credits)
                return bad(who + "a packet of " + std::to_string(t.max_bytes) + " bytes costs " +
                           std::to_string(cost.data_credits) + " data credits, more than the pool's " +
                           std::to_string(c.data_credits) + ": raise data or lower bytes");
        } else if (cost.header_credits + cost.data_credits > l.pool_credits[0]) {
            return bad(who + "a packet of " + std::to_string(t.max_bytes) + " bytes costs more than the shared pool's " +
                       std::to_string(l.pool_credits[0]) + " credits");
        }
    }
    return std::nullopt;
}

namespace {

ChannelSpec plain(const char* name, int credits, int unit, int min_bytes, int max_bytes) {
    ChannelSpec c;
    c.name = name;
    c.credits = credits;
    c.unit = unit;
    c.traffic.min_bytes = min_bytes;
    c.traffic.max_bytes = max_bytes;
    return c;
}

ChannelSpec header_data(const char* name, int headers, int data, int min_bytes, int max_bytes) {
    ChannelSpec c = plain(name, headers, 16, min_bytes, max_bytes);
    c.split = true;
    c.data_credits = data;
    c.data_batch = 4;
    return c;
}

}  // namespace

std::vector<std::string> channel_presets() { return {"chi", "pcie", "ib"}; }

std::optional<ChannelLinkConfig> channel_preset(const std::string& name) {
    ChannelLinkConfig c;
    c.preset = name;
    if (name == "chi") {
        // Seed 002: REQ, RSP, SNP and DAT, each its own pool (at most 15 credits), its own credit
        // wires back. Command flits are one flit; a 64-byte line is two 32-byte DAT flits.
        c.protocol = ChannelProtocol::chi;
        c.stages = 4;
        c.channels = {plain("REQ", 15, 64, 1, 64), plain("RSP", 8, 64, 1, 64), plain("SNP", 8, 64, 1, 64),
                      plain("DAT", 15, 32, 64, 64)};
        c.channels[0].traffic.load = 0.3;
        c.channels[1].traffic.load = 0.2;
        c.channels[2].traffic.load = 0.1;
        c.channels[3].traffic.load = 0.2;
        c.channels[1].traffic.drain = 0.9;
        return c;
    }
    if (name == "pcie") {
        // Seed 003: Posted, Non-Posted and Completion, each with header and data credits (16-byte
        // data credits, packets of 0 to 256 bytes); the credits come back in UpdateFC messages,
        // one per cycle on one return path.
        c.protocol = ChannelProtocol::pcie;
        c.stages = 4;
        c.shared_return = true;
        c.channels = {header_data("P", 8, 32, 16, 256), header_data("NP", 8, 4, 0, 16),
                      header_data("Cpl", 8, 32, 0, 256)};
        c.channels[0].traffic.load = 0.05;
        c.channels[1].traffic.load = 0.2;
        c.channels[2].traffic.load = 0.05;
        c.channels[2].traffic.drain = 0.8;
        return c;
    }
    if (name == "ib") {
        // Seed 003: a credit counter per virtual lane; a lane out of credits stops alone.
        // 64-byte credits, packets of 64 to 256 bytes, a longer cable (L = 6).
        c.protocol = ChannelProtocol::ib;
        c.stages = 6;
        c.shared_return = true;
        c.channels = {plain("VL0", 16, 64, 64, 256), plain("VL1", 16, 64, 64, 256), plain("VL2", 8, 64, 64, 256),
                      plain("VL3", 8, 64, 64, 128)};
        for (auto& ch : c.channels) ch.traffic.load = 0.12;
        c.channels[3].traffic.drain = 0.3;   // a slow consumer: VL3 runs out of credits, the others go on
        return c;
    }
    return std::nullopt;
}

ChannelLinkConfig single_channel_config(int stages, int credits, int batch) {
    ChannelLinkConfig config;
    config.stages = stages;
    ChannelSpec ch;
    ch.name = "C0";
    ch.credits = credits;
    ch.batch = batch;
    config.channels.push_back(ch);
    return config;
}

ChannelLinkConfig single_channel_config(const LinkConfig& link) {
    ChannelLinkConfig config = single_channel_config(link.stages, link.buffer_slots, link.batch);
    ChannelSpec& ch = config.channels[0];
    ch.full_rate = link.rtl_full_rate;
    ch.policy = link.policy;
    if (link.policy == ReturnPolicy::hybrid) {   // they tune the hybrid only, and a channel says so
        ch.low = link.low_credits;
        ch.idle = link.idle_cycles;
    }
    ch.timeout = link.flush_timeout;
    config.sync_stages = link.sync_stages;
    config.free_delay = link.free_delay;
    config.credits_on_arrival = link.credits_on_arrival;
    config.recovery = link.recovery;
    if (link.recovery) config.total_bits = link.total_bits;
    config.resend_period = link.resend_period;
    return config;
}

ChannelLinkConfig hol_config(int channels, int credits, int stages, bool shared_pool) {
    ChannelLinkConfig c;
    c.preset = shared_pool ? "hol-shared" : "hol";
    c.stages = stages;
    c.shared_pool = shared_pool;
    for (int i = 0; i < channels; ++i) {
        ChannelSpec ch;
        ch.name = "C" + std::to_string(i);
        ch.credits = credits;
        ch.traffic.drain = i == 0 ? 0.0 : 1.0;
        c.channels.push_back(ch);
    }
    return c;
}

std::string apply_channel_text(ChannelSpec& channel, const std::string& text) {
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto eq = item.find('=');
        if (eq == std::string::npos) return "'" + item + "' in --channel: write key=value (name=REQ,credits=15)";
        const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        const auto number = [&](int& out) -> std::string {
            try {
                size_t used = 0;
                const long v = std::stol(value, &used);
                if (used != value.size() || v < -1 || v > 1'000'000) throw std::invalid_argument(value);
                out = static_cast<int>(v);
                return "";
            } catch (const std::exception&) {
                return "--channel " + key + "='" + value + "': need a whole number";
            }
        };
        const auto probability = [&](double& out) -> std::string {
            try {
                size_t used = 0;
                out = std::stod(value, &used);
                if (used != value.size()) throw std::invalid_argument(value);
                return "";
            } catch (const std::exception&) {
                return "--channel " + key + "='" + value + "': need a number in [0, 1]";
            }
        };
        std::string error;
        if (key == "name") channel.name = value;
        else if (key == "credits") error = number(channel.credits);
        else if (key == "data") error = number(channel.data_credits), channel.split = true;
        else if (key == "batch") error = number(channel.batch);
        else if (key == "data_batch") error = number(channel.data_batch);
        else if (key == "unit") error = number(channel.unit);
        else if (key == "load") error = probability(channel.traffic.load);
        else if (key == "drain") error = probability(channel.traffic.drain);
        else if (key == "drain_every") error = number(channel.traffic.drain_every);
        else if (key == "low") error = number(channel.low);
        else if (key == "idle") error = number(channel.idle);
        else if (key == "timeout") error = number(channel.timeout);
        else if (key == "policy") {
            if (value == "each") channel.policy = ReturnPolicy::batch, channel.batch = 1, channel.data_batch = 1;
            else if (value == "batch") channel.policy = ReturnPolicy::batch;
            else if (value == "hybrid") channel.policy = ReturnPolicy::hybrid;
            else error = "--channel policy='" + value + "': each, batch or hybrid";
        }
        else if (key == "full_rate") {
            int flag = 0;
            error = number(flag);
            if (error.empty() && flag != 0 && flag != 1) error = "--channel full_rate='" + value + "': 0 or 1";
            channel.full_rate = flag == 1;
        }
        else if (key == "bytes") {
            const auto dash = value.find('-');
            const std::string saved = value;
            int lo = 0, hi = 0;
            if (dash == std::string::npos) {
                error = number(lo);
                hi = lo;
            } else {
                std::string low = saved.substr(0, dash), high = saved.substr(dash + 1);
                const auto parse = [&](const std::string& s, int& out) {
                    try {
                        size_t used = 0;
                        out = std::stoi(s, &used);
                        return used == s.size();
                    } catch (const std::exception&) {
                        return false;
                    }
                };
                if (!parse(low, lo) || !parse(high, hi)) error = "--channel bytes='" + saved + "': write N or MIN-MAX";
            }
            channel.traffic.min_bytes = lo;
            channel.traffic.max_bytes = hi;
        } else {
            return "--channel: unknown key '" + key +
                   "' (known: name, credits, data, batch, data_batch, unit, bytes, load, drain, drain_every, full_rate, "
                   "policy, low, idle, timeout)";
        }
        if (!error.empty()) return error;
    }
    return "";
}

}  // namespace creditloop
