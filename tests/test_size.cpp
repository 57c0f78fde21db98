// `creditloop size`: seed 001's and seed 000's worked numbers read back from the printed output,
// units as engineers write them, and bad input that gets exit 2, one stderr line naming the
// option and nothing on stdout. Runs run_size in-process: no build of the CLI or the RTL needed.
#include <catch2/catch.hpp>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "size_command.h"

using creditloop::run_size;

namespace {

struct Outcome {
    int exit_code;
    std::string out;
    std::string err;
};

// Swaps std::cout and std::cerr for string buffers for as long as it lives.
class CaptureStreams {
public:
    CaptureStreams() : old_out_(std::cout.rdbuf(out_.rdbuf())), old_err_(std::cerr.rdbuf(err_.rdbuf())) {}
    ~CaptureStreams() {
        std::cout.rdbuf(old_out_);
        std::cerr.rdbuf(old_err_);
    }
    std::string out() const { return out_.str(); }
    std::string err() const { return err_.str(); }

private:
    std::ostringstream out_, err_;
    std::streambuf* old_out_;
    std::streambuf* old_err_;
};

Outcome size(const std::vector<std::string>& args) {
    CaptureStreams capture;
    const int code = run_size(args);
    return {code, capture.out(), capture.err()};
}

int lines(const std::string& text) {
    int n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

// The line of `text` that starts with `key` ("" when none does).
std::string line_starting(const std::string& text, const std::string& key) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) return line;
    return "";
}

std::string delay_product_line(const std::vector<std::string>& args) {
    const Outcome o = size(args);
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    return line_starting(o.out, "bandwidth-delay product:");
}

// What a bandwidth-delay product line ends with: "... = 8,000 bytes".
std::string product(const std::vector<std::string>& args) {
    const std::string line = delay_product_line(args);
    const auto eq = line.rfind(" = ");
    REQUIRE(eq != std::string::npos);
    return line.substr(eq + 3);
}

}  // namespace

TEST_CASE("size prints seed 001 worked numbers 16 GB/s x 500 ns is 8000 bytes and 500 credits", "[size][cli]") {
    const Outcome o = size({"--bandwidth", "16GB/s", "--rtt", "500ns", "--credit-bytes", "16"});
    INFO(o.out << o.err);
    REQUIRE(o.exit_code == 0);
    CHECK(o.err.empty());
    CHECK(line_starting(o.out, "bandwidth:") == "bandwidth: 16 GB/s = 16e9 B/s");
    CHECK(line_starting(o.out, "round trip:") == "round trip: 500 ns = 500e-9 s");
    CHECK(line_starting(o.out, "bandwidth-delay product:") == "bandwidth-delay product: 16 GB/s x 500 ns = 8,000 bytes");
    CHECK(line_starting(o.out, "credits:") == "credits: 8,000 bytes / 16 bytes = 500 credits of 16 bytes");
    CHECK(line_starting(o.out, "buffer:") == "buffer: 500 credits of 16 bytes = 8,000 bytes for full rate");
    CHECK(o.out.find("rounded up") == std::string::npos);
}

TEST_CASE("size halves the buffer at half rate as seed 001 says", "[size][cli]") {
    for (const char* rate : {"0.5", "50%"}) {
        const Outcome o = size({"--bandwidth", "16GB/s", "--rtt", "500ns", "--credit-bytes", "16", "--rate", rate});
        INFO(rate << "\n" << o.out << o.err);
        REQUIRE(o.exit_code == 0);
        CHECK(line_starting(o.out, "rate 0.5:") == "rate 0.5: 0.5 x 8,000 bytes = 4,000 bytes = 250 credits of 16 bytes");
        CHECK(line_starting(o.out, "buffer:") == "buffer: 250 credits of 16 bytes = 4,000 bytes for rate 0.5");
    }
}

