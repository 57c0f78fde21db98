// MUTANT (bug class: send at zero credits), seed 002: "Send ONLY when credits > 0 ... never send
// without a credit". The gate is missing: the designer took do_send straight from want_send,
// reasoning that the source already looks at can_send before it asks (a valid/ready source that
// waits for ready). This link's source offers its head flit until it is taken, whether or not
// the sender holds a credit, so the first want_send at zero credits is a send without a credit:
// the count wraps from 0 to 2^CW - 1 and the RTL's own a_no_send_without_credit assertion fires;
// once the consumer falls behind, flits arrive at a full buffer (conservation.overflow).
// Caught on that cycle by conservation.send_at_zero and lockstep on link.sender.send. Needs the
// sender to run out of credits while the source still offers (e.g. saturate, B < 2L + 2).
// Identical to rtl/credit_counter.sv except for the marked line.
// creditloop-mutant: replaces=credit_counter.sv
// creditloop-mutant: class=send at zero credits
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
  assign do_send      = want_send;   // BUG: no && can_send; trusts the source to have waited
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
