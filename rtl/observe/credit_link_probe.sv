// credit_link_probe: what the scoreboards observe of a credit_link, read from inside it.
//
// Attached to every credit_link with SystemVerilog `bind` (at the end of this file), so the
// design keeps only its functional ports and the testbench sees its internal state without
// growing ports for it. The probe's inputs are credit_link's internal signals of the same names
// (the counter's credits, the buffer's occupancy, each path's pipeline stages, ...); its outputs
// are the observation, which credit_link_observed.sv brings out as ports.
//
// It also holds the link's loop-level assertions and covers (conservation, the grant, the reset
// covers; listed in credit_link.sv's header), since it sees every term of the sum.
//
// Outputs, per cycle (counts at the start of the cycle, events during it; see credit_link.sv):
//   fwd_flits      flits on the forward path (valid bits of its L stages)
//   return_flight  credits on the return path: without recovery the sum of its L + SYNC stages
//                  of counts; with recovery (RECOVERY = 1) CS - R modulo 2^TOTAL_BITS, the
//                  credits covered by an update sent (sent_total) and not yet accepted
//                  (accepted_total), whether that update is still on its way or was lost;
//                  cut to CW bits saturating at 2^CW - 1 (at most B in a whole loop)
//   credit_total   credits + fwd_flits + occupancy + slots_freeing + pending_returns +
//                  return_waiting + return_flight: B in a correct loop (for people reading waves;
//                  the conservation scoreboard adds the terms itself). With recovery its
//                  return_waiting and return_flight are taken at TOTAL_BITS (CR - CS and
//                  CS - R), not cut to the count's width, so a total run away shows as such.
// and the observed internal signals themselves (credits, occupancy, return_message,
// update_refused, ...) under their own names.
//
// Faults (credit_link's fault_drop, fault_add): an injected fault that changes the credits in the
// loop breaks conservation on purpose, and the loop assertions stand aside from the cycle it hits
// an arriving message until the next reset of both ends, as after a one-sided reset: a dropped
// or enlarged count without recovery (fault_dropped, fault_added), an enlarged update that is
// accepted with recovery (fault_added and not update_refused). With recovery a dropped update,
// or an enlarged one refused, changes no credit, and the loop assertions keep checking.
module credit_link_probe #(
  parameter int L = 4,
  parameter int B = 12,
  parameter int W = 32,
  parameter int SYNC = 0,
  parameter int RECOVERY = 0,
  parameter int TOTAL_BITS = 8
) (
  // the link's clock, resets and the events its checks need
  input  logic                    clk,
  input  logic                    rst_tx_n,
  input  logic                    rst_rx_n,
  input  logic                    send,
  input  logic                    pop,
  input  logic                    flush,
  // the state and events it observes
  input  logic [$clog2(B+1)-1:0]  credits,
  input  logic [$clog2(B+1)-1:0]  credits_arriving,
  input  logic [L*(W+1)-1:0]      fwd_stages,
  input  logic                    arrive,
  input  logic [$clog2(B+1)-1:0]  occupancy,
  input  logic                    overflow,
  input  logic [$clog2(B+1)-1:0]  slots_freeing,
  input  logic [$clog2(B+1)-1:0]  pending_returns,
  input  logic                    policy_flush,
  input  logic [$clog2(B+1)-1:0]  return_waiting,
  input  logic [$clog2(B+1)-1:0]  credits_returned,
  input  logic                    return_message,
  input  logic                    update_refused,
  input  logic                    fault_dropped,
  input  logic                    fault_added,
  // read in one mode only: the totals with recovery, the stages' counts without it
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [TOTAL_BITS-1:0]   released_total,
  input  logic [TOTAL_BITS-1:0]   sent_total,
  input  logic [TOTAL_BITS-1:0]   accepted_total,
  input  logic [(L+SYNC)*((RECOVERY == 1) ? TOTAL_BITS + 1 : $clog2(B+1))-1:0] ret_stages,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [$clog2(L+1)-1:0]  fwd_flits,
  output logic [$clog2(B+1)-1:0]  return_flight,
  output logic [(($clog2(B+1) > $clog2(L+1)) ? $clog2(B+1) : $clog2(L+1)) + 2:0] credit_total
);
  localparam int CW = $clog2(B + 1);
  localparam int FW = $clog2(L + 1);
  localparam int TW = ((CW > FW) ? CW : FW) + 3;   // room for a total well past B in a buggy loop
  localparam int NW = TOTAL_BITS;

  // The return path's two terms at full width: the counts' CW bits without recovery, the
  // totals' TOTAL_BITS with it (the observed return_flight is cut to CW bits).
  localparam int XW = (RECOVERY == 1 && NW > CW) ? NW : CW;
  logic [XW-1:0] flight_x, waiting_x;
  always_comb begin
    fwd_flits = '0;
    for (int i = 0; i < L; i++) fwd_flits = fwd_flits + FW'(fwd_stages[i*(W+1) + W]);
  end
  if (RECOVERY == 1) begin : g_updates
    assign flight_x  = XW'(NW'(sent_total - accepted_total));
    assign waiting_x = XW'(NW'(released_total - sent_total));
  end else begin : g_counts
    always_comb begin
      flight_x = '0;
      for (int i = 0; i < L + SYNC; i++) flight_x = flight_x + ret_stages[i*CW +: CW];
    end
    assign waiting_x = return_waiting;
  end
  // No more than B credits can be on their way: a CS - R beyond B is R ahead of CS (the sender
  // accepted more than the receiver released, after a corrupted update), and counts as 0 on the
  // return path, so the sender's extra credits show as made, by exactly their number (the
  // models do the same).
  if ((2 ** XW) - 1 > B) begin : g_flight_clamped
    assign return_flight = (flight_x > XW'(B)) ? '0 : CW'(flight_x);
  end else begin : g_flight_fits   // no value of flight_x exceeds B
    assign return_flight = CW'(flight_x);
  end

  // The sum, wide enough for every term at full width (a broken loop shows its true total).
  localparam int SW = ((TW > XW) ? TW : XW) + 2;
  logic [SW-1:0] loop_total;
  assign loop_total   = SW'(credits) + SW'(fwd_flits) + SW'(occupancy) + SW'(slots_freeing) +
                        SW'(pending_returns) + SW'(waiting_x) + SW'(return_flight);
  assign credit_total = TW'(loop_total);

  // The link's own checks (credit_link.sv's header lists them): the probe sees every term of the
  // conservation sum, so they live here and follow the link wherever the probe is bound.
  `ifndef SYNTHESIS
  // ---- checks
  // One flag per end: cleared by that end's reset, set by every rising edge. At an edge it
  // reads 1 only if that end was out of reset for the whole cycle the edge ends.
  logic tx_live_q, rx_live_q;
  always_ff @(posedge clk or negedge rst_tx_n) begin
    if (!rst_tx_n) tx_live_q <= 1'b0;
    else           tx_live_q <= 1'b1;
  end
  always_ff @(posedge clk or negedge rst_rx_n) begin
    if (!rst_rx_n) rx_live_q <= 1'b0;
    else           rx_live_q <= 1'b1;
  end

  // An injected fault that changes the credits in the loop, in this cycle: a count dropped or
  // enlarged without recovery; an enlarged update accepted with it (a dropped update, or an
  // enlarged one refused, changes nothing with recovery).
  logic fault_breaks_loop;
  assign fault_breaks_loop = (RECOVERY == 1) ? (fault_added && !update_refused) : (fault_dropped || fault_added);

  // Whether the loop holds its B credits: set when both ends were reset in the same cycle,
  // cleared when one end was reset alone or a fault broke the loop, kept otherwise. (No reset of
  // its own: it records the resets. The harness holds both resets low across its first edges,
  // which sets it.)
  logic loop_whole_q;
  always_ff @(posedge clk) begin
    loop_whole_q <= (!tx_live_q && !rx_live_q)                   ? 1'b1 :
                    (tx_live_q && rx_live_q && !fault_breaks_loop) ? loop_whole_q : 1'b0;
  end
  // The checks stand aside from the cycle of the fault itself on.
  logic loop_checked;
  assign loop_checked = tx_live_q && rx_live_q && loop_whole_q && !fault_breaks_loop;

  // Whether any credit was away from the sender in the cycle the last edge ended, for the
  // reset covers; and whether that cycle flushed the batch.
  logic credits_away, credits_away_q, flushed_q;
  assign credits_away = fwd_flits != '0 || occupancy != '0 || slots_freeing != '0 || pending_returns != '0 ||
                        return_waiting != '0 || return_flight != '0;
  always_ff @(posedge clk) begin
    credits_away_q <= credits_away;
  end
  always_ff @(posedge clk or negedge rst_rx_n) begin
    if (!rst_rx_n) flushed_q <= 1'b0;
    else           flushed_q <= policy_flush;
  end

  // Each check names its guard in its expression, sampled at the edge with everything else. The
  // port checks sample rst_tx_n and rst_rx_n on the clock, as the blocks' checkers do (so they
  // also check the first cycle after a reset); the lint note about mixing that with the async
  // resets is about synthesis, not about this checker.
  /* verilator lint_off SYNCASYNCNET */
  a_conservation: assert property (@(posedge clk)
      !loop_checked || loop_total == SW'(B))
    else $error("credit_link: conservation: credits %0d + fwd %0d + rx %0d + freeing %0d + pending %0d + waiting %0d + returning %0d = %0d != B %0d",
                credits, fwd_flits, occupancy, slots_freeing, pending_returns, waiting_x, flight_x,
                loop_total, B);
  a_credits_within_b: assert property (@(posedge clk)
      !loop_checked || int'(credits) <= B)
    else $error("credit_link: the sender never holds more than B credits: credits %0d > B %0d", credits, B);
  a_return_waiting_within_b: assert property (@(posedge clk)
      !loop_checked || int'(waiting_x) <= B)
    else $error("credit_link: the credits waiting to be returned bounded by B: waiting %0d > B %0d", waiting_x, B);
  a_no_overflow: assert property (@(posedge clk)
      !loop_checked || !overflow)
    else $error("credit_link: no flit arrives at a full buffer: overflow with occupancy %0d of B %0d, credits %0d",
                occupancy, B, credits);

  a_no_send_at_zero: assert property (@(posedge clk)
      !rst_tx_n || !(send && credits == '0))
    else $error("credit_link: no send at zero credits: send %0d with credits %0d", send, credits);
  a_no_pop_when_empty: assert property (@(posedge clk)
      !rst_rx_n || !(pop && occupancy == '0))
    else $error("credit_link: no pop from an empty buffer: pop %0d with occupancy %0d", pop, occupancy);
  a_flush_reaches_return: assert property (@(posedge clk)
      !rst_rx_n || !flush || policy_flush)
    else $error("credit_link: flush returns every pending credit: flush %0d but policy_flush %0d", flush, policy_flush);
  a_flush_empties_batch: assert property (@(posedge clk)
      !rst_rx_n || !flushed_q || pending_returns == '0)
    else $error("credit_link: a flush leaves no credit pending: pending_returns %0d the cycle after policy_flush",
                pending_returns);

  cover_reset_link_in_flight: cover property (@(posedge clk)
      !tx_live_q && !rx_live_q && credits_away_q);
  cover_reset_tx_alone_in_flight: cover property (@(posedge clk)
      !tx_live_q && rx_live_q && credits_away_q);
  cover_reset_rx_alone_in_flight: cover property (@(posedge clk)
      tx_live_q && !rx_live_q && credits_away_q);
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule

// Every credit_link gets its probe, connected by name to the link's own signals. Its outputs are
// read through the hierarchy (credit_link_observed.sv), not by the link: left open here.
/* verilator lint_off PINCONNECTEMPTY */
bind credit_link credit_link_probe #(.L(L), .B(B), .W(W), .SYNC(SYNC), .RECOVERY(RECOVERY),
                                    .TOTAL_BITS(TOTAL_BITS)) u_probe (
  .clk, .rst_tx_n, .rst_rx_n, .send, .pop, .flush,
  .credits, .credits_arriving, .fwd_stages, .arrive, .occupancy, .overflow, .slots_freeing,
  .pending_returns, .policy_flush, .return_waiting, .credits_returned, .return_message, .update_refused,
  .released_total, .sent_total, .accepted_total, .fault_dropped, .fault_added, .ret_stages,
  .fwd_flits (), .return_flight (), .credit_total ()
);
/* verilator lint_on PINCONNECTEMPTY */
