// Functional coverage (docs/coverage.md): every bin is hit by a sequence worked by hand, or by a
// model run whose stimulus is built to reach it, and stays at 0 when the behaviour is absent; the
// counts add up across runs by name; the JSON beside the JUnit file reads back.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "channel_run.h"
#include "coverage.h"
#include "coverage_report.h"
#include "regression.h"
#include "test_support.h"

using namespace creditloop;
namespace fs = std::filesystem;

namespace {

LinkConfig link(int stages, int buffer, int batch = 1) { return LinkConfig{stages, buffer, batch, 32}; }

// A cycle of a whole link at rest, B credits at the sender, nothing anywhere else.
Observation at_rest(const LinkConfig& c, uint64_t cycle) {
    Observation o;
    o.cycle = cycle;
    o.credits = static_cast<uint32_t>(c.buffer_slots);
    o.can_send = true;
    return o;
}

// Feed hand-worked cycles, numbering them from 0.
LinkCoverage feed(const LinkConfig& c, std::vector<Observation> cycles) {
    LinkCoverage coverage(c);
    for (size_t i = 0; i < cycles.size(); ++i) {
        cycles[i].cycle = i;
        coverage.step(cycles[i]);
    }
    return coverage;
}

// The model alone, checked: no verilation.
LinkBinCounts model_run(const RunSpec& spec) { return run_link(nullptr, spec).coverage; }

uint64_t bin(const LinkBinCounts& counts, LinkBin b) { return counts[static_cast<size_t>(b)]; }
uint64_t bin(const ChannelBinCounts& counts, ChannelBin b) { return counts[static_cast<size_t>(b)]; }

RunSpec busy(int stages, int buffer, int batch, const std::string& traffic = "bernoulli:0.8", double stall = 0.2) {
    RunSpec spec = creditloop::testing::seed_run(stages, buffer, batch);
    std::string error;
    spec.stimulus.traffic = *parse_traffic(traffic, error);
    spec.stimulus.drain = DrainSpec{DrainKind::random_stalls, 1, stall};
    spec.cycles = 6000;
    return spec;
}

struct CoutCapture {
    std::ostringstream text;
    std::streambuf* saved = std::cout.rdbuf(text.rdbuf());
    ~CoutCapture() { std::cout.rdbuf(saved); }
};

}  // namespace

TEST_CASE("every bin has a distinct dotted name and a meaning", "[coverage][fast]") {
    CoverageTally tally;
    REQUIRE(tally.total() == kLinkBinCount + kChannelBinCount);
    std::set<std::string> names;
    for (const auto& e : tally.entries()) {
        CHECK(names.insert(e.name).second);
        CHECK(e.name.find('.') != std::string::npos);
        CHECK_FALSE(e.meaning.empty());
    }
    for (const auto& b : kChannelBins) CHECK(std::string(b.name).rfind("channels.", 0) == 0);
}

TEST_CASE("credits and occupancy land in one bin each: 0, 1, mid, B - 1, B", "[coverage][fast]") {
    const LinkConfig c = link(2, 5);
    std::vector<Observation> cycles;
    for (uint32_t v : {0u, 1u, 2u, 3u, 4u, 5u, 6u}) {   // 6 is past B: a broken loop, no bin
        Observation o = at_rest(c, 0);
        o.credits = v;
        o.occupancy = v;
        cycles.push_back(o);
    }
    const LinkCoverage k = feed(c, cycles);
    for (LinkBin b : {LinkBin::credits_zero, LinkBin::credits_one, LinkBin::credits_full_minus_one, LinkBin::credits_full,
                      LinkBin::occupancy_empty, LinkBin::occupancy_one, LinkBin::occupancy_full_minus_one,
                      LinkBin::occupancy_full})
        CHECK(k.count(b) == 1);
    CHECK(k.count(LinkBin::credits_mid) == 2);      // 2 and 3
    CHECK(k.count(LinkBin::occupancy_mid) == 2);

    // B = 2: 1 is "one" (not also B - 1), and there is no mid.
    const LinkConfig two = link(2, 2);
    std::vector<Observation> small;
    for (uint32_t v : {0u, 1u, 2u}) {
        Observation o = at_rest(two, 0);
        o.credits = v;
        small.push_back(o);
    }
    const LinkCoverage s = feed(two, small);
    CHECK(s.count(LinkBin::credits_one) == 1);
    CHECK(s.count(LinkBin::credits_full_minus_one) == 0);
    CHECK(s.count(LinkBin::credits_mid) == 0);
    CHECK(s.count(LinkBin::credits_full) == 1);
}

