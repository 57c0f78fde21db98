// update_rx: the sender end of the recovery protocol (link.sender with RECOVERY = 1, seed 003;
// docs/recovery.md): turns the cumulative credit updates arriving on the return path into the
// credit count the counter adds, and guards the count against an update that would inflate it.
//   update_valid      an update arrives in this cycle (after the return path's faults).
//   update_total      the total v it carries, modulo 2^TOTAL_BITS.
//   credits           the counter's credits at the start of this cycle.
//   credits_arriving  combinational: d = v - R (mod 2^TOTAL_BITS) when the update is accepted,
//                     else 0; the counter adds it at the edge, as it adds a count today.
//   refused           combinational: an update arrives and is refused (update_refused).
//   accepted_total    R, the total of the last update accepted, at the start of the cycle.
// Register R resets to 0 (with the sender end, as the counter is reset to B).
// Timing: an update arriving in cycle t with value v is accepted if credits + d <= B (the credit
// limit, computed one bit wider than both terms so it never wraps); then R <= v at the edge and
// its d credits are spent from t + 1. Otherwise it is refused and R is unchanged. A duplicate
// (d = 0) is accepted and changes nothing. With 2^TOTAL_BITS > 2B, a stale total (older than R)
// gives d > B and is refused; a lost update's credits come with the next accepted one.
// Invariant: R moves by exactly the credits handed to the counter (R - R at reset == the sum of
// credits_arriving, modulo 2^TOTAL_BITS); credits + credits_arriving <= B.
// Assertions (Verilator --assert, checked at every rising edge out of reset):
//   a_refused_only_over_limit   an update is refused only if d > B - credits.
//   a_accepted_within_limit     an accepted update keeps credits + d <= B.
//   a_nothing_without_update    no update, no credits and no refusal.
//   a_total_moves_by_arrivals   R == the sum of credits_arriving since reset (modulo
//                               2^TOTAL_BITS, a running sum of the checker's own): R moves by d.
// Covers (named for a --coverage-user report):
//   cover_update_refused        an update is refused.
//   cover_duplicate_update      an update carrying R again (a resend, or one already covered).
//   cover_total_wraps           an accepted total wraps past 2^TOTAL_BITS (v < R as numbers).
module update_rx #(
  parameter int B = 4,
  parameter int TOTAL_BITS = 8
) (
  input  logic                    clk,
  input  logic                    rst_n,
  input  logic                    update_valid,
  input  logic [TOTAL_BITS-1:0]   update_total,
  input  logic [$clog2(B+1)-1:0]  credits,
  output logic [$clog2(B+1)-1:0]  credits_arriving,
  output logic                    refused,
  output logic [TOTAL_BITS-1:0]   accepted_total
);
  localparam int CW = $clog2(B + 1);
  localparam int NW = TOTAL_BITS;
  localparam int LW = ((NW > CW) ? NW : CW) + 1;   // credits + d without wrapping

  if (NW < CW) $error("update_rx: TOTAL_BITS = %0d, need TOTAL_BITS >= %0d (the count's width, B = %0d)", NW, CW, B);

  logic [NW-1:0] d;
  logic [LW-1:0] limit_sum;
  logic          fits, accept;

  assign d                = update_total - accepted_total;     // modulo 2^TOTAL_BITS
  assign limit_sum        = LW'(credits) + LW'(d);
  assign fits             = limit_sum <= LW'(B);
  assign accept           = update_valid && fits;
  assign refused          = update_valid && !fits;
  assign credits_arriving = accept ? CW'(d) : '0;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n)      accepted_total <= '0;
    else if (accept) accepted_total <= update_total;
  end

`ifndef SYNTHESIS
  // The checker's own running sum of the credits handed to the counter, modulo 2^TOTAL_BITS.
  logic [NW-1:0] handed_q;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) handed_q <= '0;
    else        handed_q <= handed_q + NW'(credits_arriving);
  end

  // The checker samples rst_n on the clock; the lint note about mixing that with the async
  // reset above is about synthesis, not about this checker. Its sums are taken as int and its
  // difference modulo 2^TOTAL_BITS of its own, apart from d and limit_sum above.
  /* verilator lint_off SYNCASYNCNET */
  a_refused_only_over_limit: assert property (@(posedge clk) disable iff (!rst_n)
      !refused || int'(credits) + int'(NW'(update_total - accepted_total)) > B)
    else $error("update_rx: an update is refused only over the limit: total %0d, accepted %0d, credits %0d, B %0d",
                update_total, accepted_total, credits, B);
  a_accepted_within_limit: assert property (@(posedge clk) disable iff (!rst_n)
      !update_valid || refused || int'(credits) + int'(NW'(update_total - accepted_total)) <= B)
    else $error("update_rx: an accepted update keeps credits within B: total %0d, accepted %0d, credits %0d, B %0d",
                update_total, accepted_total, credits, B);
  a_nothing_without_update: assert property (@(posedge clk) disable iff (!rst_n)
      update_valid || (credits_arriving == '0 && !refused))
    else $error("update_rx: no update, no credits: credits_arriving %0d, refused %0d", credits_arriving, refused);
  a_total_moves_by_arrivals: assert property (@(posedge clk) disable iff (!rst_n)
      accepted_total == handed_q)
    else $error("update_rx: the accepted total moves by the credits handed over: accepted %0d, handed since reset %0d",
                accepted_total, handed_q);

  cover_update_refused: cover property (@(posedge clk) disable iff (!rst_n)
      refused);
  cover_duplicate_update: cover property (@(posedge clk) disable iff (!rst_n)
      update_valid && update_total == accepted_total);
  cover_total_wraps: cover property (@(posedge clk) disable iff (!rst_n)
      accept && update_total < accepted_total);
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
