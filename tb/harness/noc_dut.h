// A credit network as the harness sees it (docs/network.md): noc_port's fixed shape
// (tb/network/noc_port.sv) as plain arrays, driven and read once a cycle. The verilated network
// implements it inside a plugin (tb/dut/verilated_network.cpp); nothing outside the plugin
// includes a Verilator header.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace creditloop {

// noc_port's limits: 16 nodes, 5 ports, 4 VCs a port.
constexpr int kNocMaxNodes = 16;
constexpr int kNocMaxPorts = 5;
constexpr int kNocMaxVcs = 4;
constexpr int kNocSlots = kNocMaxPorts * kNocMaxVcs;   // a node's VC slots: port * 4 + vc

// A flit in noc_port's 32 bits (LSB first: seq 4, id 8, src 4, dest 4, vc 2, tail 1, head 1).
struct NocWord {
    static uint32_t pack(bool head, bool tail, int vc, int dest, int src, int id, int seq) {
        return uint32_t(seq & 15) | uint32_t(id & 255) << 4 | uint32_t(src & 15) << 12 | uint32_t(dest & 15) << 16 |
               uint32_t(vc & 3) << 20 | uint32_t(tail) << 22 | uint32_t(head) << 23;
    }
    static int seq(uint32_t w) { return int(w & 15); }
    static int id(uint32_t w) { return int((w >> 4) & 255); }
    static int src(uint32_t w) { return int((w >> 12) & 15); }
    static int dest(uint32_t w) { return int((w >> 16) & 15); }
    static int vc(uint32_t w) { return int((w >> 20) & 3); }
    static bool tail(uint32_t w) { return (w >> 22) & 1; }
    static bool head(uint32_t w) { return (w >> 23) & 1; }
};

// One cycle at noc_port's pins: the inputs (bit / entry n: node n), then what the network shows
// in that cycle before its clock edge. Per node n and VC slot s = port * 4 + vc:
//   fill      the flits input VC s holds;        credits  output VC s's credits;
//   wait      the output VC slots (bit s') input VC s's head flit waits for;
//   sent      a flit leaves on output VC s;      freed    input VC s frees a slot.
struct NocPins {
    uint16_t inj_valid = 0, ej_ready = 0;
    std::array<uint32_t, kNocMaxNodes> inj_flit{};

    uint16_t inj_accept = 0, ej_valid = 0;
    std::array<uint32_t, kNocMaxNodes> ej_flit{};
    std::array<std::array<uint8_t, kNocSlots>, kNocMaxNodes> fill{}, credits{};
    std::array<std::array<uint32_t, kNocSlots>, kNocMaxNodes> wait{};
    std::array<uint32_t, kNocMaxNodes> sent{}, freed{};   // bit s
};

class NocDut {
public:
    virtual ~NocDut() = default;
    // rst_n low across two rising edges, then released; the next step() is cycle 0.
    virtual void reset() = 0;
    // Drive the inputs of `pins`, settle, fill its outputs, give the clock its rising edge.
    virtual void step(NocPins& pins) = 0;
    // The routing function alone (noc_route): output port and allowed VCs (bit w) of a head flit
    // at `here` bound for `dest`, in input port `in_port`, VC `in_vc`; under adaptive routing, the
    // second port and its VCs (0 and 0 otherwise).
    struct Route {
        int port = 0;
        unsigned mask = 0;
        int alt_port = 0;
        unsigned alt_mask = 0;
    };
    virtual Route route(int here, int dest, int in_port, int in_vc) = 0;
    virtual std::string open_trace(const std::string& path) = 0;   // "" or what went wrong
    virtual std::string close_trace() = 0;
    virtual std::optional<uint64_t> first_assertion_cycle() const = 0;
};

// Plugin ABI of a network bank.
constexpr int kNocAbiVersion = 1;
using NocAbiVersionFn = int (*)();
using NocBankSizeFn = int (*)();
using NocDescribeFn = const char* (*)(int index);
using NocCreateFn = NocDut* (*)(int index, int argc, const char* const* argv);

}  // namespace creditloop