TEST_CASE("transitions: 0 -> 1 and 1 -> 0 credits, B -> B - 1 and 0 -> 1 occupancy, worked by hand", "[coverage][fast]") {
    // B = 4. A transition is a cycle's start-of-cycle count and the next one's.
    //   cycle      0  1  2  3  4  5  6  7
    //   credits    1  0  1  3  4  3  0  2    1 -> 0, 0 -> 1, 3 -> 4 (back to B); 0 -> 2 is no 0 -> 1
    //   occupancy  0  1  4  3  3  3  3  3    0 -> 1, 4 -> 3 (full to one free)
    const LinkConfig c = link(2, 4);
    const uint32_t credits[] = {1, 0, 1, 3, 4, 3, 0, 2};
    const uint32_t occupancy[] = {0, 1, 4, 3, 3, 3, 3, 3};
    std::vector<Observation> cycles;
    for (size_t i = 0; i < 8; ++i) {
        Observation o = at_rest(c, i);
        o.credits = credits[i];
        o.occupancy = occupancy[i];
        cycles.push_back(o);
    }
    cycles[0].want_send = cycles[0].send = true;   // the last credit goes
    cycles[1].want_send = true;                     // blocked at 0
    cycles[1].credits_arriving = 1;
    cycles[2].credits_arriving = 2;
    cycles[3].credits_arriving = 1;
    cycles[4].send = true;
    cycles[5].send = true;                          // a send and a return in one cycle
    cycles[5].credits_arriving = 1;
    const LinkCoverage k = feed(c, cycles);
    CHECK(k.count(LinkBin::credits_one_to_zero) == 1);
    CHECK(k.count(LinkBin::credits_zero_to_one) == 1);
    CHECK(k.count(LinkBin::credits_back_to_full) == 1);
    CHECK(k.count(LinkBin::send_blocked) == 1);
    CHECK(k.count(LinkBin::send_and_return) == 1);
    CHECK(k.count(LinkBin::occupancy_empty_to_one) == 1);
    CHECK(k.count(LinkBin::occupancy_full_to_one_free) == 1);

    // B = 1: the value 1 is B, and 0 -> 1 is still a credit coming back to an empty sender.
    const LinkConfig single = link(2, 1);
    std::vector<Observation> one_credit(4, at_rest(single, 0));
    one_credit[1].credits = 0;
    one_credit[0].send = true;
    const LinkCoverage s = feed(single, one_credit);
    CHECK(s.count(LinkBin::credits_one_to_zero) == 1);
    CHECK(s.count(LinkBin::credits_zero_to_one) == 1);
    CHECK(s.count(LinkBin::credits_back_to_full) == 1);

    // A link at rest does none of it.
    const LinkCoverage idle = feed(c, std::vector<Observation>(10, at_rest(c, 0)));
    for (LinkBin b : {LinkBin::credits_zero_to_one, LinkBin::credits_one_to_zero, LinkBin::send_blocked,
                      LinkBin::occupancy_full_to_one_free, LinkBin::occupancy_empty_to_one, LinkBin::credits_back_to_full})
        CHECK(idle.count(b) == 0);
    CHECK(idle.count(LinkBin::credits_full) == 10);
    CHECK(idle.count(LinkBin::occupancy_empty) == 10);

    // A reset is no transition: the counts after it are the reset's.
    std::vector<Observation> reset(3, at_rest(c, 0));
    reset[0].credits = 0;
    reset[0].reset_tx = reset[0].reset_rx = true;
    CHECK(feed(c, reset).count(LinkBin::credits_back_to_full) == 0);
}

