// MUTANT (bug class: counter one bit too narrow), seed 004's "counter overflow". The register
// that holds the count is sized like rx_buffer's slot address, $clog2(MAXC) bits (enough for
// 0 .. MAXC - 1), instead of $clog2(MAXC + 1) bits (0 .. MAXC). The ports keep their declared
// widths; only the internal register is narrow.
// ONLY VISIBLE WHEN B IS A POWER OF TWO (1 excepted: the width is floored at one bit, as rx_buffer
// does). Otherwise $clog2(B) == $clog2(B + 1) and this file behaves exactly like the original.
// With B = 2^n the grant B truncates to 0 at reset: the sender starts with no credit and never
// sends (conservation.total "lost" and lockstep on link.sender.credits in cycle 0). Run with
// --B 4 or --B 8; the default B = 12 and the seed configurations with B = 12 never show it.
// Identical to rtl/credit_counter.sv except for the marked lines: the count lives in a narrow
// internal register that drives the credits port.
// creditloop-mutant: replaces=credit_counter.sv
// creditloop-mutant: class=counter too narrow to hold B
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
  localparam int PW = $clog2(MAXC + 1);                   // the ports' width
  localparam int CW = (MAXC > 1) ? $clog2(MAXC) : 1;      // BUG: cannot hold MAXC = 2^n

  logic [CW-1:0] credit_count;                            // BUG: the narrow register

  // One bit wider than the count, so a count driven past the grant (or below zero) is visible
  // to the assertion instead of wrapping silently.
  logic [CW:0] next_credits;

  assign credits      = PW'(credit_count);
  assign can_send     = (credits != '0);
  assign do_send      = want_send && can_send;
  assign next_credits = {1'b0, credit_count} + (CW + 1)'(credit_return) - {{CW{1'b0}}, do_send};

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) credit_count <= CW'(init_credits);        // BUG: MAXC = 2^n truncates to 0
    else        credit_count <= next_credits[CW-1:0];
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
      (PW + 1)'(next_credits) <= {1'b0, init_credits})
    else $error("credit_counter: count %0d would exceed the grant %0d", next_credits, init_credits);
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
