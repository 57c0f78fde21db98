// A run of a credit network (docs/network.md): seeded traffic into the verilated network
// (NocDut) and the golden model (cpp_models/noc_model.h) side by side, every cycle, with the
// network's scoreboards on what the RTL shows at its ports:
//   lockstep       flits taken and delivered, every VC's flits, credits and wait-for set
//   conservation   per link and VC: credits at the sender + flits on the link + flits in the
//                  receiver's VC + credits on their way back == B
//   overflow       no VC holds more than B flits
//   send at zero   no flit leaves on an output VC without a credit
//   delivery       every packet delivered once, at its destination, its flits in order
//   deadlock       a cycle of buffers waiting on each other (noc_graph.h), unless expected
// The first violation stops the run; the result says which check, where and at which cycle.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "noc_dut.h"
#include "noc_graph.h"
#include "noc_model.h"

namespace creditloop {

enum class NocPattern { uniform, transpose, neighbor, hops };

struct NocTraffic {
    NocPattern pattern = NocPattern::uniform;
    int hops = 1;            // NocPattern::hops: every node sends to the node this many hops ahead (rings)
    double rate = 0.1;       // offered flits per node per cycle (a packet with probability rate / flits)
    int flits = 1;           // flits per packet
    uint64_t seed = 1;
};

// The destinations node s sends to under `t` (empty: s sends nothing), each equally likely.
std::vector<int> pattern_destinations(const NocConfig& c, const NocTraffic& t, int s);
// "" when the pattern fits the topology, else why not.
std::string pattern_problem(const NocConfig& c, const NocTraffic& t);
const char* pattern_name(NocPattern p);

struct NocRunSpec {
    NocConfig config;
    NocTraffic traffic;
    uint64_t warmup = 1000;      // cycles before the measurement window
    uint64_t measure = 10000;    // the window: throughput, latency and credit use are measured in it
    uint64_t drain = 20000;      // at most this long after the window for the packets made in it
    bool expect_deadlock = false;
    bool stop_at_deadlock = true;
    // Instead of the traffic's packets: these, each made at its cycle (its VC the first entry VC).
    struct Scripted {
        uint64_t cycle;
        int src, dest;
    };
    std::vector<Scripted> script;
    bool keep_packets = false;   // NocRunResult::packets: every delivered packet
};

struct NocViolation {
    uint64_t cycle = 0;
    std::string check;     // "lockstep", "conservation", ...
    std::string where;     // "node 2 port 1 VC 0"
    std::string detail;    // expected and got
    std::string line() const { return "cycle " + std::to_string(cycle) + ": " + check + ": " + where + ": " + detail; }
};

struct NocRunResult {
    uint64_t cycles = 0;                     // cycles run
    uint64_t packets_made = 0, packets_taken = 0, packets_delivered = 0;
    double offered = 0.0;                    // flits made per node per cycle in the window
    double accepted = 0.0;                   // flits delivered per node per cycle in the window
    double latency_avg = 0.0, latency_p99 = 0.0;   // made to delivered (tail), the window's packets
    uint64_t latency_count = 0;
    uint64_t latency_min = 0, latency_max = 0;
    // Per channel (node, port >= 1 that has a neighbour): the mean share of its V x B credits
    // out (spent, not yet back) over the window.
    struct ChannelUse {
        int node = 0, port = 0;
        double share = 0.0;
    };
    std::vector<ChannelUse> credit_use;
    bool drained = false;                    // every packet made in the window was delivered
    std::optional<NocViolation> violation;   // the first check that failed
    std::optional<NocDeadlock> deadlock;
    uint64_t lockstep_cycles = 0;
    uint64_t second_port_grants = 0;          // heads given a VC on their route's second port (the model's count)
    std::optional<uint64_t> assertion_cycle;  // an RTL assertion fired
    struct Delivered {
        int src, dest;
        uint64_t made, taken, delivered;
    };
    std::vector<Delivered> packets;           // with NocRunSpec::keep_packets
    bool ok() const { return !violation && !assertion_cycle; }
};

// Runs `spec` on `dut` (reset first) with the model beside it; nullptr: the model alone (its own
// waits feed the detector, no lockstep).
NocRunResult run_network(NocDut* dut, const NocRunSpec& spec);

// The zero-load run: every ordered pair of nodes, one packet of `flits` flits at a time on an
// empty network, with the model in lockstep. Each latency (taken to delivered) is compared with
// the closed form; the first that differs is the violation.
struct NocZeroLoad {
    int pairs = 0;
    std::optional<NocViolation> violation;
};
NocZeroLoad zero_load_check(NocDut* dut, const NocConfig& c, int flits);

}  // namespace creditloop