TEST_CASE("batch sizes and flushes, worked by hand: released = returned + the wait's growth", "[coverage][fast]") {
    const LinkConfig c = link(2, 8, 4);
    // Cycle 0: a full batch of 4 goes. Cycle 2: the flush input returns 2 (a partial batch).
    std::vector<Observation> cycles(4, at_rest(c, 0));
    cycles[0].credits_returned = 4;
    cycles[0].return_message = true;
    cycles[2].flush = true;
    cycles[2].policy_flush = true;
    cycles[2].credits_returned = 2;
    cycles[2].return_message = true;
    const LinkCoverage k = feed(c, cycles);
    CHECK(k.count(LinkBin::batch_full) == 1);
    CHECK(k.count(LinkBin::batch_partial) == 1);
    CHECK(k.count(LinkBin::flush_input_partial) == 1);
    CHECK(k.count(LinkBin::flush_timeout) == 0);

    // The same partial release with no flush input, on the batch policy: the timeout did it.
    cycles[2].flush = false;
    const LinkCoverage t = feed(c, cycles);
    CHECK(t.count(LinkBin::flush_timeout) == 1);
    CHECK(t.count(LinkBin::flush_input_partial) == 0);

    // No flush at all: full batches only, no partial, no flush bin.
    std::vector<Observation> plain(4, at_rest(c, 0));
    plain[1].credits_returned = 4;
    const LinkCoverage p = feed(c, plain);
    CHECK(p.count(LinkBin::batch_full) == 1);
    for (LinkBin b : {LinkBin::batch_partial, LinkBin::flush_input_partial, LinkBin::flush_timeout,
                      LinkBin::flush_hybrid_idle, LinkBin::flush_hybrid_low})
        CHECK(p.count(b) == 0);

    // K = 1: every release is single.
    const LinkConfig each = link(2, 8, 1);
    std::vector<Observation> ones(3, at_rest(each, 0));
    ones[0].credits_returned = 1;
    ones[1].credits_returned = 1;
    const LinkCoverage e = feed(each, ones);
    CHECK(e.count(LinkBin::batch_single) == 2);
    CHECK(e.count(LinkBin::batch_full) == 0);
}

TEST_CASE("a shared return slot, worked by hand: credits wait, leave together, merge", "[coverage][fast]") {
    const LinkConfig c = link(2, 8, 1);
    std::vector<Observation> cycles(4, at_rest(c, 0));
    cycles[0].return_busy = true;          // 2 released (1 + 1 over cycles 0 .. 1) into busy cycles
    cycles[1].return_busy = true;
    cycles[1].return_waiting = 1;
    cycles[2].return_waiting = 2;          // free: the 2 that waited and 1 new go in one message
    cycles[2].credits_returned = 3;
    cycles[2].return_message = true;
    const LinkCoverage k = feed(c, cycles);
    CHECK(k.count(LinkBin::return_busy_wait) == 2);
    CHECK(k.count(LinkBin::return_waited_sent) == 1);
    CHECK(k.count(LinkBin::return_merged) == 1);

    const LinkCoverage dedicated = feed(c, std::vector<Observation>(4, at_rest(c, 0)));
    CHECK(dedicated.count(LinkBin::return_busy_wait) == 0);
    CHECK(dedicated.count(LinkBin::return_waited_sent) == 0);
    CHECK(dedicated.count(LinkBin::return_merged) == 0);
}

