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
  input  logic                    joining,
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
    assign pending_after = pending + CW'(joining) - released;
    assign timeout = pending != '0 && age >= AW'(TIMEOUT);
    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n)                   age <= '0;
      else if (pending_after == '0) age <= '0;
      else if (age != '1)           age <= age + 1'b1;
    end
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
    assign sender_low   = held >= CW'(B - LOW);
    assign hybrid_flush = idle || sender_low;
    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n)                         free_run <= '0;
      else if (busy)                      free_run <= '0;
      else if (free_run != IW'(IDLE - 1)) free_run <= free_run + 1'b1;
    end
  end else begin : g_batch
    assign hybrid_flush = 1'b0;
  end

  assign flush_out = flush_in || hybrid_flush || timeout;
endmodule
