#include <catch2/catch.hpp>

#include "stimulus.h"

using namespace creditloop;

TEST_CASE("drain every Nth cycle is aligned as in seed 001 (cycle % N == 0)", "[stimulus]") {
    StimulusSpec spec;
    spec.drain.period = 3;
    Stimulus s(spec, 32);
    for (int t = 0; t < 30; ++t) CHECK(s.next().drain == (t % 3 == 0));
}

TEST_CASE("the same seed gives the same stimulus and another seed other payloads", "[stimulus]") {
    StimulusSpec spec;
    std::string error;
    spec.traffic = *parse_traffic("bernoulli:0.5", error);
    spec.drain.kind = DrainKind::random_stalls;
    spec.drain.stall_probability = 0.25;
    spec.seed = 7;
    Stimulus a(spec, 32), b(spec, 32);
    spec.seed = 8;
    Stimulus c(spec, 32);
    int differ = 0, offered = 0, drained = 0;
    for (int t = 0; t < 10000; ++t) {
        const LinkInputs x = a.next(), y = b.next(), z = c.next();
        CHECK((x.want_send == y.want_send && x.payload == y.payload && x.drain == y.drain));
        differ += x.payload != z.payload;
        offered += x.want_send;
        drained += x.drain;
        a.accepted(x.want_send);
        b.accepted(y.want_send);
        c.accepted(z.want_send);
    }
    CHECK(differ > 9000);
    // The rates are what was asked for (10,000 draws: 4 sigma is about 0.02).
    CHECK(offered / 10000.0 == Approx(0.5).margin(0.03));
    CHECK(drained / 10000.0 == Approx(0.75).margin(0.03));
}

TEST_CASE("a flit is offered with the same payload until it is taken", "[stimulus]") {
    StimulusSpec spec;
    Stimulus s(spec, 8);
    const LinkInputs first = s.next();
    s.accepted(false);
    const LinkInputs again = s.next();
    CHECK(again.payload == first.payload);
    CHECK(again.payload <= 0xFF);
    s.accepted(true);
    CHECK(s.next().payload != first.payload);
}

TEST_CASE("traffic patterns parse and bad ones say what is allowed", "[stimulus][cli]") {
    std::string error;
    CHECK(parse_traffic("bursts:4:12", error)->mean_off == 12);
    CHECK(offered_rate(*parse_traffic("bursts:4:12", error)) == Approx(0.25));
    CHECK_FALSE(parse_traffic("bernoulli:1.5", error));
    CHECK(error.find("allowed") != std::string::npos);
    CHECK_FALSE(parse_traffic("poisson", error));
    CHECK(error.find("poisson") != std::string::npos);
    CHECK(exact_number(0.3) == "0.3");
    CHECK(std::stod(exact_number(0.1234567891234)) == 0.1234567891234);
}
