// Seeded stimulus for a credit link: a source that offers flits and a consumer that drains them.
// The same LinkInputs go to the RTL and to the golden model every cycle. The random streams are
// our own generator (not <random>'s distributions, whose output differs between standard
// libraries), so a seed gives the same cycles on every machine.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "link_inputs.h"

namespace creditloop {

// splitmix64 (Steele, Lea, Flood): tiny, fast, and good enough for stimulus.
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // true with probability p
    bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }

private:
    uint64_t state_;
};

// Independent streams from one seed, so changing the drain pattern keeps the same payloads.
uint64_t stream_seed(uint64_t seed, uint64_t stream);

enum class TrafficKind { saturating, bernoulli, bursts };
enum class DrainKind { every_nth, random_stalls };

struct TrafficSpec {
    TrafficKind kind = TrafficKind::saturating;
    double rate = 1.0;       // bernoulli: a new flit joins the source's backlog with probability p
    int mean_on = 16;        // bursts: mean length of an on period (a flit every cycle)
    int mean_off = 16;       // bursts: mean length of an off period
};

struct DrainSpec {
    DrainKind kind = DrainKind::every_nth;
    int period = 1;                  // every_nth: drain when cycle % period == 0 (seed 001)
    double stall_probability = 0.0;  // random_stalls: the consumer stalls with probability q
};

struct StimulusSpec {
    TrafficSpec traffic;
    DrainSpec drain;
    double flush_probability = 0.0;  // the return logic is told to flush, at random
    double reverse_load = 0.0;       // reverse traffic holds the shared return slot with probability p
    uint64_t reset_every = 0;        // both ends reset together every N cycles (0: never)
    std::optional<uint64_t> reset_tx_at;   // the sender end alone is reset in this cycle
    std::optional<uint64_t> reset_rx_at;   // the receiver end likewise (both: a whole-link reset)
    uint64_t seed = 1;
    // Every cycle's inputs given, not generated (a proof's counterexample, read_replay): cycle t
    // gets row t, and the seed and patterns above play no part.
    std::shared_ptr<const std::vector<LinkInputs>> replay{};
    std::string replay_file{};   // where they came from (for the header and the rerun line)
};


// "saturate", "bernoulli:0.7", "bursts:16:16" -> TrafficSpec, or an error line.
std::optional<TrafficSpec> parse_traffic(const std::string& text, std::string& error);
std::string describe(const TrafficSpec& traffic);   // the same syntax back
std::string describe(const DrainSpec& drain);       // "every 1", "every 2", "stall 0.3"
// The long-run fraction of cycles the source offers and the consumer drains.
double offered_rate(const TrafficSpec& traffic);
// The shortest decimal text that reads back as exactly `value` (for rerun commands).
std::string exact_number(double value);
double drain_rate(const DrainSpec& drain);

class Stimulus {
public:
    Stimulus(const StimulusSpec& spec, int payload_bits);

    // Inputs for the next cycle (cycles are consecutive from 0).
    const LinkInputs& next();
    // The link took (or did not take) the flit offered this cycle.
    void accepted(bool sent);

private:
    void generate_arrival();

    StimulusSpec spec_;
    uint32_t payload_mask_;
    Rng traffic_rng_;
    Rng drain_rng_;
    Rng flush_rng_;
    Rng reverse_rng_;
    uint64_t payload_seed_;
    uint64_t cycle_ = 0;
    uint64_t drain_phase_ = 0;    // cycle_ % drain period
    uint64_t backlog_ = 0;        // flits generated but not yet accepted (bernoulli, bursts)
    uint64_t flits_accepted_ = 0; // index of the flit at the head of the source
    bool burst_on_ = true;
    LinkInputs inputs_;
};

}  // namespace creditloop
