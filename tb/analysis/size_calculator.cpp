#include "size_calculator.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "size_units.h"

namespace creditloop {

std::optional<SizeResult> compute_size(const SizeInputs& in, SizeParseError& error) {
    SizeResult out;
    const Bandwidth& bw = in.bandwidth;
    const Duration& rtt = in.round_trip;
    const bool bw_per_second = bw.base == TimeBase::seconds;
    const bool rtt_in_seconds = rtt.base == TimeBase::seconds;

    if (bw_per_second) out.bandwidth_bytes_per_second = bw.bytes_per_base;
    else out.bandwidth_bytes_per_cycle = bw.bytes_per_base;
    if (rtt_in_seconds) out.round_trip_seconds = rtt.value;
    else out.round_trip_cycles = rtt.value;
    if (in.clock_hz) {
        const double hz = *in.clock_hz;
        if (bw_per_second) out.bandwidth_bytes_per_cycle = snap_whole(bw.bytes_per_base / hz);
        else out.bandwidth_bytes_per_second = snap_whole(bw.bytes_per_base * hz);
        if (rtt_in_seconds) out.round_trip_cycles = snap_whole(rtt.value * hz);
        else out.round_trip_seconds = rtt.value / hz;
    }

    if (bw_per_second != rtt_in_seconds && !in.clock_hz) {
        const std::string bw_text = plain(bw.amount) + bw.unit;
        const std::string rtt_text = plain(rtt.amount) + rtt.unit;
        if (bw_per_second)
            error.message = "--rtt " + rtt_text + " is in cycles but --bandwidth " + bw_text +
                            " is per second: add --clock (e.g. --clock 1GHz), or give the round trip in ns";
        else
            error.message = "--bandwidth " + bw_text + " is per cycle but --rtt " + rtt_text +
                            " is in time: add --clock (e.g. --clock 1GHz), or give the round trip in cycles";
        return std::nullopt;
    }
    // Multiply in the bandwidth's own time base, so that the common cases (both per second, or
    // both per cycle) involve no clock at all.
    const double product = bw_per_second ? bw.bytes_per_base * *out.round_trip_seconds
                                         : bw.bytes_per_base * *out.round_trip_cycles;
    out.delay_product_bytes = snap_whole(product);
    out.rate = in.rate.value_or(1.0);
    out.rate_limited_bytes = snap_whole(out.rate * out.delay_product_bytes);
    out.batch = in.batch.value_or(1);

    out.credit_bytes = in.credit_bytes ? in.credit_bytes : in.flit_bytes;
    if (out.credit_bytes) {
        const double credit = static_cast<double>(*out.credit_bytes);
        out.credits_exact = snap_whole(out.delay_product_bytes / credit);
        out.credits = static_cast<long long>(std::ceil(out.credits_exact));
        out.rate_limited_credits_exact = snap_whole(out.rate_limited_bytes / credit);
        out.rate_limited_credits = static_cast<long long>(std::ceil(out.rate_limited_credits_exact));
        out.batch_extra_credits = out.batch - 1;
        out.batch_extra_bytes = out.batch_extra_credits * *out.credit_bytes;
        out.buffer_credits = out.rate_limited_credits + out.batch_extra_credits;
        out.buffer_bytes = static_cast<double>(out.buffer_credits) * credit;
        if (in.credit_message_bytes) {
            out.return_share_one_by_one = *in.credit_message_bytes / credit;
            if (in.batch) out.return_share_batched = *in.credit_message_bytes / (static_cast<double>(out.batch) * credit);
        }
    } else {
        out.buffer_bytes = std::ceil(out.rate_limited_bytes);
    }
    return out;
}

namespace {

std::string credits_of(long long count, long long credit_bytes) {
    return amount(static_cast<double>(count)) + (count == 1 ? " credit of " : " credits of ") +
           amount(static_cast<double>(credit_bytes)) + " bytes";
}

// "500 credits of 16 bytes", or "500.3125 credits of 16 bytes, rounded up to 501 credits = 8,016 bytes".
std::string credit_need(double exact, long long whole, long long credit_bytes) {
    if (is_whole(exact)) return credits_of(whole, credit_bytes);
    return amount(exact) + " credits of " + amount(static_cast<double>(credit_bytes)) + " bytes, rounded up to " +
           amount(static_cast<double>(whole)) + (whole == 1 ? " credit = " : " credits = ") +
           amount(static_cast<double>(whole * credit_bytes)) + " bytes";
}

std::string quantity(double number, const std::string& unit) { return plain(number) + " " + unit; }

}  // namespace

std::string size_text(const SizeInputs& in, const SizeResult& r) {
    std::ostringstream out;
    const Bandwidth& bw = in.bandwidth;
    const Duration& rtt = in.round_trip;
    const std::string clock = in.clock_hz ? " at " + frequency_text(*in.clock_hz) : "";

    out << "bandwidth: " << quantity(bw.amount, bw.unit);
    if (bw.base == TimeBase::seconds) {
        out << " = " << engineering(*r.bandwidth_bytes_per_second) << " B/s";
        if (r.bandwidth_bytes_per_cycle) out << " = " << amount(*r.bandwidth_bytes_per_cycle) << " B/cycle" << clock;
    } else {
        if (bw.flits_per_base > 0) out << " = " << amount(bw.bytes_per_base) << " B/cycle";
        if (r.bandwidth_bytes_per_second) out << " = " << engineering(*r.bandwidth_bytes_per_second) << " B/s" << clock;
    }
    out << "\n";

    out << "round trip: " << quantity(rtt.amount, rtt.unit);
    if (rtt.base == TimeBase::seconds) {
        out << " = " << engineering(*r.round_trip_seconds) << " s";
        if (r.round_trip_cycles) out << " = " << cycles_text(*r.round_trip_cycles) << clock;
    } else if (r.round_trip_seconds) {
        out << " = " << time_text(*r.round_trip_seconds) << clock;
    }
    out << "\n";

    out << "bandwidth-delay product: " << quantity(bw.amount, bw.unit) << " x " << quantity(rtt.amount, rtt.unit)
        << " = " << amount(r.delay_product_bytes) << " bytes\n";

    if (r.credit_bytes) {
        out << "credits: " << amount(r.delay_product_bytes) << " bytes / " << *r.credit_bytes
            << " bytes = " << credit_need(r.credits_exact, r.credits, *r.credit_bytes) << "\n";
    } else {
        out << "credits: give --credit-bytes or --flit-bytes to count the buffer in credits\n";
    }

    if (in.rate) {
        out << "rate " << plain(r.rate) << ": " << plain(r.rate) << " x " << amount(r.delay_product_bytes)
            << " bytes = " << amount(r.rate_limited_bytes) << " bytes";
        if (r.credit_bytes)
            out << " = " << credit_need(r.rate_limited_credits_exact, r.rate_limited_credits, *r.credit_bytes);
        out << "\n";
    }

    if (in.batch && r.credit_bytes) {
        // Seed 000 counts the extra in flits: say flits when a credit is a flit.
        const bool credit_is_flit = in.flit_bytes && *in.flit_bytes == *r.credit_bytes;
        const char* noun = credit_is_flit ? (r.batch_extra_credits == 1 ? " more flit of " : " more flits of ")
                                          : (r.batch_extra_credits == 1 ? " more credit of " : " more credits of ");
        out << "batch " << r.batch << ": K - 1 = " << r.batch_extra_credits << noun << *r.credit_bytes
            << " bytes = " << amount(static_cast<double>(r.batch_extra_bytes)) << " bytes of extra buffer\n";
    }

    if (r.return_share_one_by_one) {
        // The return bandwidth in the unit the forward bandwidth was given in (bytes for flits).
        const bool flits = bw.flits_per_base > 0;
        const double forward = flits ? bw.bytes_per_base : bw.amount;
        const std::string unit = flits ? "B/cycle" : bw.unit;
        const std::string message = amount(*in.credit_message_bytes);
        const std::string credit = amount(static_cast<double>(*r.credit_bytes));
        out << "return path one by one: " << message << " / " << credit << " = " << percent(*r.return_share_one_by_one)
            << " of forward bandwidth = " << amount(forward * *r.return_share_one_by_one) << " " << unit << "\n";
        if (r.return_share_batched)
            out << "return path in batches of " << r.batch << ": " << message << " / (" << r.batch << " x " << credit
                << ") = " << percent(*r.return_share_batched) << " of forward bandwidth = "
                << amount(forward * *r.return_share_batched) << " " << unit << "\n";
    } else if (in.batch) {
        out << "return path: give --credit-message-bytes N to compare return bandwidth one by one and in batches\n";
    }

    std::string purpose = in.rate ? "for rate " + plain(r.rate) : "for full rate";
    if (r.batch > 1) purpose += " with batches of " + std::to_string(r.batch);
    out << "buffer: ";
    if (r.credit_bytes) {
        if (r.batch > 1)
            out << amount(static_cast<double>(r.rate_limited_credits)) << " + " << r.batch_extra_credits << " = ";
        out << credits_of(r.buffer_credits, *r.credit_bytes) << " = " << amount(r.buffer_bytes) << " bytes " << purpose << "\n";
    } else {
        out << amount(r.buffer_bytes) << " bytes " << purpose;
        if (!is_whole(r.rate_limited_bytes)) out << " (" << amount(r.rate_limited_bytes) << " rounded up)";
        out << "\n";
    }
    return out.str();
}

std::string size_json(const SizeInputs& in, const SizeResult& r) {
    nlohmann::ordered_json out;
    // A whole number as an integer (8000, not 8000.0); null when there is none.
    const auto number = [&](const char* name, std::optional<double> value) {
        if (!value) out[name] = nullptr;
        else if (is_whole(*value) && std::fabs(*value) < 9e15) out[name] = static_cast<long long>(*value);
        else out[name] = *value;
    };
    const auto whole = [&](const char* name, std::optional<long long> value) {
        out[name] = value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
    };
    out["bandwidth"] = plain(in.bandwidth.amount) + " " + in.bandwidth.unit;
    out["round_trip"] = plain(in.round_trip.amount) + " " + in.round_trip.unit;
    number("clock_hz", in.clock_hz);
    number("bandwidth_bytes_per_second", r.bandwidth_bytes_per_second);
    number("bandwidth_bytes_per_cycle", r.bandwidth_bytes_per_cycle);
    number("round_trip_seconds", r.round_trip_seconds);
    number("round_trip_cycles", r.round_trip_cycles);
    number("delay_product_bytes", r.delay_product_bytes);
    whole("flit_bytes", in.flit_bytes);
    whole("credit_bytes", r.credit_bytes);
    const bool credits = r.credit_bytes.has_value();
    number("credits_exact", credits ? std::optional<double>(r.credits_exact) : std::nullopt);
    whole("credits", credits ? std::optional<long long>(r.credits) : std::nullopt);
    out["credits_rounded_up"] = credits ? nlohmann::ordered_json(!is_whole(r.credits_exact)) : nlohmann::ordered_json(nullptr);
    number("rate", r.rate);
    number("rate_limited_bytes", r.rate_limited_bytes);
    number("rate_limited_credits_exact", credits ? std::optional<double>(r.rate_limited_credits_exact) : std::nullopt);
    whole("rate_limited_credits", credits ? std::optional<long long>(r.rate_limited_credits) : std::nullopt);
    whole("batch", r.batch);
    whole("batch_extra_credits", credits ? std::optional<long long>(r.batch_extra_credits) : std::nullopt);
    whole("batch_extra_bytes", credits ? std::optional<long long>(r.batch_extra_bytes) : std::nullopt);
    number("credit_message_bytes", in.credit_message_bytes);
    number("return_share_one_by_one", r.return_share_one_by_one);
    number("return_share_batched", r.return_share_batched);
    whole("buffer_credits", credits ? std::optional<long long>(r.buffer_credits) : std::nullopt);
    number("buffer_bytes", r.buffer_bytes);
    return out.dump();
}

}  // namespace creditloop