TEST_CASE("round trips on the model: the straight loop is the minimum, each wait its own class", "[coverage][fast][model]") {
    // Seed 001, L = 4, B = 12 (>= RTT = 10), the consumer draining every cycle: every credit
    // goes straight round.
    const LinkBinCounts straight = model_run(creditloop::testing::seed_run(4, 12));
    CHECK(bin(straight, LinkBin::rtt_minimum) > 5000);
    for (LinkBin b : {LinkBin::rtt_consumer_wait, LinkBin::rtt_batch_wait, LinkBin::rtt_slot_wait,
                      LinkBin::rtt_update_lost, LinkBin::rtt_synchroniser, LinkBin::rtt_late_free})
        CHECK(bin(straight, b) == 0);

    // One credit, L = 1: spent in cycles 0, 4, ..., 5996 (2L + 2 = 4 apart), each back at the
    // sender 2L + 1 = 3 cycles later, the last in cycle 5999: 1500 round trips, all minimal.
    const LinkBinCounts one = model_run(creditloop::testing::seed_run(1, 1));
    CHECK(bin(one, LinkBin::rtt_minimum) == 1500);

    CHECK(bin(model_run(creditloop::testing::seed_run(4, 12, 1, 2)), LinkBin::rtt_consumer_wait) > 0);   // drain every 2nd
    CHECK(bin(model_run(creditloop::testing::seed_run(4, 12, 4)), LinkBin::rtt_batch_wait) > 0);

    RunSpec shared = creditloop::testing::seed_run(4, 12);
    shared.stimulus.reverse_load = 0.5;
    const LinkBinCounts slot = model_run(shared);
    CHECK(bin(slot, LinkBin::rtt_slot_wait) > 0);
    CHECK(bin(slot, LinkBin::rtt_batch_wait) == 0);

    RunSpec late = creditloop::testing::seed_run(2, 12);
    late.config.sync_stages = 2;
    late.config.free_delay = 3;
    const LinkBinCounts l = model_run(late);
    CHECK(bin(l, LinkBin::rtt_synchroniser) > 0);
    CHECK(bin(l, LinkBin::rtt_late_free) == bin(l, LinkBin::rtt_synchroniser));
    CHECK(bin(l, LinkBin::rtt_minimum) > 0);   // 2L + 2 + SYNC + FREE_DELAY is this loop's minimum
    CHECK(bin(l, LinkBin::rtt_batch_wait) == 0);
}

TEST_CASE("a lost update's credits come late with recovery; without it the loop is broken and no class is kept", "[coverage][fast][model]") {
    RunSpec spec = busy(4, 4, 1, "bursts:10:30", 0.0);
    spec.cycles = 20000;
    spec.faults.drop_probability = 0.05;
    const LinkBinCounts lossy = model_run(spec);
    CHECK(bin(lossy, LinkBin::fault_drop_count) > 0);
    CHECK(bin(lossy, LinkBin::rtt_update_lost) == 0);

    spec.config.recovery = true;
    spec.config.total_bits = 4;
    spec.config.resend_period = 32;
    const LinkBinCounts healed = model_run(spec);
    CHECK(bin(healed, LinkBin::fault_drop_update) > 0);
    CHECK(bin(healed, LinkBin::fault_drop_count) == 0);
    CHECK(bin(healed, LinkBin::rtt_update_lost) > 0);
    CHECK(bin(healed, LinkBin::recovery_resend) > 0);        // the quiet gaps between bursts
    CHECK(bin(healed, LinkBin::recovery_total_wraps) > 0);   // 4-bit totals wrap every 16 credits

    spec.faults = FaultSpec{};
    const LinkBinCounts clean = model_run(spec);
    CHECK(bin(clean, LinkBin::rtt_update_lost) == 0);
    CHECK(bin(clean, LinkBin::fault_drop_update) == 0);
    CHECK(bin(clean, LinkBin::recovery_refused) == 0);
}

TEST_CASE("corrupted messages: counted as made credits without recovery, refused with it", "[coverage][fast][model]") {
    RunSpec spec = creditloop::testing::seed_run(4, 12);
    spec.faults.corrupt_at = 300;
    const LinkBinCounts made = model_run(spec);
    CHECK(bin(made, LinkBin::fault_corrupt_count) == 1);
    CHECK(bin(made, LinkBin::recovery_refused) == 0);

    spec.config.recovery = true;
    spec.config.total_bits = 5;
    spec.faults = FaultSpec{};
    spec.faults.corrupt_probability = 0.01;
    spec.faults.corrupt_add = 16;   // half of 2^5: every corrupted update is above B and refused
    const LinkBinCounts refused = model_run(spec);
    CHECK(bin(refused, LinkBin::fault_corrupt_update) > 0);
    CHECK(bin(refused, LinkBin::recovery_refused) == bin(refused, LinkBin::fault_corrupt_update));
}

