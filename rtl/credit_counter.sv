// credit_counter: the sender's credit count (link.sender).
//
// Ports follow seed 002's chi_credit_counter, so a counter written to that seed drops in
// unchanged; the two extensions are that credit_return may be a count (RETURN_WIDTH bits)
// instead of a single bit, so a batch of K credits lands in one cycle, and that want_send may
// be a count (TAKE_WIDTH bits), so a packet takes all its credits in one cycle (TAKE_WIDTH = 1
// is seed 002's one credit per send).
//   clk, rst_n     rising-edge clock, asynchronous active-low reset.
//   init_credits   the grant, loaded while rst_n is low (must not exceed MAXC).
//   credit_return  credits reaching the sender in this cycle; they count from the next cycle.
//   want_send      the credits the sender wants to spend in this cycle (0: none).
//   can_send       combinational: credits != 0.
//   do_send        combinational: want_send != 0 && credits >= want_send; they are spent at the
//                  next edge (with TAKE_WIDTH = 1: want_send && can_send).
//   credits        the count at the start of this cycle.
// Timing: one update per cycle, credits <= credits - spent + credit_return, so a credit that
// arrives in cycle t can be spent in cycle t + 1.
// Invariant: 0 <= credits <= init_credits <= MAXC. The lower bound is the counter's own: it
// never sends at zero credits, so the count never goes below zero. The upper bound also needs
// the other end: it holds while credit_return carries only credits spent since this counter's
// reset, which a reset of the sender end alone breaks on purpose (seed 004's one-sided reset:
// the counter holds B again while credits are still coming back). The counter cannot tell that
// reset from a reset of the whole link, so the link asserts the upper bound (a_credits_within_b,
// in the probe bound into credit_link, rtl/observe/credit_link_probe.sv) while both ends were
// last reset together.
// Assertions (Verilator --assert, checked at every rising edge out of reset):
//   a_no_send_without_credit  do_send only with credits != 0.
//   a_never_below_zero        credits + credit_return - spent >= 0.
//   a_grant_within_maxc       init_credits <= MAXC.
// Covers (named for a --coverage-user report):
//   cover_credits_zero         the sender has no credit left.
//   cover_credits_zero_to_one  a credit comes back to an empty counter (0 -> 1).
//   cover_credits_one_to_zero  the last credit is spent and none comes back (1 -> 0).
//   cover_credits_back_to_full the count climbs back to the grant.
//   cover_send_and_return      a send and a credit return in the same cycle.
//   cover_send_blocked         the source offers a flit and no credit lets it go.
module credit_counter #(
  parameter int MAXC         = 8,
  parameter int RETURN_WIDTH = $clog2(MAXC + 1),
  parameter int TAKE_WIDTH   = 1
) (
  input  logic                       clk,
  input  logic                       rst_n,
  input  logic [RETURN_WIDTH-1:0]    credit_return,
  input  logic [TAKE_WIDTH-1:0]      want_send,
  input  logic [$clog2(MAXC+1)-1:0]  init_credits,
  output logic                       can_send,
  output logic                       do_send,
  output logic [$clog2(MAXC+1)-1:0]  credits
);
  localparam int CW = $clog2(MAXC + 1);

  // One bit wider than the count, so the covers below see the next count reach the grant
  // without it wrapping (a count past the grant is the link's a_credits_within_b).
  logic [CW:0] next_credits;
  logic [CW:0] spent;

  assign can_send     = (credits != '0);
  assign do_send      = want_send != '0 && {1'b0, credits} >= (CW + 1)'(want_send);
  assign spent        = do_send ? (CW + 1)'(want_send) : '0;
  assign next_credits = {1'b0, credits} + (CW + 1)'(credit_return) - spent;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) credits <= init_credits;
    else        credits <= next_credits[CW-1:0];
  end

`ifndef SYNTHESIS
  // Seed 002's properties, checked every cycle out of reset. The checker samples rst_n on the
  // clock, which is what it should do; the lint note about mixing that with the async reset
  // above is about synthesis, not about this checker. The sums are taken as int, so a count
  // driven past either end shows its true value instead of wrapping.
  /* verilator lint_off SYNCASYNCNET */
  a_no_send_without_credit: assert property (@(posedge clk) disable iff (!rst_n)
      !(do_send && credits == '0))
    else $error("credit_counter: no send at zero credits: do_send %0d with credits %0d (want_send %0d)",
                do_send, credits, want_send);
  a_never_below_zero: assert property (@(posedge clk) disable iff (!rst_n)
      int'(credits) + int'(credit_return) >= int'(spent))
    else $error("credit_counter: credits never below zero: credits %0d + returned %0d - spent %0d = %0d",
                credits, credit_return, spent, int'(credits) + int'(credit_return) - int'(spent));
  a_grant_within_maxc: assert property (@(posedge clk) disable iff (!rst_n)
      int'(init_credits) <= MAXC)
    else $error("credit_counter: the grant within MAXC: init_credits %0d > MAXC %0d", init_credits, MAXC);

  cover_credits_zero: cover property (@(posedge clk) disable iff (!rst_n)
      credits == '0);
  cover_credits_zero_to_one: cover property (@(posedge clk) disable iff (!rst_n)
      credits == '0 && next_credits == (CW + 1)'(1));
  cover_credits_one_to_zero: cover property (@(posedge clk) disable iff (!rst_n)
      credits == CW'(1) && next_credits == '0);
  cover_credits_back_to_full: cover property (@(posedge clk) disable iff (!rst_n)
      credits != init_credits && next_credits == {1'b0, init_credits});
  cover_send_and_return: cover property (@(posedge clk) disable iff (!rst_n)
      do_send && credit_return != '0);
  cover_send_blocked: cover property (@(posedge clk) disable iff (!rst_n)
      want_send != '0 && !do_send);
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
