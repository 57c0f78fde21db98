// MUTANT (bug class: if/else-if leak), seed 004's listing: the counter is written as
//     if (send) credits--;  else if (crd_in) credits++;
// so in a cycle where the sender sends AND credits come back, the returned credits are dropped.
// Each such cycle loses credit_return credits for ever; throughput degrades gracefully until
// fewer credits than the round trip remain, and nothing else is wrong. The conservation
// scoreboard catches the first lost credit on the cycle it is lost (conservation.total, "lost").
// Needs a send and a return in the same cycle: any traffic that keeps the sender busy when
// credits come back. With --L 2 --B 4 --K 1 and saturate traffic it is seed 004's trace: the
// credit back in cycle 5 is spent in cycle 6 as the next one arrives; cycle 7 shows the loss.
// Identical to rtl/credit_counter.sv except for the marked lines: the single update
// credits - do_send + credit_return became an if / else if.
// creditloop-mutant: replaces=credit_counter.sv
// creditloop-mutant: class=if/else-if leak
// creditloop-mutant: source=seed 004
module credit_counter #(
  parameter int MAXC         = 8,
  parameter int RETURN_WIDTH = $clog2(MAXC + 1)
) (
  input  logic                       clk,
  input  logic                       rst_n,
  input  logic [RETURN_WIDTH-1:0]    credit_return,
  input  logic                       want_send,
  input  logic [$clog2(MAXC+1)-1:0]  init_credits,
  output logic                       can_send,
  output logic                       do_send,
  output logic [$clog2(MAXC+1)-1:0]  credits
);
  localparam int CW = $clog2(MAXC + 1);

  // One bit wider than the count, so a count driven past the grant (or below zero) is visible
  // to the assertion instead of wrapping silently.
  logic [CW:0] next_credits;

  assign can_send     = (credits != '0);
  assign do_send      = want_send && can_send;
  always_comb begin
    if (do_send)                  next_credits = {1'b0, credits} - 1'b1;   // BUG: a credit
    else if (credit_return != '0) next_credits = {1'b0, credits} +        // BUG: arriving with
                                                 (CW + 1)'(credit_return); // a send is lost
    else                          next_credits = {1'b0, credits};
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) credits <= init_credits;
    else        credits <= next_credits[CW-1:0];
  end

`ifndef SYNTHESIS
  // Seed 002's properties, checked every cycle out of reset. The checker samples rst_n on the
  // clock, which is what it should do; the lint note about mixing that with the async reset
  // above is about synthesis, not about this checker.
  /* verilator lint_off SYNCASYNCNET */
  a_no_send_without_credit: assert property (@(posedge clk) disable iff (!rst_n)
      !(do_send && credits == '0))
    else $error("credit_counter: send with zero credits");
  a_within_grant: assert property (@(posedge clk) disable iff (!rst_n)
      next_credits <= {1'b0, init_credits})
    else $error("credit_counter: count %0d would exceed the grant %0d", next_credits, init_credits);
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