TEST_CASE("flush bins by cause on the model: the input, the timeout, the hybrid's idle and low", "[coverage][fast][model]") {
    RunSpec flushed = busy(3, 8, 4);
    flushed.stimulus.flush_probability = 0.2;
    const LinkBinCounts input = model_run(flushed);
    CHECK(bin(input, LinkBin::flush_input_partial) > 0);
    CHECK(bin(input, LinkBin::batch_partial) >= bin(input, LinkBin::flush_input_partial));
    CHECK(bin(input, LinkBin::flush_timeout) == 0);

    RunSpec timeout = busy(3, 8, 4, "bursts:3:20", 0.1);
    timeout.config.flush_timeout = 6;
    const LinkBinCounts timed = model_run(timeout);
    CHECK(bin(timed, LinkBin::flush_timeout) > 0);
    CHECK(bin(timed, LinkBin::flush_input_partial) == 0);

    RunSpec hybrid = busy(3, 8, 4, "bursts:12:6", 0.1);
    hybrid.config.policy = ReturnPolicy::hybrid;
    hybrid.config.low_credits = 4;
    hybrid.config.idle_cycles = 2;
    hybrid.stimulus.reverse_load = 0.3;
    const LinkBinCounts h = model_run(hybrid);
    CHECK(bin(h, LinkBin::flush_hybrid_idle) > 0);
    CHECK(bin(h, LinkBin::flush_hybrid_low) > 0);

    // Batches of 4 and nothing to flush them: no flush bin at all.
    const LinkBinCounts none = model_run(busy(3, 8, 4));
    for (LinkBin b : {LinkBin::flush_input_partial, LinkBin::flush_timeout, LinkBin::flush_hybrid_idle,
                      LinkBin::flush_hybrid_low, LinkBin::batch_partial})
        CHECK(bin(none, b) == 0);
    CHECK(bin(none, LinkBin::batch_full) > 0);
}

TEST_CASE("resets with credits away: both ends, and each end alone", "[coverage][fast][model]") {
    RunSpec both = busy(3, 7, 3);
    both.stimulus.reset_every = 999;
    const LinkBinCounts b = model_run(both);
    CHECK(bin(b, LinkBin::reset_both_in_flight) == 6);
    CHECK(bin(b, LinkBin::reset_sender_alone_in_flight) == 0);

    RunSpec sender = busy(3, 7, 3);
    sender.stimulus.reset_tx_at = 1000;
    CHECK(bin(model_run(sender), LinkBin::reset_sender_alone_in_flight) == 1);
    RunSpec receiver = busy(3, 7, 3);
    receiver.stimulus.reset_rx_at = 1000;
    const LinkBinCounts r = model_run(receiver);
    CHECK(bin(r, LinkBin::reset_receiver_alone_in_flight) == 1);
    CHECK(bin(r, LinkBin::reset_both_in_flight) == 0);

    // Before the first send every credit is home: a reset then has nothing in flight.
    RunSpec idle = creditloop::testing::seed_run(2, 4);
    idle.stimulus.reset_rx_at = 0;
    CHECK(bin(model_run(idle), LinkBin::reset_receiver_alone_in_flight) == 0);
}

