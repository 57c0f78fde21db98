// The regression's multi-channel cases (docs/channels.md, "In the regression"): the presets, lost
// credit messages per pool, the return policies and resets, head-of-line, the seeds' tables on one
// channel, and a random matrix of links drawn from the regression's seed.
#include <algorithm>

#include "regression.h"
#include "seed_tables.h"
#include "stimulus.h"

namespace creditloop {

std::vector<RegressionCase> channel_cases(uint64_t seed) {
    std::vector<RegressionCase> cases;
    const auto add = [&cases, seed](const std::string& name, const ChannelLinkConfig& config, uint64_t cycles) {
        RegressionCase c;
        c.name = "channels/" + name;
        c.channels = ChannelRunSpec{config, cycles, seed};
        cases.push_back(std::move(c));
    };
    for (const auto& preset : channel_presets()) add(preset, *channel_preset(preset), 20000);
    // Lost credit messages per pool (docs/recovery.md): with recovery every pool heals; without
    // it the first loss is caught, named by pool.
    for (const auto& preset : {"pcie", "chi"}) {
        ChannelLinkConfig config = *channel_preset(preset);
        config.recovery = true;
        config.total_bits = 7;   // 2^7 > 2 x 32, the largest pool
        config.resend_period = 16;
        add(std::string(preset) + "_drops_recovery", config, 20000);
        cases.back().channels->faults.drop_probability = 0.05;
    }
    add("pcie_drop_one", *channel_preset("pcie"), 4000);
    cases.back().channels->faults.drop_at = 300;
    cases.back().expect_caught = {"conservation.injected_loss"};
    // The same run under the SystemC harness: the same JSON, number for number, and the same catch.
    cases.push_back(cases.back());
    cases.back().name = "systemc/channels_pcie_drop_one";
    cases.back().systemc = true;
    // Corrupted updates with recovery: made larger by half the totals' range, each is refused by
    // its pool's credit limit (d >= 2^(n-1) > B_p) and the link loses nothing.
    {
        ChannelLinkConfig config = *channel_preset("pcie");
        config.recovery = true;
        config.total_bits = 7;
        config.resend_period = 16;
        add("pcie_corrupt_recovery", config, 8000);
        cases.back().channels->faults.corrupt_probability = 0.02;
        cases.back().channels->faults.corrupt_add = 64;
    }
    // Every single-link feature per pool: return policies (hybrid, timeout), flush, reverse
    // traffic, SYNC, late frees and resets of both ends mid-traffic pass; a reset of the receiver
    // end alone loses the credits it held, caught by pool.
    {
        ChannelLinkConfig config = *channel_preset("chi");
        config.sync_stages = 1;
        config.free_delay = 1;
        config.channels[0].batch = 4;
        config.channels[0].policy = ReturnPolicy::hybrid;
        config.channels[0].low = 2;
        config.channels[1].timeout = 6;
        config.channels[3].batch = 3;
        config.channels[3].timeout = 8;
        add("chi_policies_resets", config, 12000);
        ChannelEnvironment& env = cases.back().channels->environment;
        env.flush_probability = 0.01;
        env.reverse_load = 0.2;
        env.reset_every = 4000;
    }
    {
        ChannelLinkConfig config = *channel_preset("pcie");
        for (auto& ch : config.channels) {
            ch.policy = ReturnPolicy::hybrid;
            ch.idle = 3;
        }
        config.channels[2].timeout = 10;
        add("pcie_hybrid_busy_return", config, 12000);
        cases.back().channels->environment.reverse_load = 0.3;
    }
    add("ib_receiver_reset_alone", *channel_preset("ib"), 4000);
    cases.back().channels->environment.reset_rx_at = 1500;
    cases.back().expect_caught = {"conservation.one_sided_reset"};
    // Head-of-line (seed 003, creditloop hol): channel C0's consumer stalled; with one shared
    // pool C0's flits take every credit, with a pool each the others keep going.
    add("hol_shared_pool", hol_config(4, 4, 4, true), 4000);
    add("hol_pool_each", hol_config(4, 4, 4, false), 4000);

    // The seeds' single-channel tables on channel_link with one channel (seed 000's batches and
    // seed 001's L = 4 row): the multi-channel top must be the seeds' link when N = 1.
    const auto one_channel = [](int stages, int credits, int batch) {
        ChannelLinkConfig config = single_channel_config(stages, credits, batch);
        config.channels[0].traffic.drain_every = 1;   // seed 001's drain, as the single link's seed cases
        return config;
    };
    for (size_t i = 0; i < seeds::kSeed000Batches.size(); ++i) {
        const int k = seeds::kSeed000Batches[i];
        add("seed000_K" + std::to_string(k), one_channel(seeds::kSeed000Stages, seeds::kSeed000Buffer, k), seeds::kSeedCycles);
        cases.back().seed_throughput = seeds::kSeed000Throughput[i];
    }
    for (const auto& row : seeds::kSeed001Rows) {
        if (row.stages != 4 || row.drain_every != 1) continue;
        for (size_t i = 0; i < seeds::kSeed001Buffers.size(); ++i) {
            const int b = seeds::kSeed001Buffers[i];
            add("seed001_L4_B" + std::to_string(b), one_channel(4, b, 1), seeds::kSeedCycles);
            cases.back().seed_throughput = row.throughput[i];
        }
    }

    // The random matrix: channel counts, plain or header/data channels, pool sizes, batches,
    // credit units and packet sizes, loads and drains, the return path, and now and then a
    // shared pool. Drawn from the regression's seed, so a seed names the same matrix everywhere.
    Rng rng(seed * 0x9E3779B97F4A7C15ull + 11);
    const auto draw = [&rng](int low, int high) { return low + static_cast<int>(rng.next() % static_cast<uint64_t>(high - low + 1)); };
    const int units[] = {1, 8, 16, 32, 64};
    Rng features(seed * 0x9E3779B97F4A7C15ull + 12);
    for (int i = 0; i < 8; ++i) {
        ChannelLinkConfig config;
        config.stages = draw(1, 6);
        config.shared_return = draw(0, 1) == 1;
        config.shared_pool = draw(0, 5) == 0;
        int lanes = 0;
        const int channels = draw(1, 6);
        for (int c = 0; c < channels && lanes < kMaxLanes - 1; ++c) {
            ChannelSpec ch;
            ch.name = "C" + std::to_string(c);
            ch.split = draw(0, 3) == 0;
            ch.credits = draw(1, 15);
            ch.batch = draw(1, std::min(ch.credits, 4));
            ch.unit = units[draw(0, 4)];
            if (ch.split) {
                ch.data_credits = draw(1, 32);
                ch.data_batch = draw(1, std::min(ch.data_credits, 4));
            }
            // Packets up to what the pool can ever hold (a bigger one would wait forever).
            const int most = ch.split ? ch.data_credits * ch.unit : ch.credits * ch.unit;
            ch.traffic.max_bytes = draw(ch.split ? 0 : 1, std::min(most, 4 * ch.unit));
            ch.traffic.min_bytes = draw(ch.split ? 0 : 1, std::max(ch.split ? 0 : 1, ch.traffic.max_bytes));
            if (ch.traffic.min_bytes > ch.traffic.max_bytes) std::swap(ch.traffic.min_bytes, ch.traffic.max_bytes);
            ch.traffic.load = draw(1, 20) / 20.0;   // exact in decimal: reruns print and parse it back
            ch.traffic.drain = draw(4, 20) / 20.0;
            lanes += ch.split ? 2 : 1;
            config.channels.push_back(ch);
        }
        // A shared pool's packets can cost up to every channel's credits together: keep it valid.
        if (validate(config)) config.shared_pool = false;
        // One link in three recovers lost credit messages, and loses some (docs/recovery.md).
        const bool recovery = draw(0, 2) == 0;
        if (recovery) {
            config.recovery = true;
            config.resend_period = draw(4, 64);
            const ChannelLayout l = layout(config);
            config.total_bits = 1;
            for (int p = 0; p < l.pools; ++p)
                while ((1 << config.total_bits) <= 2 * l.pool_credits[p]) ++config.total_bits;
        }
        std::string name = "random" + std::to_string(i) + "_C" + std::to_string(config.channels.size()) + "_L" +
                           std::to_string(config.stages) + (config.shared_pool ? "_SP" : "") + (config.shared_return ? "_SR" : "") +
                           (recovery ? "_R" : "");
        // One link in two returns its credits as the single link can: policies per channel,
        // flushes, reverse traffic, SYNC and late frees (their own stream: the matrix above is
        // the same with or without them).
        const auto feature = [&features](int low, int high) {
            return low + static_cast<int>(features.next() % static_cast<uint64_t>(high - low + 1));
        };
        ChannelEnvironment env;
        if (feature(0, 1) == 1) {
            config.sync_stages = feature(0, 2);
            config.free_delay = feature(0, 2);
            for (auto& ch : config.channels) {
                if (feature(0, 1) == 1) {
                    ch.policy = ReturnPolicy::hybrid;
                    ch.low = feature(0, ch.split ? std::min(ch.credits, ch.data_credits) : ch.credits);
                    ch.idle = feature(1, 4);
                }
                if (feature(0, 2) == 0) ch.timeout = feature(1, 16);
            }
            env.flush_probability = feature(0, 2) / 100.0;
            env.reverse_load = feature(0, 4) / 10.0;
            name += "_P";
        }
        add(name, config, 8000);
        cases.back().channels->environment = env;
        if (recovery) cases.back().channels->faults.drop_probability = 0.05;
    }
    return cases;
}

}  // namespace creditloop
