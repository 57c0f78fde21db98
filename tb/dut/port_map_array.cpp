// A counter array through its map (port_map_detail.h): one module of yours holding every pool's
// counter, each role a port of N per-channel slices (`logic [N-1:0][W-1:0]`, channel 0 in the low
// bits), in credit_counters' place. The module is read at two B so that each slice's width is known
// as the link's bank sees it: fixed, or the count of B ($clog2(B+1)) that the map's B makes it.
#include <fmt/format.h>

#include <sstream>

#include "map_expression.h"
#include "port_map_detail.h"

namespace creditloop::port_map_detail {

namespace {

// The channels the module is read with: odd, so that no slice width is mistaken for another's;
// and the payload width (the link's W).
constexpr int kReadChannels = 3;
constexpr int kReadWidth = 32;

// Inside the generated credit_counters: the map's B is the largest pool's, N the pool count;
// in a pool's own value (init, withhold) B is that pool's.
const std::map<std::string, std::string> kArrayWide = {{"B", "MAXB"}, {"N", "NPOOL"}};
const std::map<std::string, std::string> kArrayPool = {{"B", "BP"}, {"N", "NPOOL"}};

// One role's slice per channel, as SystemVerilog: a fixed width, or the count of the map's B.
struct Slice {
    std::string port;
    std::string bits;   // "1", "5", "CW"
};

}  // namespace

std::string swap_mapped_array(DutSources& sources, const std::string& map_path, const CounterMap& counter_map,
                              int buffer_slots, bool werror, SwappedBlock& swapped) {
    const std::string where = "--counter " + map_path;
    const int b0 = std::max(1, buffer_slots), b1 = 2 * b0 + 1;   // two B whose counts differ by a bit
    std::string text;
    UserModule at[2];
    for (int i = 0; i < 2; ++i) {
        const long b = i == 0 ? b0 : b1;
        std::map<std::string, std::string> values;
        for (const auto& [name, expr] : counter_map.parameters) {
            const auto value = evaluate_map_expression(expr, {{"B", b}, {"N", kReadChannels}, {"W", kReadWidth}});
            if (!value)
                return where + ": parameters: " + name + ": '" + expr + "' has no value at B = " + std::to_string(b) +
                       ", N = " + std::to_string(kReadChannels) + " (it divides by zero)";
            values[name] = std::to_string(*value);
        }
        std::vector<std::string> ignored;
        if (auto e = read_module(sources, counter_map.sources, counter_map.sources.top, values, werror, where, text, at[i],
                                 i == 0 ? swapped.warnings : ignored);
            !e.empty())
            return e;
    }
    const UserModule& user = at[0];
    std::map<std::string, Role> roles = counter_map.roles;
    std::map<std::string, std::string> used;
    if (auto e = claim_roles(user, roles, where, used); !e.empty()) return e;
    if (auto e = claim_ties(user, counter_map.ties, where, used); !e.empty()) return e;
    for (const char* scalar : {"clock", "reset"})
        if (user.ports.at(roles[scalar].port).width != 1)
            return where + ": role " + std::string(scalar) + ": port " + roles[scalar].port + " is " +
                   std::to_string(user.ports.at(roles[scalar].port).width) + " bits: one clock and one reset drive every channel";

    // ---- each per-channel port's slice: its width over N, the same at both B or the count of each
    const auto slice = [&](const std::string& role, const std::string& port, Slice& out) -> std::string {
        int bits[2];
        for (int i = 0; i < 2; ++i) {
            const int total = at[i].ports.at(port).width;
            if (total == 0)
                return where + ": role " + role + ": port " + port + " is an unpacked array: declare it packed, logic [N-1:0][W-1:0]";
            if (total % kReadChannels != 0)
                return where + ": role " + role + ": port " + port + " is " + std::to_string(total) + " bits at N = " +
                       std::to_string(kReadChannels) + ", not a slice per channel: give it N slices (logic [N-1:0][W-1:0]) "
                       "and set N with \"parameters\"";
            bits[i] = total / kReadChannels;
        }
        out.port = port;
        if (role == "push_data" && bits[0] == kReadWidth && bits[1] == kReadWidth) out.bits = "W";
        else if (bits[0] == bits[1]) out.bits = std::to_string(bits[0]);
        else if (bits[0] == clog2_plus1(b0) && bits[1] == clog2_plus1(b1)) out.bits = "CW";
        else
            return where + ": role " + role + ": port " + port + "'s slice is " + std::to_string(bits[0]) + " bits at B = " +
                   std::to_string(b0) + " and " + std::to_string(bits[1]) + " at B = " + std::to_string(b1) +
                   ": creditloop takes a fixed width or the count of B ($clog2(B+1)); set its width parameter from B";
        return "";
    };
    std::map<std::string, Slice> slices;
    for (const auto& [role, r] : roles) {
        if (!per_channel_role(role)) continue;   // one for every channel
        if (auto e = slice(role, r.port, slices[role]); !e.empty()) return e;
        if (!r.valid.empty())
            if (auto e = slice(role + ".valid", r.valid, slices[role + ".valid"]); !e.empty()) return e;
    }
    const auto one_bit = [&](const std::string& role) -> std::string {
        if (!slices.count(role) || slices[role].bits == "1") return "";
        return where + ": role " + role + ": port " + slices[role].port + " has " + slices[role].bits +
               " bits a channel: it is one bit a channel";
    };
    for (const char* role : {"can_send", "send.valid", "credit_return.valid", "push_valid", "push_ready", "request", "can_grant", "grant"})
        if (auto e = one_bit(role); !e.empty()) return e;
    const bool sender = counter_map.sender;
    const bool count_send = !sender && !roles["send"].valid.empty();
    if (!count_send && !sender)
        if (auto e = one_bit("send"); !e.empty()) return e;
    const int count = clog2_plus1(b0);
    for (const char* role : {"credits", "credit_return"}) {
        const Slice& s = slices[role];
        if (s.bits == "CW" || s.bits == "1") continue;
        if (std::stoi(s.bits) < count)
            return where + ": role " + std::string(role) + ": port " + s.port + " has " + s.bits + " bits a channel, too narrow for B = " +
                   std::to_string(b0) + " (needs " + std::to_string(count) + ")";
    }
    if (slices["credits"].bits == "1") return where + ": role credits: port " + slices["credits"].port + " has one bit a channel: map the count";
    swapped.single_credit_return = slices["credit_return"].bits == "1";
    swapped.single_credit_send = !count_send;   // a sender's push is one flit, one credit
    swapped.owns_flits = sender;
    swapped.synchronous_reset = roles["reset"].kind == "sync";
    swapped.module = user.name;
    // Without an init port each counter starts from what the module's parameters say, the
    // largest pool's B: every pool must have it.
    swapped.equal_pools_only = !roles.count("init");

    // ---- the generated credit_counters: the project's ports outside, the user's module inside
    std::ostringstream w;
    w << "// Generated by creditloop from " << fs::absolute(map_path).string() << ": credit_link's credit_counters,\n"
      << "// implemented by " << user.name << ", every pool's counter in one module, a slice a pool. Its RTL is unchanged.\n"
      << "module credit_counters #(\n  parameter int NPOOL = 1,\n  parameter logic [16*16-1:0] POOL_B = {16{16'd12}},\n"
      << "  parameter int TAKE_BITS = 1,\n  parameter int W = 32\n) (\n  input  logic clk, rst_n,\n  input  logic [NPOOL*16-1:0] credits_arriving,\n"
      << "  /* verilator lint_off UNUSEDSIGNAL */\n  input  logic [NPOOL*17-1:0] want,\n  /* verilator lint_on UNUSEDSIGNAL */\n"
      << "  output logic [NPOOL-1:0] do_send, can_send,\n  output logic [NPOOL*16-1:0] credits,\n"
      << "  input  logic flit,\n  input  logic [7:0] flit_lane,\n  input  logic [W-1:0] flit_payload,\n"
      << "  output logic send,\n  output logic [7:0] send_lane,\n  output logic [W-1:0] send_payload\n);\n";
    if (sender)
        w << "  // The sender launches its own flit (a VC a channel's pool's lane: lane = pool = VC); what it\n"
          << "  // shows while out_valid is low is no flit, so nothing is compared there.\n"
          << "  /* verilator lint_off UNUSEDSIGNAL */\n  logic flit_unused;\n  assign flit_unused = flit | (|flit_lane);\n"
          << "  /* verilator lint_on UNUSEDSIGNAL */\n  logic u_out_valid;\n  logic [31:0] u_out_vc;\n  logic [W-1:0] u_out_data;\n"
          << "  assign send = u_out_valid;\n  assign send_lane = u_out_valid ? 8'(u_out_vc) : '0;\n"
          << "  assign send_payload = u_out_valid ? u_out_data : '0;\n";
    else
        w << "  // The counters only: the arbiter's flit goes onto the link as it is.\n"
          << "  assign send = flit;\n  assign send_lane = flit_lane;\n  assign send_payload = flit_payload;\n";
    w << "  function automatic int most_b();\n    int m;\n    m = 1;\n"
      << "    for (int p = 0; p < NPOOL; p++) if (32'(POOL_B[p*16 +: 16]) > m) m = 32'(POOL_B[p*16 +: 16]);\n"
      << "    most_b = m;\n  endfunction\n"
      << "  localparam int MAXB = most_b();         // the map's B: the largest pool's\n"
      << "  localparam int CW = $clog2(MAXB + 1);   // its count's width\n"
      << "  /* verilator lint_off WIDTH */\n";
    std::vector<std::string> connections = {"." + roles["clock"].port + "(clk)",
                                            "." + roles["reset"].port + (roles["reset"].active == "low" ? "(rst_n)" : "(!rst_n)")};
    if (sender)
        for (const char* out : {"out_valid", "out_vc", "out_data"}) connections.push_back("." + roles[out].port + "(u_" + out + ")");
    for (const auto& [role, s] : slices) {
        const std::string name = "u_" + role.substr(0, role.find('.')) + (role.find('.') != std::string::npos ? "_valid" : "");
        w << "  logic [NPOOL*" << s.bits << "-1:0] " << name << ";\n";
        connections.push_back("." + s.port + "(" + name + ")");
    }
    w << "  for (genvar p = 0; p < NPOOL; p++) begin : g_pool\n"
      << "    localparam int BP = 32'(POOL_B[p*16 +: 16]);   // this pool's B\n"
      << "    logic [16:0] want_p;\n    logic [15:0] arriving;\n    logic [31:0] count;\n"
      << "    assign want_p = want[p*17 +: 17];\n    assign arriving = credits_arriving[p*16 +: 16];\n"
      << "    assign count = 32'(u_credits[p*" << slices["credits"].bits << " +: " << slices["credits"].bits << "]);\n"
      << "    assign credits[p*16 +: 16] = 16'(count);\n";
    // As credit_counter's wrapper (port_map.cpp): a one-bit take sends packets of one credit; a
    // count is sent when ready for what is asked, and with nothing asked "can send" is the count's.
    const bool has_can = roles.count("can_send") > 0;
    if (sender) {
        // The link's arbiter grants a channel (want_p: its one credit); the sender is pushed that
        // channel's flit, and an arbiter port of its own is granted what it requests of it.
        w << "    assign can_send[p] = " << (has_can ? "u_can_send[p]" : "(count != 0)") << ";\n"
          << "    assign do_send[p] = u_push_valid[p] && u_push_ready[p];\n";
    }
    const std::string user_can = "u_can_send[p]";
    const std::string ready = has_can ? user_can : "(count >= 32'(want_p))";
    const std::string can = !has_can ? "(count != 0)" : !count_send ? user_can : "(want_p == 17'd1 ? " + user_can + " : count != 0)";
    if (!sender)
        w << "    assign can_send[p] = " << can << ";\n    assign do_send[p] = "
          << (count_send ? "want_p != '0 && " + ready : std::string("want_p == 17'd1 && can_send[p]")) << ";\n";
    const auto drive = [&](const std::string& role, const std::string& value) {
        const Slice& s = slices[role];
        const std::string name = "u_" + role.substr(0, role.find('.')) + (role.find('.') != std::string::npos ? "_valid" : "");
        w << "    assign " << name << "[p*" << s.bits << " +: " << s.bits << "] = " << s.bits << "'(" << value << ");\n";
    };
    if (sender) {
        drive("push_valid", "want_p != '0");
        drive("push_data", "flit_payload");
        if (roles.count("grant")) drive("grant", "u_request[p] && want_p != '0");
        if (roles.count("can_grant")) drive("can_grant", "want_p != '0");
    } else if (count_send) {
        drive("send", "want_p");
        drive("send.valid", has_can ? "want_p != '0" : "do_send[p]");
    } else {
        drive("send", "do_send[p]");
    }
    drive("credit_return", swapped.single_credit_return ? "arriving[0]" : "arriving");
    if (!roles["credit_return"].valid.empty()) drive("credit_return.valid", "arriving != '0");
    for (const char* held : {"init", "withhold"})
        if (roles.count(held)) drive(held, map_expression_sv(roles[held].value.empty() ? "0" : roles[held].value, kArrayPool));
    if (swapped.equal_pools_only)
        w << "    if (BP != MAXB) $error(\"credit_counters: pool %0d has B = %0d and the largest has %0d: " << user.name
          << " has no init port mapped, so every pool starts from the same B\", p, BP, MAXB);\n";
    w << "  end\n  " << user.name;
    if (!counter_map.parameters.empty()) {
        w << " #(";
        for (size_t i = 0; i < counter_map.parameters.size(); ++i)
            w << (i ? ", " : "") << "." << counter_map.parameters[i].first << "("
              << map_expression_sv(counter_map.parameters[i].second, kArrayWide) << ")";
        w << ")";
    }
    w << " u_dut (\n";
    for (const auto& [name, value] : counter_map.ties) connections.push_back("." + name + "(" + map_expression_sv(value, kArrayWide) + ")");
    for (size_t i = 0; i < connections.size(); ++i) w << "    " << connections[i] << (i + 1 < connections.size() ? ",\n" : "\n");
    w << "  );\n  /* verilator lint_on WIDTH */\nendmodule\n";
    put_in_rtl_set(sources, write_block_files(sources, "", {{"credit_counters.sv", w.str()}, {user.name + "_preprocessed.sv", text}}));
    return "";
}

}  // namespace creditloop::port_map_detail
