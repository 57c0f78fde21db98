// MUTANT (bug class: running totals compared without modular arithmetic), seed 003 (PCIe's
// UpdateFC carries a running total, "modulo 2^n"): the sender accepts an update only if its
// total is at least the one it accepted last, compared as plain unsigned numbers. Correct until
// the receiver's running total wraps past 2^TOTAL_BITS: from the first update after the wrap
// every update is refused (v < R), the sender's credits never come back and the link starves.
// Caught at that update: lockstep (link.sender.update_refused, then credits_arriving), and the
// RTL's own a_refused_only_over_limit; recovery.refused too (no injected fault explains it).
// Invisible while fewer than 2^TOTAL_BITS credits have been returned since reset.
// Identical to rtl/update_rx.sv except for the line marked MUTANT.
// creditloop-mutant: replaces=update_rx.sv
// creditloop-mutant: class=running totals compared without modular arithmetic
// creditloop-mutant: source=seed 003
// creditloop-mutant: expect=recovery
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
  assign fits             = update_total >= accepted_total && limit_sum <= LW'(B);   // MUTANT: was limit_sum <= LW'(B)
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
