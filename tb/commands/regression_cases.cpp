// The regression's cases: every configuration seeds 000 and 001 print, with the number they
// print, a random matrix over (L, B, K) and patterns of traffic, drain, flushes, resets, a shared
// return path and the hybrid policy, and four of them again under the SystemC harness.
#include <fnmatch.h>

#include <algorithm>

#include "closed_forms.h"
#include "regression.h"
#include "seed_tables.h"

namespace creditloop {

namespace {

RunSpec seed_spec(int stages, int buffer, int batch, int drain_every, uint64_t seed) {
    RunSpec spec;
    spec.config = LinkConfig{stages, buffer, batch, 32};
    spec.cycles = seeds::kSeedCycles;
    spec.stimulus.seed = seed;
    spec.stimulus.drain.period = drain_every;
    // A seed configuration whose buffer covers RTT + K - 1 is declared full rate, so the sizing
    // scoreboard holds it to one flit per cycle.
    spec.declared_full_rate =
        drain_every == 1 && buffer >= full_rate_buffer(round_trip_cycles(stages), batch);
    return spec;
}

}  // namespace

std::vector<RegressionCase> regression_cases(uint64_t seed) {
    std::vector<RegressionCase> cases;
    for (const auto& row : seeds::kSeed001Rows) {
        for (size_t i = 0; i < seeds::kSeed001Buffers.size(); ++i) {
            const int b = seeds::kSeed001Buffers[i];
            const std::string name = row.drain_every == 1
                ? "seed001/L" + std::to_string(row.stages) + "_B" + std::to_string(b)
                : "seed001/drain" + std::to_string(row.drain_every) + "_L" + std::to_string(row.stages) + "_B" +
                      std::to_string(b);
            cases.push_back({name, seed_spec(row.stages, b, 1, row.drain_every, seed), row.throughput[i]});
        }
    }
    for (size_t i = 0; i < seeds::kSeed000Batches.size(); ++i) {
        const int k = seeds::kSeed000Batches[i];
        cases.push_back({"seed000/K" + std::to_string(k),
                         seed_spec(seeds::kSeed000Stages, seeds::kSeed000Buffer, k, 1, seed),
                         seeds::kSeed000Throughput[i]});
    }

    // Random traffic and drain over a matrix of (L, B, K): three of the seeds' configurations
    // and three with odd sizes and batches that do not divide B.
    struct Shape { int l, b, k; };
    const Shape shapes[] = {{1, 4, 1}, {4, 12, 4}, {8, 18, 1}, {2, 5, 2}, {3, 7, 3}, {5, 16, 4}};
    struct Pattern {
        const char* name;
        const char* traffic;
        DrainSpec drain;
        double flush = 0.0;
        uint64_t reset_every = 0;
        double reverse_load = 0.0;     // a return path shared with reverse traffic
        bool hybrid = false;           // the hybrid return policy (LOW = K, IDLE = 2) ...
        int timeout = 0;               // ... and a flush timeout
    };
    const Pattern patterns[] = {
        {"bernoulli", "bernoulli:0.7", DrainSpec{DrainKind::random_stalls, 1, 0.3}},
        {"bursts", "bursts:12:6", DrainSpec{DrainKind::every_nth, 3, 0.0}},
        {"stalls", "saturate", DrainSpec{DrainKind::random_stalls, 1, 0.5}},
        {"flush", "bernoulli:0.9", DrainSpec{DrainKind::every_nth, 1, 0.0}, 0.2},
        {"resets", "bernoulli:0.8", DrainSpec{DrainKind::random_stalls, 1, 0.2}, 0.0, 2999},
        {"shared", "bernoulli:0.8", DrainSpec{DrainKind::random_stalls, 1, 0.2}, 0.0, 0, 0.5},
        {"hybrid", "bursts:12:6", DrainSpec{DrainKind::random_stalls, 1, 0.1}, 0.05, 4999, 0.3, true, 8},
    };
    uint64_t index = 0;
    for (const Shape& s : shapes) {
        for (const Pattern& p : patterns) {
            RegressionCase c;
            c.name = "random/L" + std::to_string(s.l) + "_B" + std::to_string(s.b) + "_K" + std::to_string(s.k) +
                     "_" + p.name;
            c.spec.config = LinkConfig{s.l, s.b, s.k, 32};
            std::string error;
            c.spec.stimulus.traffic = *parse_traffic(p.traffic, error);
            c.spec.stimulus.drain = p.drain;
            c.spec.stimulus.flush_probability = p.flush;
            c.spec.stimulus.reset_every = p.reset_every;
            c.spec.stimulus.reverse_load = p.reverse_load;
            if (p.hybrid) {
                c.spec.config.policy = ReturnPolicy::hybrid;
                c.spec.config.low_credits = s.k;
                c.spec.config.idle_cycles = kDefaultIdleCycles;
            }
            c.spec.config.flush_timeout = p.timeout;
            c.spec.stimulus.seed = seed * 1000 + (++index);
            c.spec.cycles = 20000;
            cases.push_back(c);
        }
    }

    // The SystemC harness on four of them: the same run must give the same JSON, number for
    // number, as the C++ harness (and so the same verdict).
    auto with_systemc = [&cases](const std::string& from, const std::string& name) {
        for (const auto& c : cases) {
            if (c.name != from) continue;
            RegressionCase sc = c;
            sc.name = name;
            sc.systemc = true;
            return sc;
        }
        return RegressionCase{};
    };
    const std::pair<const char*, const char*> systemc_cases[] = {
        {"seed001/L4_B12", "systemc/seed001_L4_B12"},
        {"seed000/K8", "systemc/seed000_K8"},
        {"random/L3_B7_K3_resets", "systemc/random_L3_B7_K3_resets"},
        {"random/L4_B12_K4_hybrid", "systemc/random_L4_B12_K4_hybrid"},
    };
    for (const auto& [from, name] : systemc_cases) cases.push_back(with_systemc(from, name));
    for (auto& c : corner_cases(seed)) cases.push_back(std::move(c));
    for (auto& c : fault_cases(seed)) cases.push_back(std::move(c));
    for (auto& c : channel_cases(seed)) cases.push_back(std::move(c));
    return cases;
}

std::vector<RegressionCase> corner_cases(uint64_t seed) {
    // What the matrix never builds or does (docs/coverage.md: the bins, covers and RTL lines these
    // reach): a synchroniser and a late free on the loop (one with recovery, its resend waiting
    // behind reverse traffic), the batch policy's flush timeout alone, every batch size of K = 12,
    // the hybrid with LOW = B (always low), and one end reset alone mid-traffic, which must be
    // caught (seed 004's one-sided reset; the RTL still agrees with the model).
    std::vector<RegressionCase> cases;
    std::string error;
    const auto add = [&](const std::string& name, LinkConfig config, const std::string& traffic, DrainSpec drain) {
        RegressionCase c;
        c.name = name;
        c.spec.config = config;
        c.spec.cycles = 20000;
        c.spec.stimulus.seed = seed * 1000 + 500 + cases.size();
        c.spec.stimulus.traffic = *parse_traffic(traffic, error);
        c.spec.stimulus.drain = drain;
        cases.push_back(std::move(c));
        return &cases.back().spec;
    };
    LinkConfig late{3, 10, 2, 32};
    late.sync_stages = 2;
    late.free_delay = 3;
    RunSpec* spec = add("late/L3_B10_K2_sync2_free3", late, "bernoulli:0.8", DrainSpec{DrainKind::random_stalls, 1, 0.2});
    spec->stimulus.flush_probability = 0.05;
    spec->stimulus.reverse_load = 0.2;
    spec->stimulus.reset_every = 4999;
    LinkConfig late_recovery{2, 6, 1, 32};
    late_recovery.sync_stages = 1;
    late_recovery.free_delay = 1;
    late_recovery.recovery = true;
    late_recovery.total_bits = 4;
    late_recovery.resend_period = 8;
    spec = add("late/L2_B6_sync1_free1_recovery", late_recovery, "bursts:8:8", DrainSpec{DrainKind::every_nth, 1, 0.0});
    spec->faults.drop_probability = 0.02;
    spec->stimulus.reverse_load = 0.3;   // a periodic resend that must wait for a free slot
    LinkConfig timeout{3, 8, 4, 32};
    timeout.flush_timeout = 6;
    add("policy/L3_B8_K4_batch_timeout6", timeout, "bursts:3:20", DrainSpec{DrainKind::random_stalls, 1, 0.1});
    // Every batch size 1 .. K returned (credit_return's covers), with K = B = 12 and flushes.
    spec = add("policy/L4_B12_K12_flush", LinkConfig{4, 12, 12, 32}, "bernoulli:0.9", DrainSpec{DrainKind::every_nth, 1, 0.0});
    spec->stimulus.flush_probability = 0.1;
    LinkConfig always_low{2, 4, 2, 32};
    always_low.policy = ReturnPolicy::hybrid;
    always_low.low_credits = 4;
    always_low.idle_cycles = 3;
    spec = add("policy/L2_B4_K2_hybrid_low4", always_low, "bernoulli:0.6", DrainSpec{DrainKind::random_stalls, 1, 0.3});
    spec->stimulus.reverse_load = 0.5;
    // The sender alone: it counts B again while credits are on their way back, so its count
    // climbs past B; B = 8 leaves its 4-bit counter room for them (with B = 7 the RTL's 3 bits
    // wrap where the model counts on, and lockstep rightly differs).
    spec = add("resets/L4_B8_sender_alone", LinkConfig{4, 8, 1, 32}, "bernoulli:0.5", DrainSpec{DrainKind::every_nth, 1, 0.0});
    spec->cycles = 6000;
    spec->stimulus.reset_tx_at = 1000;
    cases.back().expect_caught = {"conservation.one_sided_reset"};
    spec = add("resets/L3_B7_K3_receiver_alone", LinkConfig{3, 7, 3, 32}, "bernoulli:0.8",
               DrainSpec{DrainKind::random_stalls, 1, 0.2});
    spec->stimulus.flush_probability = 0.05;
    spec->cycles = 6000;
    spec->stimulus.reset_rx_at = 1000;
    cases.back().expect_caught = {"conservation.one_sided_reset"};
    return cases;
}

std::vector<RegressionCase> fault_cases(uint64_t seed) {
    // Lost and corrupted credit messages (docs/recovery.md): with recovery the link heals and the
    // run passes; without it the loss must be caught, by the checks named.
    std::vector<RegressionCase> cases;
    std::string error;
    const auto add = [&](const std::string& name, LinkConfig config, uint64_t cycles, const std::string& traffic,
                         FaultSpec faults, std::vector<std::string> caught) {
        RegressionCase c;
        c.name = "faults/" + name;
        c.spec.config = config;
        c.spec.cycles = cycles;
        c.spec.stimulus.seed = seed;
        c.spec.stimulus.traffic = *parse_traffic(traffic, error);
        c.spec.faults = faults;
        c.expect_caught = std::move(caught);
        cases.push_back(std::move(c));
    };
    const auto recovering = [](LinkConfig c, int bits, int period) {
        c.recovery = true;
        c.total_bits = bits;
        c.resend_period = period;
        return c;
    };
    // Seed 000's K = B row: every message carries all twelve credits, so one lost message
    // starves the sender for good unless the next update heals it.
    FaultSpec one;
    one.drop_at = 500;
    add("drop_one_K12", LinkConfig{4, 12, 12, 32}, 6000, "saturate", one, {"conservation.injected_loss", "starvation"});
    add("drop_one_K12_recovery", recovering(LinkConfig{4, 12, 12, 32}, 5, 16), 6000, "saturate", one, {});
    // Random losses in bursty traffic: the resend runs in the quiet gaps, 4-bit totals wrap
    // every 16 credits (hundreds of times in the run).
    FaultSpec random;
    random.drop_probability = 0.05;
    add("drops_bursts", LinkConfig{4, 4, 1, 32}, 20000, "bursts:10:30", random,
        {"conservation.injected_loss", "starvation"});
    add("drops_bursts_recovery", recovering(LinkConfig{4, 4, 1, 32}, 4, 32), 20000, "bursts:10:30", random, {});
    // Every 5th message lost, batches, and reverse traffic on the shared return path.
    FaultSpec every;
    every.drop_every = 5;
    LinkConfig shared = recovering(LinkConfig{3, 7, 3, 32}, 4, 16);
    add("every5_shared_recovery", shared, 8000, "bernoulli:0.7", every, {});
    cases.back().spec.stimulus.reverse_load = 0.3;
    // Corrupted (larger) counts: without recovery credits are made; with it the credit limit
    // refuses every update the corruption pushes past B.
    FaultSpec corrupt;
    corrupt.corrupt_at = 300;
    add("corrupt_one", LinkConfig{4, 12, 1, 32}, 6000, "saturate", corrupt, {"conservation.injected_gain"});
    FaultSpec corrupt_big;
    corrupt_big.corrupt_probability = 0.01;
    corrupt_big.corrupt_add = 30;
    add("corrupt_recovery", recovering(LinkConfig{4, 12, 1, 32}, 5, 16), 6000, "saturate", corrupt_big, {});
    return cases;
}

bool name_matches(const std::string& name, const std::string& pattern) {
    if (pattern.empty()) return true;
    if (pattern.find_first_of("*?[") != std::string::npos) return fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
    return name.find(pattern) != std::string::npos;
}

}  // namespace creditloop