TEST_CASE("size prints seed 000 batching trade 3 more flits and 12.5 against 3.1 percent", "[size][cli]") {
    const Outcome o = size({"--bandwidth", "64B/cycle", "--rtt", "10cycles", "--flit-bytes", "64",
                            "--credit-message-bytes", "8", "--batch", "4"});
    INFO(o.out << o.err);
    REQUIRE(o.exit_code == 0);
    CHECK(o.err.empty());
    CHECK(line_starting(o.out, "bandwidth-delay product:") == "bandwidth-delay product: 64 B/cycle x 10 cycles = 640 bytes");
    CHECK(line_starting(o.out, "credits:") == "credits: 640 bytes / 64 bytes = 10 credits of 64 bytes");
    // K = 4 needs B to grow by K - 1 = 3 flits = 3 x 64 = 192 bytes.
    CHECK(line_starting(o.out, "batch 4:") == "batch 4: K - 1 = 3 more flits of 64 bytes = 192 bytes of extra buffer");
    // 8 bytes per cycle on the return path (12.5%) one by one; 2 bytes per cycle (3.1%) in fours.
    CHECK(line_starting(o.out, "return path one by one:") ==
          "return path one by one: 8 / 64 = 12.5% of forward bandwidth = 8 B/cycle");
    CHECK(line_starting(o.out, "return path in batches of 4:") ==
          "return path in batches of 4: 8 / (4 x 64) = 3.1% of forward bandwidth = 2 B/cycle");
    CHECK(line_starting(o.out, "buffer:") == "buffer: 10 + 3 = 13 credits of 64 bytes = 832 bytes for full rate with batches of 4");
}

TEST_CASE("size gives one JSON object with the seed numbers", "[size][cli]") {
    const Outcome o = size({"--bandwidth", "64B/cycle", "--rtt", "10cycles", "--flit-bytes", "64",
                            "--credit-message-bytes", "8", "--batch", "4", "--json"});
    INFO(o.out << o.err);
    REQUIRE(o.exit_code == 0);
    CHECK(lines(o.out) == 1);
    const auto json = nlohmann::json::parse(o.out);
    CHECK(json.at("delay_product_bytes") == 640);
    CHECK(json.at("credits") == 10);
    CHECK(json.at("batch_extra_credits") == 3);
    CHECK(json.at("batch_extra_bytes") == 192);
    CHECK(json.at("return_share_one_by_one") == 0.125);
    CHECK(json.at("return_share_batched") == 0.03125);
    CHECK(json.at("buffer_credits") == 13);
    CHECK(json.at("buffer_bytes") == 832);
    CHECK(json.at("credits_rounded_up") == false);
    CHECK(json.at("clock_hz").is_null());

    const Outcome seed001 = size({"--bandwidth", "16GB/s", "--rtt", "500ns", "--credit-bytes", "16", "--json"});
    const auto seed = nlohmann::json::parse(seed001.out);
    CHECK(seed.at("delay_product_bytes") == 8000);
    CHECK(seed.at("credits") == 500);
    CHECK(seed.at("bandwidth_bytes_per_second") == 16000000000LL);
}

TEST_CASE("size reads bytes and bits per second a factor 8 apart", "[size][cli]") {
    CHECK(product({"--bandwidth", "16GB/s", "--rtt", "500ns"}) == "8,000 bytes");
    CHECK(product({"--bandwidth", "128Gb/s", "--rtt", "500ns"}) == "8,000 bytes");
    CHECK(product({"--bandwidth", "16Gb/s", "--rtt", "500ns"}) == "1,000 bytes");
    CHECK(product({"--bandwidth", "128Gbps", "--rtt", "500ns"}) == "8,000 bytes");
    CHECK(product({"--bandwidth", "128Gbit/s", "--rtt", "500ns"}) == "8,000 bytes");
    CHECK(product({"--bandwidth", "16000MB/s", "--rtt", "500ns"}) == "8,000 bytes");
    CHECK(product({"--bandwidth", "16e9B/s", "--rtt", "500ns"}) == "8,000 bytes");
    // Decimal SI unless the prefix says binary.
    CHECK(product({"--bandwidth", "1GiB/s", "--rtt", "1s"}) == "1,073,741,824 bytes");
    CHECK(product({"--bandwidth", "1GB/s", "--rtt", "1s"}) == "1,000,000,000 bytes");
    CHECK(product({"--bandwidth", "1KB/s", "--rtt", "1s"}) == "1,000 bytes");
    CHECK(product({"--bandwidth", "1kb/s", "--rtt", "1s"}) == "125 bytes");
}

TEST_CASE("size reads the same round trip in ps ns us ms and s", "[size][cli]") {
    const std::string expected = "8,000 bytes";
    for (const char* rtt : {"500ns", "0.5us", "0.5 us", "0.5\xC2\xB5s", "500000ps", "0.0005ms", "500e-9s", "500NS", "500 nsec"}) {
        INFO(rtt);
        CHECK(product({"--bandwidth", "16GB/s", "--rtt", rtt}) == expected);
    }
    CHECK(delay_product_line({"--bandwidth", "16GB/s", "--rtt", "0.5us"}) ==
          "bandwidth-delay product: 16 GB/s x 0.5 us = 8,000 bytes");
}

