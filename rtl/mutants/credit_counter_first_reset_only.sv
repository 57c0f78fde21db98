// MUTANT (bug class: reset that takes effect only the first time), seed 004's "one-sided
// reset". The grant is loaded by the first reset only: the designer meant a later (warm) reset
// of the link not to hand out credits "that may still be in flight", but a reset clears the
// forward path, the buffer and the return path too, so every credit in flight at the time of
// the reset is lost for ever (or, if the count was below B only because of flits the reset
// dropped, the count is simply wrong). The first reset after power-on behaves normally, so a
// run with a single reset at the start passes.
// NEEDS A MID-RUN RESET OF BOTH ENDS (--reset-every N) while credits are away from the sender.
// In the cycle of that reset the model's sender holds B credits again and this one holds what
// it held before: lockstep on link.sender.credits and conservation.total ("lost", B - credits),
// e.g. cycle 4999 with --L 3 --B 8 --K 3 ... --reset-every 4999. A reset while the link is idle
// (all B credits at the sender) shows nothing. A sender-only reset (--reset-sender-at) is
// already flagged for the original counter (conservation.one_sided_reset), so it does not tell
// this mutant apart.
// Identical to rtl/credit_counter.sv except for the marked lines.
// creditloop-mutant: replaces=credit_counter.sv
// creditloop-mutant: class=reset that only the first time takes effect
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
  assign next_credits = {1'b0, credits} + (CW + 1)'(credit_return) - {{CW{1'b0}}, do_send};

  // Set by the first reset and never cleared: a power-on initial value, as FPGA flows allow.
  logic grant_loaded = 1'b0;   // BUG: nothing resets it

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      if (!grant_loaded) credits <= init_credits;   // BUG: a later reset keeps the old count
      grant_loaded <= 1'b1;
    end else begin
      credits <= next_credits[CW-1:0];
    end
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
