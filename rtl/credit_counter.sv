// credit_counter: the sender's credit count (link.sender).
//
// Ports follow seed 002's chi_credit_counter, so a counter written to that seed drops in
// unchanged; the one extension is that credit_return may be a count (RETURN_WIDTH bits)
// instead of a single bit, so a batch of K credits lands in one cycle.
//   clk, rst_n     rising-edge clock, asynchronous active-low reset.
//   init_credits   the grant, loaded while rst_n is low (must not exceed MAXC).
//   credit_return  credits reaching the sender in this cycle; they count from the next cycle.
//   want_send      the sender has a flit to send in this cycle.
//   can_send       combinational: credits != 0.
//   do_send        combinational: want_send && can_send; the credit is spent at the next edge.
//   credits        the count at the start of this cycle.
// Timing: one update per cycle, credits <= credits - do_send + credit_return, so a credit that
// arrives in cycle t can be spent in cycle t + 1.
// Invariant: 0 <= credits <= init_credits <= MAXC; the two ways to break it (a send at zero
// credits, a count that climbs past the grant) are assertions under Verilator --assert.
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
  assign next_credits = {1'b0, credits} + (CW + 1)'(credit_return) - {{CW{1'b0}}, do_send};

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