TEST_CASE("size accepts a space case variants and the equals form", "[size][cli]") {
    CHECK(product({"--bandwidth", "16 GB/s", "--rtt", "500 ns"}) == "8,000 bytes");
    CHECK(product({"--bandwidth", "16", "GB/s", "--rtt", "500", "ns"}) == "8,000 bytes");   // unquoted
    CHECK(product({"--bandwidth=16GB/s", "--rtt=500ns"}) == "8,000 bytes");
    CHECK(product({"--bandwidth", "16 gbytes/s", "--rtt", "500ns"}) == "8,000 bytes");
    CHECK(product({"--bandwidth", "16 Gbits/sec", "--rtt", "500ns"}) == "1,000 bytes");
    CHECK(product({"--bandwidth", "64 bytes/cycle", "--rtt", "10 cycles"}) == "640 bytes");
}

TEST_CASE("size converts cycles with the clock", "[size][cli]") {
    // 128 Gb/s = 16 B/ns = 16 B/cycle at 1 GHz; 40 cycles = 40 ns: 640 bytes = 20 credits of 32 bytes.
    const Outcome o = size({"--bandwidth", "128Gb/s", "--clock", "1GHz", "--rtt", "40cycles", "--flit-bytes", "32"});
    INFO(o.out << o.err);
    REQUIRE(o.exit_code == 0);
    CHECK(line_starting(o.out, "bandwidth:") == "bandwidth: 128 Gb/s = 16e9 B/s = 16 B/cycle at 1 GHz");
    CHECK(line_starting(o.out, "round trip:") == "round trip: 40 cycles = 40 ns at 1 GHz");
    CHECK(line_starting(o.out, "credits:") == "credits: 640 bytes / 32 bytes = 20 credits of 32 bytes");

    // The other way round, and with the clock as a period or in MHz.
    CHECK(product({"--bandwidth", "16B/cycle", "--clock", "1GHz", "--rtt", "40ns"}) == "640 bytes");
    CHECK(product({"--bandwidth", "16B/cycle", "--clock", "1ns", "--rtt", "40ns"}) == "640 bytes");
    CHECK(product({"--bandwidth", "16B/cycle", "--clock", "500MHz", "--rtt", "40ns"}) == "320 bytes");
    CHECK(product({"--bandwidth", "16GB/s", "--clock", "500MHz", "--rtt", "250cycles"}) == "8,000 bytes");
    CHECK(product({"--bandwidth", "1flit/cycle", "--flit-bytes", "64", "--rtt", "10cycles"}) == "640 bytes");
}

TEST_CASE("size rounds fractional credits up and says so", "[size][cli]") {
    // 16 GB/s x 500.3 ns = 8,004.8 bytes = 500.3 credits of 16 bytes: a buffer needs 501.
    const Outcome o = size({"--bandwidth", "16GB/s", "--rtt", "500.3ns", "--credit-bytes", "16"});
    INFO(o.out << o.err);
    REQUIRE(o.exit_code == 0);
    CHECK(line_starting(o.out, "credits:") ==
          "credits: 8,004.8 bytes / 16 bytes = 500.3 credits of 16 bytes, rounded up to 501 credits = 8,016 bytes");
    CHECK(line_starting(o.out, "buffer:") == "buffer: 501 credits of 16 bytes = 8,016 bytes for full rate");
}

TEST_CASE("size help names the units and exits 0", "[size][cli]") {
    const Outcome o = size({"--help"});
    CHECK(o.exit_code == 0);
    CHECK(o.err.empty());
    CHECK(o.out.find("decimal SI: 16 GB/s = 16e9 B/s") != std::string::npos);
    CHECK(o.out.find("--credit-message-bytes") != std::string::npos);
}

