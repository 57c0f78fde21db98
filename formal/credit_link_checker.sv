// credit_link_checker: the formal proof's properties and strengthening invariants, bound into
// every credit_link (the bind at the end of this file) so it reads the link's internal signals by
// name, as the simulation's probe (rtl/observe/credit_link_probe.sv) does.
//
// It instantiates that probe, so the sum it proves is the one the simulation observes
// (credit_total), and it carries every observed signal under its observed name (the ports and
// wires below), so a counterexample's waves open with the simulation's GTKWave save file
// (tb/report/gtkw.cpp) on this instance's scope.
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
//     p_conservation     credit_total == B: credits + fwd_flits + occupancy + slots_freeing +
//                        pending_returns + return_waiting + return_flight, the probe's sum.
//     p_no_overflow      overflow never rises (no flit arrives at a full buffer).
//     p_no_send_at_zero  send only with credits != 0.
//   Strengthening invariants (INVARIANTS = 1), proved with the properties (they are assertions):
//     i_exact_sum        the same sum with every term at full width equals B. Without recovery the
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
// INVARIANTS = 0 leaves the properties alone: the bounded searches for counterexamples (one-sided
// resets, mutants) use it, so what they report is a property failing, not an invariant.
module credit_link_checker #(
  parameter int L = 4,
  parameter int B = 12,
  parameter int W = 32,
  parameter int SYNC = 0,
  parameter int RECOVERY = 0,
  parameter int TOTAL_BITS = 8,
  parameter int INVARIANTS = 1
) (
  input  logic                    clk,
  input  logic                    rst_tx_n,
  input  logic                    rst_rx_n,
  // the link's ports (what the properties do not read is here for the waves)
  input  logic                    want_send,
  input  logic [W-1:0]            tx_payload,
  input  logic                    drain,
  input  logic                    flush,
  input  logic                    return_busy,
  input  logic                    fault_drop,
  input  logic [15:0]             fault_add,
  input  logic                    can_send,
  input  logic                    send,
  input  logic [W-1:0]            send_payload,
  input  logic                    pop,
  input  logic [W-1:0]            pop_payload,
  // the link's internal signals the probe reads
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
  input  logic [TOTAL_BITS-1:0]   released_total,
  input  logic [TOTAL_BITS-1:0]   sent_total,
  input  logic [TOTAL_BITS-1:0]   accepted_total,
  input  logic [(L+SYNC)*((RECOVERY == 1) ? TOTAL_BITS + 1 : $clog2(B+1))-1:0] ret_stages
);
  localparam int CW = $clog2(B + 1);
  localparam int FW = $clog2(L + 1);
  localparam int TW = ((CW > FW) ? CW : FW) + 3;
  localparam int NW = TOTAL_BITS;
  localparam int RET_STAGES = L + SYNC;

  // The observation the simulation sees, computed by the simulation's own probe.
  logic [FW-1:0] fwd_flits;
  logic [CW-1:0] return_flight;
  logic [TW-1:0] credit_total;
  credit_link_probe #(.L(L), .B(B), .W(W), .SYNC(SYNC), .RECOVERY(RECOVERY), .TOTAL_BITS(TOTAL_BITS)) u_probe (
    .clk, .rst_tx_n, .rst_rx_n, .send, .pop, .flush,
    .credits, .credits_arriving, .fwd_stages, .arrive, .occupancy, .overflow, .slots_freeing,
    .pending_returns, .policy_flush, .return_waiting, .credits_returned, .return_message, .update_refused,
    .fault_dropped, .fault_added, .released_total, .sent_total, .accepted_total, .ret_stages,
    .fwd_flits, .return_flight, .credit_total
  );

  // Checked while both ends are out of reset, from the first cycle after the initial reset on
  // (cycle 0 of the waves). A reset of one end alone (the one-sided runs) is not checked in its
  // own cycle, and is from the next one on: that is where it shows.
  logic checked;
  assign checked = !$initstate && rst_tx_n && rst_rx_n;

  // The sum with every term at full width: without recovery the return path's stages one by one
  // (the probe adds them in CW bits), with it CR - CS and CS - R at TOTAL_BITS (the probe counts a
  // CS - R above B as nothing on the way). XW holds any of these sums without wrapping.
  localparam int XW = ((CW > NW) ? CW : NW) + $clog2(RET_STAGES + 8) + 1;
  logic [NW-1:0] flight_total;
  logic [XW-1:0] exact_total;
  assign flight_total = sent_total - accepted_total;
  always_comb begin
    exact_total = XW'(credits) + XW'(fwd_flits) + XW'(occupancy) + XW'(slots_freeing) + XW'(pending_returns);
    if (RECOVERY == 0) begin
      exact_total = exact_total + XW'(return_waiting);
      for (int i = 0; i < RET_STAGES; i++) exact_total = exact_total + XW'(ret_stages[i*CW +: CW]);
    end else begin
      exact_total = exact_total + XW'(NW'(released_total - sent_total)) + XW'(flight_total);
    end
  end

  // With recovery: whether the updates on the return path carry totals between R and CS, rising
  // from the oldest stage (the last) to the youngest (stage 0). Measured from R (modulo
  // 2^TOTAL_BITS), "between" and "rising" are plain unsigned compares.
  logic          updates_in_order;
  always_comb begin
    logic [NW-1:0] floor_total;            // the highest total seen so far, from the oldest stage
    updates_in_order = 1'b1;
    floor_total = '0;
    if (RECOVERY == 1)
      for (int i = RET_STAGES - 1; i >= 0; i--)
        if (ret_stages[i*(NW+1) + NW]) begin
          if (NW'(ret_stages[i*(NW+1) +: NW] - accepted_total) > flight_total ||
              NW'(ret_stages[i*(NW+1) +: NW] - accepted_total) < floor_total)
            updates_in_order = 1'b0;
          floor_total = NW'(ret_stages[i*(NW+1) +: NW] - accepted_total);
        end
  end

  always @* begin
    if (checked) begin
      p_conservation: assert (credit_total == TW'(B));
      p_no_overflow: assert (!overflow);
      p_no_send_at_zero: assert (!(send && credits == '0));
      c_credits_exhausted: cover (credits == '0);
      c_update_refused: cover (update_refused);
      if (INVARIANTS != 0) begin
        i_exact_sum: assert (exact_total == XW'(B));
        if (RECOVERY == 1) i_updates_in_order: assert (updates_in_order);
      end
    end
  end
endmodule

// The checker inside every credit_link, connected by name to the link's own signals (applied by
// scripts/formal.py for yosys, which does not elaborate bind).
bind credit_link credit_link_checker #(.L(L), .B(B), .W(W), .SYNC(SYNC), .RECOVERY(RECOVERY),
                                      .TOTAL_BITS(TOTAL_BITS)) u_formal (
  .clk, .rst_tx_n, .rst_rx_n, .want_send, .tx_payload, .drain, .flush, .return_busy, .fault_drop, .fault_add,
  .can_send, .send, .send_payload, .pop, .pop_payload,
  .credits, .credits_arriving, .fwd_stages, .arrive, .occupancy, .overflow, .slots_freeing,
  .pending_returns, .policy_flush, .return_waiting, .credits_returned, .return_message, .update_refused,
  .fault_dropped, .fault_added, .released_total, .sent_total, .accepted_total, .ret_stages
);