TEST_CASE("channel bins on the model: pools, lanes, the arbiter, header/data, faults", "[coverage][fast][model][channels]") {
    const auto run = [](const ChannelLinkConfig& config, uint64_t cycles, FaultSpec faults = {}) {
        ChannelRunSpec spec{config, cycles, 1, faults};
        return run_channels(nullptr, spec).coverage;
    };
    const ChannelBinCounts pcie = run(*channel_preset("pcie"), 6000);
    CHECK(bin(pcie, ChannelBin::channel_header_and_data) > 0);
    CHECK(bin(pcie, ChannelBin::channel_header_only) > 0);   // 0-byte packets: a header, no data
    CHECK(bin(pcie, ChannelBin::channel_contention) > 0);
    CHECK(bin(pcie, ChannelBin::channel_multi_flit) > 0);

    const ChannelBinCounts shared = run(hol_config(4, 4, 4, true), 4000);
    CHECK(bin(shared, ChannelBin::pool_shared_exhausted) > 0);
    CHECK(bin(shared, ChannelBin::pool_exhausted_other_sends) == 0);   // one pool: nobody else sends
    const ChannelBinCounts each = run(hol_config(4, 4, 4, false), 4000);
    CHECK(bin(each, ChannelBin::pool_exhausted_other_sends) > 0);   // C0's pool empty, the others go on
    CHECK(bin(each, ChannelBin::pool_shared_exhausted) == 0);
    CHECK(bin(each, ChannelBin::lane_full) > 0);                    // C0's stalled lane fills

    // One channel, one-flit packets, K = 1, nothing lost: no arbiter, packet or fault bin.
    ChannelLinkConfig one = single_channel_config(4, 4, 1);
    one.channels[0].traffic.drain_every = 1;
    const ChannelBinCounts single = run(one, 6000);
    CHECK(bin(single, ChannelBin::pool_batch_single) > 0);
    CHECK(bin(single, ChannelBin::pool_zero_to_one) > 0);
    CHECK(bin(single, ChannelBin::pool_one_to_zero) > 0);
    for (ChannelBin b : {ChannelBin::channel_contention, ChannelBin::channel_multi_flit, ChannelBin::channel_header_and_data,
                         ChannelBin::pool_batch_full, ChannelBin::fault_drop, ChannelBin::recovery_resend,
                         ChannelBin::pool_shared_return_wait, ChannelBin::pool_flush_partial, ChannelBin::pool_path_held,
                         ChannelBin::pool_late_free, ChannelBin::reset_both, ChannelBin::reset_one_end})
        CHECK(bin(single, b) == 0);

    ChannelLinkConfig recovering = *channel_preset("pcie");
    recovering.recovery = true;
    recovering.total_bits = 7;
    FaultSpec corrupt;
    corrupt.corrupt_probability = 0.02;
    corrupt.corrupt_add = 64;   // half of 2^7: every corrupted update is refused
    const ChannelBinCounts r = run(recovering, 6000, corrupt);
    CHECK(bin(r, ChannelBin::fault_corrupt) > 0);
    CHECK(bin(r, ChannelBin::recovery_refused) == bin(r, ChannelBin::fault_corrupt));
    CHECK(bin(r, ChannelBin::recovery_resend) > 0);
}

TEST_CASE("the regression's stimulus reaches every bin on the model alone", "[coverage][fast][model][regression]") {
    // The cases make sim runs, on the golden model (what the RTL is held to in lockstep): if a
    // bin needs stimulus the regression lacks, this names it before any verilation.
    CoverageTally tally;
    for (const auto& c : regression_cases(1)) {
        if (c.systemc) continue;
        if (c.channels) tally.add(run_channels(nullptr, *c.channels).coverage);
        else tally.add(run_link(nullptr, c.spec).coverage);
    }
    INFO(coverage_summary(tally));
    CHECK(tally.unhit().empty());
}

TEST_CASE("counts add up across runs by name", "[coverage][fast]") {
    const LinkBinCounts a = model_run(creditloop::testing::seed_run(4, 12));
    const LinkBinCounts b = model_run(creditloop::testing::seed_run(4, 12, 4));
    CoverageTally tally;
    tally.add(a);
    tally.add(b);
    CHECK(tally.runs() == 2);
    CHECK(tally.count("rtt.minimum") == bin(a, LinkBin::rtt_minimum) + bin(b, LinkBin::rtt_minimum));
    CHECK(tally.count("batch.full") == bin(b, LinkBin::batch_full));
    CHECK(tally.count("batch.single") == bin(a, LinkBin::batch_single));
    // A bin neither run hit is listed; one either hit is not.
    const auto unhit = tally.unhit();
    CHECK(std::find(unhit.begin(), unhit.end(), "fault.drop_count") != unhit.end());
    CHECK(std::find(unhit.begin(), unhit.end(), "batch.full") == unhit.end());
    CHECK(tally.hit() + unhit.size() == tally.total());

    CoverageTally other;
    CHECK(other.add("batch.full", 5));
    CHECK_FALSE(other.add("no.such_bin", 1));
    other.add_runs(1);
    tally.add(other);
    CHECK(tally.count("batch.full") == bin(b, LinkBin::batch_full) + 5);
    CHECK(tally.runs() == 3);

    ChannelBinCounts channel{};
    channel[static_cast<size_t>(ChannelBin::lane_full)] = 7;
    tally.add(channel);
    CHECK(tally.count("channels.lane_full") == 7);
}

