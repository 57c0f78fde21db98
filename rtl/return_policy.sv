// return_policy: when the receiver returns its pending credits at once (link.ret's flush).
//   POLICY = 0  batch: credit_return sends a message per K credits (K = 1: each credit at once);
//               only the flush timeout and the external flush return a partial batch.
//   POLICY = 1  hybrid (seed 000's fix): batch while the return path is busy, but flush the
//               pending credits at once when the return path is idle (no reverse traffic for the
//               last IDLE cycles, this one included) or when the sender runs low (the receiver's
//               bound on the sender's credits, B minus every credit the receiver holds, is at
//               most LOW).
//   TIMEOUT > 0 a credit never waits more than TIMEOUT cycles for its batch: a batch whose
//               oldest credit has waited TIMEOUT cycles is flushed (PCIe bounds the time between
//               flow-control updates the same way). 0 turns the timeout off.
// Ports:
//   busy       reverse traffic holds the return slot in this cycle.
//   held       credits at the receiver at the start of this cycle (buffer, late free, batch and
//              port): the sender holds at most B - held of them.
//   pending    credit_return's batch at the start of this cycle; joining, released: this cycle's
//              credits joining it and leaving it (to time the oldest credit's wait).
//   flush_in   the link's flush input; flush_out = flush_in or this policy's decision.
// Timing: every decision uses this cycle's busy and start-of-cycle counts; flush_out acts in the
// same cycle. Invariant: flush_out only returns credits earlier, it never adds any.
// Assertions (Verilator --assert, checked at every rising edge out of reset):
//   a_flush_in_passes        flush_in always reaches flush_out.
//   a_batch_flushes_alone    POLICY = 0: flush_out is flush_in or the timeout, nothing else.
//   a_wait_within_timeout    TIMEOUT > 0: while credits are pending, the oldest has waited
//                            1 .. TIMEOUT cycles (it is flushed in the cycle it reaches TIMEOUT).
//   a_idle_is_free           POLICY = 1: the idle flush is never decided in a busy cycle, and the
//                            free run never counts past IDLE - 1.
// (That a flush returns only pending credits is credit_return's a_returns_only_held.)
// Covers (named for a --coverage-user report):
//   cover_timeout_flush      TIMEOUT > 0: the timeout fires (a batch waited TIMEOUT cycles).
//   cover_timeout_alone      TIMEOUT > 0: the timeout flushes a batch nothing else would have.
//   cover_idle_flush         POLICY = 1: the idle return path flushes pending credits.
//   cover_sender_low_flush   POLICY = 1: the sender-low bound flushes pending credits on a busy
//                            return path.
// Ports a parameter set does not use (the clock with neither hybrid nor timeout, busy and held
// without the hybrid) are left unconnected inside by design.
/* verilator lint_off UNUSEDSIGNAL */
module return_policy #(
  parameter int B = 4,
  parameter int POLICY = 0,
  parameter int LOW = 0,
  parameter int IDLE = 1,
  parameter int TIMEOUT = 0
) (
  input  logic                    clk,
  input  logic                    rst_n,
  input  logic                    busy,
  input  logic [$clog2(B+1)-1:0]  held,
  input  logic [$clog2(B+1)-1:0]  pending,
  input  logic [$clog2(B+1)-1:0]  joining,
  input  logic [$clog2(B+1)-1:0]  released,
  input  logic                    flush_in,
  output logic                    flush_out
);
/* verilator lint_on UNUSEDSIGNAL */
  localparam int CW = $clog2(B + 1);

  // The oldest pending credit's wait: cycles since the batch last went from empty to non-empty.
  logic timeout;
  if (TIMEOUT > 0) begin : g_timeout
    localparam int AW = $clog2(TIMEOUT + 2);
    logic [AW-1:0] age;
    logic [CW-1:0] pending_after;
    assign pending_after = pending + joining - released;
    assign timeout = pending != '0 && age >= AW'(TIMEOUT);
    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n)                   age <= '0;
      else if (pending_after == '0) age <= '0;
      else if (age != '1)           age <= age + 1'b1;
    end

`ifndef SYNTHESIS
    /* verilator lint_off SYNCASYNCNET */
    a_wait_within_timeout: assert property (@(posedge clk) disable iff (!rst_n)
        pending == '0 || (age != '0 && int'(age) <= TIMEOUT))
      else $error("return_policy: a credit waits at most TIMEOUT cycles: pending %0d, oldest waited %0d, TIMEOUT %0d",
                  pending, age, TIMEOUT);
    /* verilator lint_on SYNCASYNCNET */
`endif
  end else begin : g_no_timeout
    assign timeout = 1'b0;
  end

  // Hybrid: the return path's free run (cycles without reverse traffic before this one, up to
  // IDLE - 1) and the sender's credits as far as the receiver can bound them.
  logic hybrid_flush;
  if (POLICY == 1) begin : g_hybrid
    localparam int IW = $clog2(IDLE + 1);
    logic [IW-1:0] free_run;
    logic          idle, sender_low;
    assign idle         = !busy && free_run == IW'(IDLE - 1);
    // The sender may hold B - held credits or fewer: low once that is at most LOW. With LOW = B
    // it always is (and the compare would be a constant, which Verilator refuses).
    if (LOW >= B) begin : g_always_low
      assign sender_low = 1'b1;
    end else begin : g_low_bound
      assign sender_low = held >= CW'(B - LOW);
    end
    assign hybrid_flush = idle || sender_low;
    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n)                         free_run <= '0;
      else if (busy)                      free_run <= '0;
      else if (free_run != IW'(IDLE - 1)) free_run <= free_run + 1'b1;
    end

`ifndef SYNTHESIS
    /* verilator lint_off SYNCASYNCNET */
    a_idle_is_free: assert property (@(posedge clk) disable iff (!rst_n)
        !(idle && busy) && int'(free_run) <= IDLE - 1)
      else $error("return_policy: an idle flush needs a free return path: idle %0d, busy %0d, free run %0d, IDLE %0d",
                  idle, busy, free_run, IDLE);
    cover_idle_flush: cover property (@(posedge clk) disable iff (!rst_n)
        idle && pending != '0);
    cover_sender_low_flush: cover property (@(posedge clk) disable iff (!rst_n)
        sender_low && busy && pending != '0);
    /* verilator lint_on SYNCASYNCNET */
`endif
  end else begin : g_batch
    assign hybrid_flush = 1'b0;
  end

  assign flush_out = flush_in || hybrid_flush || timeout;

`ifndef SYNTHESIS
  // The checker samples rst_n on the clock; the lint note about mixing that with the async
  // resets above is about synthesis, not about this checker.
  /* verilator lint_off SYNCASYNCNET */
  a_flush_in_passes: assert property (@(posedge clk) disable iff (!rst_n)
      !flush_in || flush_out)
    else $error("return_policy: the external flush is never dropped: flush_in %0d, flush_out %0d", flush_in, flush_out);
  a_batch_flushes_alone: assert property (@(posedge clk) disable iff (!rst_n)
      POLICY != 0 || flush_out == (flush_in || timeout))
    else $error("return_policy: the batch policy flushes only on flush_in or the timeout: flush_out %0d, flush_in %0d, timeout %0d",
                flush_out, flush_in, timeout);
  if (TIMEOUT > 0) begin : g_timeout_covers
    cover_timeout_flush: cover property (@(posedge clk) disable iff (!rst_n)
        timeout);
    cover_timeout_alone: cover property (@(posedge clk) disable iff (!rst_n)
        timeout && !flush_in && !hybrid_flush);
  end
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