TEST_CASE("size refuses bad input with exit 2 and one line naming the option", "[size][cli]") {
    struct Bad {
        std::vector<std::string> args;
        std::string names;      // what the one error line must contain
    };
    const std::vector<std::string> ok = {"--bandwidth", "16GB/s", "--rtt", "500ns"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = ok;
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    const std::vector<Bad> cases = {
        // unknown units
        {{"--bandwidth", "16GB/min", "--rtt", "500ns"}, "--bandwidth 16GB/min: unknown unit 'GB/min'"},
        {{"--bandwidth", "16GB/s", "--rtt", "5 fortnights"}, "--rtt 5 fortnights: unknown unit 'fortnights'"},
        {with({"--clock", "1G"}), "--clock 1G: unknown unit 'G'"},
        {{"--bandwidth", "0x10GB/s", "--rtt", "500ns"}, "--bandwidth 0x10GB/s"},
        // missing units
        {{"--bandwidth", "16GB/s", "--rtt", "500"}, "--rtt 500 has no unit: write 500ns, 0.5us or 500cycles"},
        {{"--bandwidth", "16", "--rtt", "500ns"}, "--bandwidth 16 has no unit"},
        {with({"--clock", "1"}), "--clock 1 has no unit"},
        // ambiguous units
        {{"--bandwidth", "16gb/s", "--rtt", "500ns"}, "--bandwidth 16gb/s is ambiguous: write 16GB/s for bytes or 16Gb/s for bits"},
        {{"--bandwidth", "16GB/s", "--rtt", "5MS"}, "--rtt 5MS is ambiguous"},
        // zero or negative
        {{"--bandwidth", "0GB/s", "--rtt", "500ns"}, "--bandwidth 0GB/s must be positive"},
        {{"--bandwidth", "-16GB/s", "--rtt", "500ns"}, "--bandwidth -16GB/s must be positive"},
        {{"--bandwidth", "16GB/s", "--rtt", "0ns"}, "--rtt 0ns must be positive"},
        {{"--bandwidth", "16GB/s", "--rtt", "-5cycles"}, "--rtt -5cycles must be positive"},
        {with({"--clock", "0GHz"}), "--clock 0GHz must be positive"},
        {with({"--flit-bytes", "0"}), "--flit-bytes 0"},
        {with({"--credit-bytes", "-16"}), "--credit-bytes -16"},
        {with({"--flit-bytes", "64.5"}), "--flit-bytes 64.5"},
        {with({"--flit-bytes", "64", "--batch", "0"}), "--batch 0"},
        {with({"--flit-bytes", "64", "--credit-message-bytes", "-8"}), "--credit-message-bytes -8"},
        {with({"--rate", "0"}), "--rate 0 is out of range"},
        {with({"--rate", "1.5"}), "--rate 1.5 is out of range"},
        {with({"--rate", "-0.5"}), "--rate -0.5 is out of range"},
        // unknown options, missing values and missing options
        {with({"--frobnicate"}), "unknown option '--frobnicate' for 'creditloop size'"},
        {with({"stray"}), "unknown option 'stray'"},
        {{"--bandwidth", "16GB/s", "--rtt"}, "--rtt needs a value"},
        {{"--bandwidth", "--rtt", "500ns"}, "--bandwidth needs a value"},
        {with({"--json=yes"}), "--json takes no value"},
        {{"--rtt", "500ns"}, "--bandwidth is required"},
        {{"--bandwidth", "16GB/s"}, "--rtt is required"},
        {{}, "--bandwidth and --rtt"},
        // options that need one another
        {{"--bandwidth", "16GB/s", "--rtt", "40cycles"}, "--rtt 40cycles is in cycles but --bandwidth 16GB/s is per second: add --clock"},
        {{"--bandwidth", "64B/cycle", "--rtt", "40ns"}, "--bandwidth 64B/cycle is per cycle but --rtt 40ns is in time: add --clock"},
        {with({"--batch", "4"}), "--batch 4 needs --flit-bytes or --credit-bytes"},
        {with({"--credit-message-bytes", "8"}), "--credit-message-bytes 8 needs --flit-bytes or --credit-bytes"},
        {{"--bandwidth", "1flit/cycle", "--rtt", "10cycles"}, "--bandwidth 1flit/cycle is in flits: add --flit-bytes"},
    };
    for (const Bad& bad : cases) {
        std::string command = "creditloop size";
        for (const auto& a : bad.args) command += " '" + a + "'";
        const Outcome o = size(bad.args);
        INFO(command << "\nstdout: " << o.out << "\nstderr: " << o.err);
        CHECK(o.exit_code == 2);
        CHECK(o.out.empty());
        CHECK(lines(o.err) == 1);
        CHECK(o.err.rfind("creditloop: ", 0) == 0);
        CHECK(o.err.find(bad.names) != std::string::npos);
    }
}
