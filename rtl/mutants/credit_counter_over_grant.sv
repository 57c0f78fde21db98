// MUTANT (bug class: over-grant at reset), seed 002: "Credits <= capacity. The receiver never
// grants more credits than it has buffer slots". The reset loads init_credits + 1: the designer
// counted the last forward stage, which holds an arriving flit for a cycle, as one more slot.
// The sender starts with B + 1 credits, so one flit too many can be in the loop:
// conservation.total ("created") and lockstep on link.sender.credits fire in cycle 0, and the
// surplus flit overflows the buffer once the consumer falls behind.
// When B = 2^n - 1 the count is n bits wide and B + 1 wraps to 0: the link starts with no credit
// at all (still caught in cycle 0, as 'lost'). Any configuration shows it.
// Identical to rtl/credit_counter.sv except for the marked line.
// creditloop-mutant: replaces=credit_counter.sv
// creditloop-mutant: class=over-grant at reset
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
  assign next_credits = {1'b0, credits} + (CW + 1)'(credit_return) - {{CW{1'b0}}, do_send};

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) credits <= init_credits + 1'b1;   // BUG: grants one credit more than B
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
