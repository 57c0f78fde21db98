// MUTANT (bug class: send lost when a return coincides), the mirror of seed 004's leak, written
// in the style of seed 002's case-statement counter. The designer cases on {returning, sending}
// but writes the return arm with a wildcard, 2'b1?, so the cycle with both (2'b11) falls into it:
// the returned credits are added and the credit spent by the send is forgotten. Each such cycle
// creates one credit; the sender later sends into a full buffer (conservation.overflow) and
// its count climbs past the grant (the RTL's own a_within_grant assertion). Caught on the first
// coincidence by conservation.total ("created") and lockstep on link.sender.credits.
// Needs a send and a return in the same cycle, as seed 004's leak does.
// Identical to rtl/credit_counter.sv except for the marked lines: the single update
// credits - do_send + credit_return became a casez.
// creditloop-mutant: replaces=credit_counter.sv
// creditloop-mutant: class=return and send together counted as a return only
// creditloop-mutant: source=seed 002
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
    casez ({credit_return != '0, do_send})
      2'b1?:   next_credits = {1'b0, credits} + (CW + 1)'(credit_return);  // BUG: 2'b11 lands
                                                                            // here: send forgotten
      2'b01:   next_credits = {1'b0, credits} - 1'b1;
      default: next_credits = {1'b0, credits};
    endcase
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
