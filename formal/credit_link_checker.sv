// credit_link_checker: the formal proof's properties and strengthening invariants, bound into
// every credit_link (the bind at the end of this file) so it reads the link's internal signals by
// name, as the simulation's probe (rtl/observe/credit_link_probe.sv) does.
//
// It instantiates that probe, so the sum it proves is the one the simulation observes
// (credit_total), and it carries pool 0's observed signals under the single link's observed names
// (the wires below), so a counterexample's waves open with the simulation's GTKWave save file
// (tb/report/gtkw.cpp) on this instance's scope. The link's own signals come in as link_<name>.
//
// yosys 0.23's own frontend parses `bind` but does not elaborate it: scripts/formal.py applies
// the bind below by hand, inserting its instantiation into a copy of rtl/credit_link.sv (under
// build/formal/), which is what `bind` means. The RTL's own `ifndef SYNTHESIS` checkers are not
// read (formal.py defines SYNTHESIS): they are concurrent assertions with a clocking event,
// `disable iff` and action blocks, which that frontend does not parse (Verific's does). The
// properties they state that the proof needs are restated here. This file is for yosys's
// -formal frontend only ($initstate, immediate assertions in always @*).
//
// Checked in every cycle both ends are out of reset, after the first (the initial reset):
//   Properties (docs/formal.md):
//     p_conservation     per pool p, credit_total[p] == B_p: credits + reserved + fwd_flits +
//                        occupancy of p's lanes + slots_freeing + pending_returns +
//                        return_waiting + return_flight, the probe's sum.
//     p_no_overflow      no lane's overflow ever rises (no flit arrives at a full lane).
//     p_no_send_at_zero  a packet's head flit goes only with credits != 0 in its lane's pool
//                        (its later flits go on credits reserved at the grant).
//   Strengthening invariants (INVARIANTS = 1), proved with the properties (they are assertions):
//     i_exact_sum        per pool, the same sum with every term at full width equals B_p. Without recovery the
//                        return path's stages are added one by one: the probe adds them in the
//                        count's CW bits, where two full stages can wrap to a small number. With
//                        recovery CR - CS and CS - R are taken at TOTAL_BITS: the probe counts a
//                        CS - R above B as nothing on the way (a run-away total after a corrupted
//                        update). Both are states no reset reaches, but ones an induction step
//                        may start from; the property alone is the sum modulo 2^TW.
//     i_updates_in_order with recovery: every update on the return path carries a total between R
//                        and CS, and the totals rise from the oldest update to the youngest. So
//                        the update that arrives fits the credit limit and hands over at most
//                        CS - R credits, and accepting it keeps the others between the new R and
//                        CS (a total beyond CS, or behind one accepted before it, is a state no
//                        reset reaches but one an induction step may start from).
//   Covers (yosys-smtbmc -c; scripts/formal.py asks for them where a check needs a symptom shown):
//     c_credits_exhausted  the sender holds no credit (all B away).
//     c_update_refused     with recovery: update_rx refuses an arriving update.
//     c_pools_exhausted    every pool holds no credit in the same cycle (each pool's counter is spent).
//     c_last_pool_returned credits of the last pool arrive at the sender (on a shared return path
//                          the largest pool id is carried and decoded).
//   A multi-channel grid point must reach the last two (scripts/formal.py), so its proof is not
//   of a link whose credits never move.
// INVARIANTS = 0 leaves the properties alone: the bounded searches for counterexamples (one-sided
// resets, mutants) use it, so what they report is a property failing, not an invariant.
module credit_link_checker #(
  parameter int NCH = 1,
  parameter int NLANE = 1,
  parameter int NPOOL = 1,
  parameter int L = 4,
  parameter int W = 32,
  parameter int SYNC = 0,
  parameter int RECOVERY = 0,
  parameter int SHARED_RET = 0,
  parameter logic [16*8-1:0]  LANE_POOL = '0,
  parameter logic [16*16-1:0] POOL_B = {16{16'd12}},
  parameter logic [16*8-1:0]  POOL_TOTAL_BITS = {16{8'd8}},
  parameter int VW = 16,                 // the value field of a return message (credit_link's VW)
  parameter int INVARIANTS = 1,
  localparam int NRET = (SHARED_RET == 1) ? 1 : NPOOL,
  localparam int RET_STAGES = L + SYNC,
  localparam int MW = 1 + 4 + VW,
  localparam int FW = 1 + 8 + W
) (
  input  logic                        clk,
  input  logic                        rst_tx_n,
  input  logic                        rst_rx_n
  // credit_link's ports and internal signals, the probe's and the proof's (rtl/observe/
  // link_signals.svh), each as link_<name>.
`define CL_PROBE_IN(name, msb)   , input logic [msb:0] link_``name
`define CL_PROBE_NET(name, msb)  , input logic [msb:0] link_``name
`define CL_PROBE_HOOK(name, msb) , input logic [msb:0] link_``name
`define CL_PROOF_IN(name, msb)   , input logic [msb:0] link_``name
`define CL_PROOF_NET(name, msb)  , input logic [msb:0] link_``name
`include "link_signals.svh"
);
  function automatic int lane_pool(int l);
    lane_pool = (l >= 0 && l < 16) ? 32'(LANE_POOL[l*8 +: 8]) : 0;
  endfunction
  function automatic int pool_b(int p);
    pool_b = (p >= 0 && p < 16) ? 32'(POOL_B[p*16 +: 16]) : 1;
  endfunction
  function automatic int pool_total_bits(int p);
    pool_total_bits = (p >= 0 && p < 16) ? 32'(POOL_TOTAL_BITS[p*8 +: 8]) : 8;
  endfunction

  // The observation the simulation sees, computed by the simulation's own probe.
  logic [NPOOL*18-1:0] link_credit_total;
  credit_link_probe #(.NCH(NCH), .NLANE(NLANE), .NPOOL(NPOOL), .RECOVERY(RECOVERY), .SHARED_RET(SHARED_RET),
                      .LANE_POOL(LANE_POOL), .POOL_B(POOL_B)) u_probe (
    .clk, .rst_tx_n, .rst_rx_n
`define CL_PROBE_IN(name, msb)   , .name (link_``name)
`define CL_PROBE_NET(name, msb)  , .name (link_``name)
`define CL_PROBE_HOOK(name, msb) , .name (link_``name)
`define CL_PROOF_IN(name, msb)
`define CL_PROOF_NET(name, msb)
`include "link_signals.svh"
    , .credit_total (link_credit_total)
  );

  // Pool 0's view under the single link's observed names and widths (credit_link_observed.sv
  // makes the same view for the simulation), for the waves.
  localparam int CW = $clog2(pool_b(0) + 1);
  localparam int FLW = $clog2(L + 1);
  localparam int TW = ((CW > FLW) ? CW : FLW) + 3;
  /* verilator lint_off UNUSEDSIGNAL */
  logic want_send, drain, flush, return_busy, fault_drop, can_send, send, pop, arrive, overflow,
        policy_flush, return_message, update_refused, fault_dropped, fault_added;
  logic [W-1:0]   tx_payload, send_payload, pop_payload;
  logic [15:0]    fault_add;
  logic [CW-1:0]  credits, credits_arriving, occupancy, slots_freeing, pending_returns, return_waiting,
                  credits_returned, return_flight;
  logic [FLW-1:0] fwd_flits;
  logic [TW-1:0]  credit_total;
  /* verilator lint_on UNUSEDSIGNAL */
  assign want_send        = link_have[0];
  assign tx_payload       = link_tag[W-1:0];
  assign drain            = link_drain[0];
  assign flush            = link_flush[0];
  assign return_busy      = link_return_busy[0];
  assign fault_drop       = link_fault_drop[0];
  assign fault_add        = link_fault_add;
  assign can_send         = link_can_send[0];
  assign send             = link_send;
  assign send_payload     = link_send_payload;
  assign pop              = link_pop[0];
  assign pop_payload      = link_pop_payload[W-1:0];
  assign credits          = CW'(link_credits[15:0]);
  assign credits_arriving = CW'(link_credits_arriving[15:0]);
  assign fwd_flits        = FLW'(link_fwd_flits[15:0]);
  assign arrive           = link_arrive;
  assign occupancy        = CW'(link_occupancy[15:0]);
  assign overflow         = link_overflow[0];
  assign slots_freeing    = CW'(link_slots_freeing[15:0]);
  assign pending_returns  = CW'(link_pending_returns[15:0]);
  assign policy_flush     = link_policy_flush[0];
  assign return_waiting   = CW'(link_return_waiting[15:0]);
  assign credits_returned = CW'(link_credits_returned[15:0]);
  assign return_message   = link_return_message[0];
  assign update_refused   = link_update_refused[0];
  assign fault_dropped    = link_fault_dropped[0];
  assign fault_added      = link_fault_added[0];
  assign return_flight    = CW'(link_return_flight[15:0]);
  assign credit_total     = TW'(link_credit_total[17:0]);

  // Checked while both ends are out of reset, from the first cycle after the initial reset on
  // (cycle 0 of the waves). A reset of one end alone (the one-sided runs) is not checked in its
  // own cycle, and is from the next one on: that is where it shows.
  logic checked;
  assign checked = !$initstate && rst_tx_n && rst_rx_n;

  // Per pool: the conservation sum (the probe's), the same sum with every term at full width (XW
  // bits: without recovery the return stages one by one, with it CR - CS and CS - R at the pool's
  // total width), and whether the updates on the way carry totals between R and CS, rising from
  // the oldest stage to the youngest (measured from R modulo 2^n, "between" and "rising" are
  // plain unsigned compares).
  localparam int XW = 24;
  logic [NPOOL-1:0] conserved, exact, in_order;
  always_comb begin
    for (int p = 0; p < NPOOL; p++) begin
      logic [XW-1:0] total;
      logic [15:0]   mask, flight, floor_total, carried;
      mask  = 16'((17'd1 << pool_total_bits(p)) - 17'd1);
      total = XW'(link_credits[p*16 +: 16]) + XW'(link_reserved[p*16 +: 16]) + XW'(link_fwd_flits[p*16 +: 16]) +
              XW'(link_slots_freeing[p*16 +: 16]) + XW'(link_pending_returns[p*16 +: 16]);
      for (int l = 0; l < NLANE; l++)
        if (lane_pool(l) == p) total = total + XW'(link_occupancy[l*16 +: 16]);
      flight = (link_sent_total[p*16 +: 16] - link_accepted_total[p*16 +: 16]) & mask;
      if (RECOVERY == 0) begin
        total = total + XW'(link_return_waiting[p*16 +: 16]);
        for (int r = 0; r < NRET; r++)
          for (int i = 0; i < RET_STAGES; i++)
            if (link_ret_stages[(r*RET_STAGES + i)*MW + MW - 1] && link_ret_stages[(r*RET_STAGES + i)*MW + VW +: 4] == 4'(p))
              total = total + XW'(link_ret_stages[(r*RET_STAGES + i)*MW +: VW]);
      end else begin
        total = total + XW'((link_released_total[p*16 +: 16] - link_sent_total[p*16 +: 16]) & mask) + XW'(flight);
      end
      conserved[p] = 32'(link_credit_total[p*18 +: 18]) == pool_b(p);
      exact[p]     = 32'(total) == pool_b(p);
      in_order[p]  = 1'b1;
      floor_total  = '0;
      carried      = '0;
      if (RECOVERY == 1)
        for (int r = 0; r < NRET; r++)
          for (int i = RET_STAGES - 1; i >= 0; i--)
            if (link_ret_stages[(r*RET_STAGES + i)*MW + MW - 1] && link_ret_stages[(r*RET_STAGES + i)*MW + VW +: 4] == 4'(p)) begin
              carried = 16'(link_ret_stages[(r*RET_STAGES + i)*MW +: VW] - VW'(link_accepted_total[p*16 +: 16])) & mask;
              if (carried > flight || carried < floor_total) in_order[p] = 1'b0;
              floor_total = carried;
            end
    end
  end

  // A packet's head flit is sent from its lane's pool; it needs a credit there.
  logic head_at_zero;
  always_comb begin
    head_at_zero = 1'b0;
    for (int l = 0; l < NLANE; l++)
      if (link_send && !link_in_packet && link_send_lane == 8'(l) && link_credits[lane_pool(l)*16 +: 16] == '0)
        head_at_zero = 1'b1;
  end

  always @* begin
    if (checked) begin
      p_conservation: assert (&conserved);
      p_no_overflow: assert (link_overflow == '0);
      p_no_send_at_zero: assert (!head_at_zero);
      c_credits_exhausted: cover (credits == '0);
      c_update_refused: cover (link_update_refused != '0);
      c_pools_exhausted: cover (link_can_send == '0);
      c_last_pool_returned: cover (link_credits_arriving[(NPOOL-1)*16 +: 16] != '0);
      if (INVARIANTS != 0) begin
        i_exact_sum: assert (&exact);
        if (RECOVERY == 1) i_updates_in_order: assert (&in_order);
      end
    end
  end
endmodule

// The checker inside every credit_link, connected to the link's own signals (applied by
// scripts/formal.py for yosys, which does not elaborate bind).
bind credit_link credit_link_checker #(.NCH(NCH), .NLANE(NLANE), .NPOOL(NPOOL), .L(L), .W(W), .SYNC(SYNC),
                                      .RECOVERY(RECOVERY), .SHARED_RET(SHARED_RET), .LANE_POOL(LANE_POOL),
                                      .POOL_B(POOL_B), .POOL_TOTAL_BITS(POOL_TOTAL_BITS), .VW(VW)) u_formal (
  .clk, .rst_tx_n, .rst_rx_n
`define CL_PROBE_IN(name, msb)   , .link_``name (name)
`define CL_PROBE_NET(name, msb)  , .link_``name (name)
`define CL_PROBE_HOOK(name, msb) , .link_``name (name)
`define CL_PROOF_IN(name, msb)   , .link_``name (name)
`define CL_PROOF_NET(name, msb)  , .link_``name (name)
`include "link_signals.svh"
);
