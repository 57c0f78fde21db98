// credit_return: the receiver's credit-return logic (link.ret).
//   freed      slots freed in this cycle (the consumer popped flits: one at most on a lane of
//              its own, several when lanes share the pool; FREED_WIDTH bits).
//   flush      return everything pending now, batch full or not.
//   returned   combinational: credits put on the return path in this cycle.
//   pending    credits freed but not yet returned, at the start of this cycle.
// Timing: a credit freed in cycle t joins the batch in cycle t; when that makes K or more
// pending the whole batch is returned in the same cycle (exactly K when at most one slot is
// freed a cycle) (K = 1 returns each credit the cycle its slot
// is freed, seed 001); otherwise it waits (seed 000: with B not a multiple of K up to K - 1
// credits can be stranded here).
// Invariant: pending < K after every cycle without flush; credits are never created: the total
// returned never exceeds the total freed.
// Assertions (Verilator --assert, checked at every rising edge out of reset):
//   a_pending_below_k      pending < K (a flush leaves 0 pending, so this holds after every cycle).
//   a_returns_only_held    returned <= pending + freed: no credit is returned that was not freed.
//   a_flush_returns_all    with flush, returned == pending + freed.
//   a_batch_of_k           without flush, returned is everything pending once K are, else 0.
//   a_keeps_the_rest       pending == the total freed minus the total returned since reset
//                          (a running count of its own): no credit created or dropped here.
// Covers (named for a --coverage-user report):
//   cover_full_batch_returned     a batch of K credits is returned.
//   cover_partial_batch_flushed   a flush with 1 .. K - 1 credits pending (only when K > 1).
//   g_returned[n].cover_returned  n credits returned at once, for every n in 1 .. K (n < K only
//                                 by a flush; one cover per size, named by the loop's index).
module credit_return #(
  parameter int B = 4,
  parameter int K = 1,
  parameter int FREED_WIDTH = 1
) (
  input  logic                    clk,
  input  logic                    rst_n,
  input  logic [FREED_WIDTH-1:0]  freed,
  input  logic                    flush,
  output logic [$clog2(B+1)-1:0]  returned,
  output logic [$clog2(B+1)-1:0]  pending
);
  localparam int CW = $clog2(B + 1);

  logic [CW-1:0] pending_total;

  assign pending_total = pending + CW'(freed);
  assign returned      = flush                     ? pending_total :
                         (pending_total >= CW'(K)) ? pending_total : '0;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) pending <= '0;
    else        pending <= pending_total - returned;
  end

`ifndef SYNTHESIS
  // Freed minus returned since reset, counted apart from pending, one bit wider so a return of
  // more than was freed shows as a value below zero would: a huge count, not a wrap to a small one.
  logic [CW:0] owed_q;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) owed_q <= '0;
    else        owed_q <= owed_q + (CW + 1)'(freed) - (CW + 1)'(returned);
  end

  // The checker samples rst_n on the clock; the lint note about mixing that with the async
  // reset above is about synthesis, not about this checker.
  /* verilator lint_off SYNCASYNCNET */
  a_pending_below_k: assert property (@(posedge clk) disable iff (!rst_n)
      int'(pending) < K)
    else $error("credit_return: pending below K unless flushed: pending %0d >= K %0d", pending, K);
  a_returns_only_held: assert property (@(posedge clk) disable iff (!rst_n)
      int'(returned) <= int'(pending) + int'(freed))
    else $error("credit_return: returned never exceeds what was freed: returned %0d > pending %0d + freed %0d",
                returned, pending, freed);
  a_flush_returns_all: assert property (@(posedge clk) disable iff (!rst_n)
      !flush || int'(returned) == int'(pending) + int'(freed))
    else $error("credit_return: a flush returns everything pending: returned %0d of pending %0d + freed %0d",
                returned, pending, freed);
  a_batch_of_k: assert property (@(posedge clk) disable iff (!rst_n)
      flush || int'(returned) == ((int'(pending) + int'(freed) >= K) ? int'(pending) + int'(freed) : 0))
    else $error("credit_return: without a flush the whole batch leaves once K are pending: returned %0d with pending %0d + freed %0d, K %0d",
                returned, pending, freed, K);
  a_keeps_the_rest: assert property (@(posedge clk) disable iff (!rst_n)
      (CW + 1)'(pending) == owed_q)
    else $error("credit_return: no credit created or dropped: pending %0d, but freed - returned since reset = %0d",
                pending, $signed(owed_q));

  cover_full_batch_returned: cover property (@(posedge clk) disable iff (!rst_n)
      int'(returned) == K);
  if (K > 1) begin : g_partial
    cover_partial_batch_flushed: cover property (@(posedge clk) disable iff (!rst_n)
        flush && pending_total != '0 && int'(pending_total) < K);
  end
  for (genvar n = 1; n <= K; n++) begin : g_returned
    cover_returned: cover property (@(posedge clk) disable iff (!rst_n)
        int'(returned) == n);
  end
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
