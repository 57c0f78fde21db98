// credit_link_probe: the loop-level assertions and covers of a credit_link, read from inside it.
//
// Attached to every credit_link with SystemVerilog `bind` (at the end of this file), so the
// design keeps only its functional ports. Its inputs are credit_link's internal signals of the
// same names (each pool's counter, reserve and return terms, each lane's occupancy, the packet in
// progress); its output is each pool's conservation total, which the testbench top brings out
// for the waves (the conservation scoreboard adds the terms itself).
//   credit_total[p]  credits + reserved + fwd_flits + occupancy of p's lanes + slots_freeing +
//                    pending_returns + return_waiting + return_flight: B_p in a correct loop.
//
// The loop is whole while both ends are out of reset, and both were last reset together. A reset
// of one end alone breaks conservation on purpose (the harness's one-sided reset tests: the
// sender counts B again while credits are still at the receiver, or the receiver forgets the
// credits it held), and so does an injected fault that changes a pool's credits: a dropped or
// enlarged count without recovery (fault_dropped, fault_added), an enlarged update accepted with
// it (fault_added and not update_refused). The loop checks of a pool stand aside from such a
// cycle until the next reset of both ends. With recovery a dropped update, or an enlarged one
// refused, changes no credit, and the checks go on: that is the recovery's claim.
// Assertions (Verilator --assert, at every rising edge):
//   while the pool's loop is whole:
//     a_conservation             the pool's sum == B_p.
//     a_credits_within_b         credits <= B_p (with recovery always: the credit limit keeps it).
//     a_return_waiting_within_b  return_waiting <= B_p.
//     a_no_overflow              no flit arrives at a full lane of the pool.
//   while the end concerned is out of reset:
//     a_no_send_at_zero          a packet's head flit leaves only with a credit of its pool.
//     a_no_pop_when_empty        a lane pops only with occupancy != 0.
//     a_flush_reaches_return     flush[p] always raises policy_flush[p].
//     a_flush_empties_batch      the cycle after policy_flush[p], pending_returns[p] == 0.
//     a_one_grant                at most one grant per cycle.
//     a_grant_only_eligible      a grant only to an eligible channel.
//     a_no_grant_in_packet       no grant while a packet is in progress.
//     a_reserved_is_packet       the reserved credits are the flits of the packet in progress.
//     a_refused_only_if_corrupted   (recovery) an update refused needs a corrupted one this cycle
//                                or a loop already broken: a correct receiver is never refused.
//     a_one_update_per_cycle     (shared return path) at most one message a cycle.
//     a_shared_path_serves       (shared return path) a free path with a pool owing a message
//                                carries one.
// Covers (named for a --coverage-user report): a reset while credits are away from the sender
// (on the forward path, at the receiver or on the way back):
//   cover_reset_link_in_flight      both ends together (the regression's --reset-every).
//   cover_reset_tx_alone_in_flight  the sender end alone.
//   cover_reset_rx_alone_in_flight  the receiver end alone.
module credit_link_probe #(
  parameter int NCH = 1,
  parameter int NLANE = 1,
  parameter int NPOOL = 1,
  parameter int RECOVERY = 0,
  parameter int SHARED_RET = 0,
  parameter logic [16*8-1:0]  LANE_POOL = '0,
  parameter logic [16*16-1:0] POOL_B = {16{16'd12}},
  localparam int NRET = (SHARED_RET == 1) ? 1 : NPOOL
) (
  input  logic                   clk,
  input  logic                   rst_tx_n,
  input  logic                   rst_rx_n
  // credit_link's signals, by name (link_signals.svh); return_busy, return_message and owes are
  // read with a shared return path only.
  /* verilator lint_off UNUSEDSIGNAL */
`define CL_PROBE_IN(name, msb)   , input logic [msb:0] name
`define CL_PROBE_NET(name, msb)  , input logic [msb:0] name
`define CL_PROBE_HOOK(name, msb) , input logic [msb:0] name
`define CL_PROOF_IN(name, msb)
`define CL_PROOF_NET(name, msb)
`include "link_signals.svh"
  /* verilator lint_on UNUSEDSIGNAL */
  , output logic [NPOOL*18-1:0] credit_total
);
  function automatic int lane_pool(int l);
    lane_pool = (l >= 0 && l < 16) ? 32'(LANE_POOL[l*8 +: 8]) : 0;
  endfunction
  function automatic int pool_b(int p);
    pool_b = (p >= 0 && p < 16) ? 32'(POOL_B[p*16 +: 16]) : 1;
  endfunction

  logic [NPOOL*18-1:0] lanes_total;
  always_comb begin
    for (int p = 0; p < NPOOL; p++) begin
      lanes_total[p*18 +: 18] = '0;
      for (int l = 0; l < NLANE; l++)
        if (lane_pool(l) == p) lanes_total[p*18 +: 18] = lanes_total[p*18 +: 18] + 18'(occupancy[l*16 +: 16]);
      credit_total[p*18 +: 18] = 18'(credits[p*16 +: 16]) + 18'(reserved[p*16 +: 16]) + 18'(fwd_flits[p*16 +: 16]) + lanes_total[p*18 +: 18] +
                        18'(slots_freeing[p*16 +: 16]) + 18'(pending_returns[p*16 +: 16]) + 18'(return_waiting[p*16 +: 16]) +
                        18'(return_flight[p*16 +: 16]);
    end
  end

`ifndef SYNTHESIS
  logic tx_live_q, rx_live_q;
  always_ff @(posedge clk or negedge rst_tx_n) begin
    if (!rst_tx_n) tx_live_q <= 1'b0;
    else           tx_live_q <= 1'b1;
  end
  always_ff @(posedge clk or negedge rst_rx_n) begin
    if (!rst_rx_n) rx_live_q <= 1'b0;
    else           rx_live_q <= 1'b1;
  end

  logic [NPOOL-1:0] fault_breaks, whole_q, checked;
  logic [NLANE-1:0] lane_checked;
  assign fault_breaks = (RECOVERY == 1) ? (fault_added & ~update_refused) : (fault_dropped | fault_added);
  always_ff @(posedge clk) begin
    for (int p = 0; p < NPOOL; p++)
      whole_q[p] <= (!tx_live_q && !rx_live_q)                      ? 1'b1 :
                    (tx_live_q && rx_live_q && !fault_breaks[p]) ? whole_q[p] : 1'b0;
  end
  assign checked = (tx_live_q && rx_live_q) ? (whole_q & ~fault_breaks) : '0;
  always_comb begin
    for (int l = 0; l < NLANE; l++) lane_checked[l] = checked[lane_pool(l)];
  end

  logic credits_away, credits_away_q;
  logic [NPOOL-1:0] flushed_q;
  always_comb begin
    credits_away = 1'b0;
    for (int p = 0; p < NPOOL; p++)
      credits_away = credits_away || int'(credits[p*16 +: 16]) != pool_b(p);
  end
  always_ff @(posedge clk) credits_away_q <= credits_away;
  always_ff @(posedge clk or negedge rst_rx_n) begin
    if (!rst_rx_n) flushed_q <= '0;
    else           flushed_q <= policy_flush;
  end

  // The head flit's pool: a packet's first flit leaves only with a credit of its pool.
  logic head_at_zero;
  always_comb begin
    head_at_zero = 1'b0;
    for (int l = 0; l < NLANE; l++)
      if (send && !in_packet && send_lane == 8'(l) && credits[(lane_pool(l))*16 +: 16] == '0) head_at_zero = 1'b1;
  end
  int reserved_total;
  always_comb begin
    reserved_total = 0;
    for (int p = 0; p < NPOOL; p++) reserved_total = reserved_total + int'(reserved[p*16 +: 16]);
  end

  // The checker samples the resets on the clock; the lint note about mixing that with the
  // link's async resets is about synthesis, not about this checker.
  /* verilator lint_off SYNCASYNCNET */
  for (genvar p = 0; p < NPOOL; p++) begin : g_pool_checks
    a_conservation: assert property (@(posedge clk)
        !checked[p] || int'(credit_total[p*18 +: 18]) == pool_b(p))
      else $error("credit_link: conservation of pool %0d: credits %0d + reserved %0d + fwd %0d + lanes %0d + freeing %0d + pending %0d + waiting %0d + returning %0d = %0d != B %0d",
                  p, credits[p*16 +: 16], reserved[p*16 +: 16], fwd_flits[p*16 +: 16], lanes_total[p*18 +: 18], slots_freeing[p*16 +: 16], pending_returns[p*16 +: 16],
                  return_waiting[p*16 +: 16], return_flight[p*16 +: 16], credit_total[p*18 +: 18], pool_b(p));
    a_credits_within_b: assert property (@(posedge clk)
        !(checked[p] || (RECOVERY == 1 && tx_live_q && rx_live_q && whole_q[p])) || int'(credits[p*16 +: 16]) <= pool_b(p))
      else $error("credit_link: the sender never holds more than B credits: pool %0d credits %0d > B %0d",
                  p, credits[p*16 +: 16], pool_b(p));
    a_return_waiting_within_b: assert property (@(posedge clk)
        !checked[p] || int'(return_waiting[p*16 +: 16]) <= pool_b(p))
      else $error("credit_link: the credits waiting to be returned bounded by B: pool %0d waiting %0d > B %0d",
                  p, return_waiting[p*16 +: 16], pool_b(p));
    a_flush_reaches_return: assert property (@(posedge clk)
        !rst_rx_n || !flush[p] || policy_flush[p])
      else $error("credit_link: flush returns every pending credit: pool %0d flush %0d but policy_flush %0d",
                  p, flush[p], policy_flush[p]);
    a_flush_empties_batch: assert property (@(posedge clk)
        !rst_rx_n || !flushed_q[p] || pending_returns[p*16 +: 16] == '0)
      else $error("credit_link: a flush leaves no credit pending: pool %0d pending_returns %0d the cycle after policy_flush",
                  p, pending_returns[p*16 +: 16]);
    if (RECOVERY == 1) begin : g_recovery
      a_refused_only_if_corrupted: assert property (@(posedge clk)
          !(tx_live_q && rx_live_q) || !update_refused[p] || fault_added[p] || !whole_q[p])
        else $error("credit_link: pool %0d: an update refused that no corruption explains", p);
    end
  end
  logic overflow_checked;
  always_comb begin
    overflow_checked = 1'b0;
    for (int l = 0; l < NLANE; l++)
      if (arrive && arrive_lane == 8'(l) && lane_checked[l] && overflow[l]) overflow_checked = 1'b1;
  end
  a_no_overflow: assert property (@(posedge clk)
      !overflow_checked)
    else $error("credit_link: no flit arrives at a full lane: overflow on lane %0d", arrive_lane);
  a_no_send_at_zero: assert property (@(posedge clk)
      !rst_tx_n || !head_at_zero)
    else $error("credit_link: no send at zero credits: send %0d on lane %0d with credits %0d", send, send_lane,
                credits[(lane_pool(int'(send_lane)))*16 +: 16]);
  for (genvar l = 0; l < NLANE; l++) begin : g_lane_checks
    a_no_pop_when_empty: assert property (@(posedge clk)
        !rst_rx_n || !(pop[l] && occupancy[l*16 +: 16] == '0))
      else $error("credit_link: no pop from an empty buffer: lane %0d pop with occupancy %0d", l, occupancy[l*16 +: 16]);
  end
  a_one_grant: assert property (@(posedge clk)
      !rst_tx_n || $onehot0(grant))
    else $error("credit_link: at most one grant per cycle: grant %b", grant);
  a_grant_only_eligible: assert property (@(posedge clk)
      !rst_tx_n || (grant & ~eligible) == '0)
    else $error("credit_link: a grant only to an eligible channel: grant %b, eligible %b", grant, eligible);
  a_no_grant_in_packet: assert property (@(posedge clk)
      !rst_tx_n || !(in_packet && grant != '0))
    else $error("credit_link: no grant while a packet is in progress: grant %b, %0d flits left", grant, flits_left);
  a_reserved_is_packet: assert property (@(posedge clk)
      !(tx_live_q && rx_live_q && checked == '1) || reserved_total == int'(flits_left))
    else $error("credit_link: the reserved credits are the flits of the packet in progress: reserved %0d, flits left %0d",
                reserved_total, flits_left);
  if (SHARED_RET == 1) begin : g_shared
    a_one_update_per_cycle: assert property (@(posedge clk)
        !rst_rx_n || $onehot0(return_message))
      else $error("credit_link: one message per cycle on the shared return path: return_message %b", return_message);
    a_shared_path_serves: assert property (@(posedge clk)
        !rst_rx_n || return_busy[0] || owes == '0 || return_message != '0)
      else $error("credit_link: the shared return path carries a message when a pool owes one: owes %b, none sent", owes);
  end

  cover_reset_link_in_flight: cover property (@(posedge clk)
      !tx_live_q && !rx_live_q && credits_away_q);
  cover_reset_tx_alone_in_flight: cover property (@(posedge clk)
      !tx_live_q && rx_live_q && credits_away_q);
  cover_reset_rx_alone_in_flight: cover property (@(posedge clk)
      tx_live_q && !rx_live_q && credits_away_q);
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule

// Every credit_link gets its probe, connected by name to the link's own signals. Its output is
// read through the hierarchy (credit_link_observed.sv), not by the link: left open here.
/* verilator lint_off PINCONNECTEMPTY */
bind credit_link credit_link_probe #(.NCH(NCH), .NLANE(NLANE), .NPOOL(NPOOL), .RECOVERY(RECOVERY),
                                    .SHARED_RET(SHARED_RET), .LANE_POOL(LANE_POOL), .POOL_B(POOL_B)) u_probe (
  .clk, .rst_tx_n, .rst_rx_n
`define CL_PROBE_IN(name, msb)   , .name
`define CL_PROBE_NET(name, msb)  , .name
`define CL_PROBE_HOOK(name, msb) , .name
`define CL_PROOF_IN(name, msb)
`define CL_PROOF_NET(name, msb)
`include "link_signals.svh"
  , .credit_total ()
);
/* verilator lint_on PINCONNECTEMPTY */
