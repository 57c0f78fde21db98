// Entries of a packed port, entry 0 in the low bits: entry i of `width` bits (width <= 32) is bits
// [i * width, i * width + width). One reading for every kind of value a generated top's port
// holds: an integer (Verilator's narrow ports, SystemC's bool and uint32/64 ports), Verilator's
// VlWide (an array of 32-bit words) and SystemC's sc_bv<N> (a range() of bits).
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace creditloop::port_entries {

template <class T, class = void>
struct HasRange : std::false_type {};
template <class T>
struct HasRange<T, std::void_t<decltype(std::declval<const T&>().range(1, 0))>> : std::true_type {};

template <class T>
uint32_t get(const T& value, int i, int width) {
    const uint32_t mask = width >= 32 ? ~0u : (1u << width) - 1u;
    if constexpr (std::is_integral_v<T>) {
        return static_cast<uint32_t>(static_cast<uint64_t>(value) >> (i * width)) & mask;
    } else if constexpr (HasRange<T>::value) {
        return static_cast<uint32_t>(value.range(i * width + width - 1, i * width).to_uint());
    } else {
        const int bit = i * width;
        return (value[static_cast<size_t>(bit / 32)] >> (bit % 32)) & mask;
    }
}

template <class T>
void put(T& value, int i, int width, uint32_t entry) {
    if constexpr (std::is_same_v<T, bool>) {
        value = entry & 1u;
    } else if constexpr (std::is_integral_v<T>) {
        const uint64_t mask = (width >= 64 ? ~0ull : ((1ull << width) - 1)) << (i * width);
        value = static_cast<T>((static_cast<uint64_t>(value) & ~mask) | ((static_cast<uint64_t>(entry) << (i * width)) & mask));
    } else if constexpr (HasRange<T>::value) {
        value.range(i * width + width - 1, i * width) = entry;
    } else {
        const int bit = i * width;
        const uint32_t mask = (width >= 32 ? ~0u : ((1u << width) - 1)) << (bit % 32);
        auto& word = value[static_cast<size_t>(bit / 32)];
        word = (word & ~mask) | ((entry << (bit % 32)) & mask);
    }
}

// A ChannelInputs / ChannelObservation field to or from a port: a mask or scalar (uint32_t) is
// `count` entries of `width` bits (one entry of up to 32 bits for a scalar), an array one entry
// per element.
template <class T>
void put_field(T& value, uint32_t field, int width, int count) {
    if (width == 1) {
        for (int i = 0; i < count; ++i) put(value, i, 1, (field >> i) & 1u);
    } else {
        put(value, 0, width, field);
    }
}
template <class T, size_t N>
void put_field(T& value, const std::array<uint32_t, N>& field, int width, int) {
    for (size_t i = 0; i < N; ++i) put(value, static_cast<int>(i), width, field[i]);
}
template <class T>
void get_field(uint32_t& field, const T& value, int width) {
    field = get(value, 0, width == 1 || width > 32 ? 32 : width);
}
template <class T, size_t N>
void get_field(std::array<uint32_t, N>& field, const T& value, int width) {
    for (size_t i = 0; i < N; ++i) field[i] = get(value, static_cast<int>(i), width);
}

}  // namespace creditloop::port_entries