TEST_CASE("the coverage JSON holds every bin with its count and reads back", "[coverage][fast]") {
    CoverageTally tally;
    tally.add(model_run(creditloop::testing::seed_run(4, 12, 4)));
    const fs::path dir = fs::temp_directory_path() / "creditloop_coverage_json";
    fs::remove_all(dir);
    const std::string path = coverage_json_path((dir / "results.xml").string());
    CHECK(fs::path(path).filename() == "results.coverage.json");
    REQUIRE(write_coverage_json(path, tally));

    std::ifstream in(path);
    const nlohmann::json doc = nlohmann::json::parse(in);
    CHECK(doc.at("total").get<size_t>() == tally.total());
    CHECK(doc.at("hit").get<size_t>() == tally.hit());
    CHECK(doc.at("runs").get<uint64_t>() == 1);
    REQUIRE(doc.at("bins").size() == tally.total());
    CHECK(doc.at("bins")[0].at("name") == "credits.zero");
    CHECK(doc.at("unhit").size() == tally.total() - tally.hit());
    for (size_t i = 0; i < tally.total(); ++i) {
        CHECK(doc.at("bins")[i].at("name").get<std::string>() == tally.entries()[i].name);
        CHECK(doc.at("bins")[i].at("count").get<uint64_t>() == tally.entries()[i].count);
    }

    std::string error;
    const auto back = read_coverage_json(path, error);
    REQUIRE(back);
    CHECK(error.empty());
    CHECK(back->runs() == 1);
    for (size_t i = 0; i < tally.total(); ++i) CHECK(back->entries()[i].count == tally.entries()[i].count);

    std::ofstream(dir / "bad.json") << R"({"bins": [{"name": "no.such_bin", "count": 1}]})";
    CHECK_FALSE(read_coverage_json((dir / "bad.json").string(), error));
    CHECK(error.find("no.such_bin") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("the summary names every bin never hit, or says every bin was hit", "[coverage][fast]") {
    CoverageTally tally;
    tally.add(model_run(creditloop::testing::seed_run(4, 12)));
    const std::string text = coverage_summary(tally);
    CHECK(text.rfind("functional coverage: " + std::to_string(tally.hit()) + " of " + std::to_string(tally.total()) +
                         " bins hit", 0) == 0);
    for (const auto& name : tally.unhit()) CHECK(text.find("never hit: " + name + " (") != std::string::npos);
    CHECK(text.find("never hit: rtt.minimum") == std::string::npos);

    CoverageTally all;
    for (const auto& e : all.entries()) all.add(e.name, 1);
    CHECK(coverage_summary(all).find("every bin hit") != std::string::npos);
}

TEST_CASE("make sim's regression prints the summary and writes it with the JUnit file", "[coverage][regression][rtl]") {
    const fs::path dir = fs::temp_directory_path() / "creditloop_coverage_regression";
    fs::remove_all(dir);
    RegressCommand cmd;
    cmd.filter = "seed000/K8";
    cmd.junit = (dir / "results.xml").string();
    cmd.waves_dir = (dir / "waves").string();
    std::string printed;
    {
        CoutCapture capture;
        CHECK(run_regression(cmd, "build/creditloop") == 0);
        printed = capture.text.str();
    }
    CHECK(printed.find("functional coverage: ") != std::string::npos);
    CHECK(printed.find("never hit: fault.drop_count") != std::string::npos);   // one test reaches little
    CHECK(printed.find("coverage: " + (dir / "results.coverage.json").string()) != std::string::npos);

    std::string error;
    const auto tally = read_coverage_json((dir / "results.coverage.json").string(), error);
    REQUIRE(tally);
    CHECK(tally->count("batch.full") > 0);   // K = 8

    pugi::xml_document junit;
    REQUIRE(junit.load_file(cmd.junit.c_str()));
    const auto suite = junit.child("testsuites").child("testsuite");
    const auto property = [&suite](const char* name) {
        return std::string(suite.select_node((std::string("properties/property[@name='") + name + "']").c_str())
                               .node()
                               .attribute("value")
                               .value());
    };
    CHECK(property("coverage.bins_hit") == std::to_string(tally->hit()));
    CHECK(property("coverage.bins_total") == std::to_string(tally->total()));
    CHECK(property("coverage.bins_unhit").find("fault.drop_count") != std::string::npos);
    CHECK(property("coverage.file") == "results.coverage.json");
    fs::remove_all(dir);
}
