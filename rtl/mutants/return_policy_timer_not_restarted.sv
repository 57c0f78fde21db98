// MUTANT (bug class: flush timer not restarted), PCIe's flow-control update timer: the timeout
// must measure how long the oldest pending credit has waited. Here the timer is restarted only
// by a flush, not when a full batch leaves on its own, so after a full batch the next credit
// inherits the old batch's age and is flushed early, a partial message the timeout never asked
// for. No credit is lost (conservation holds); the lockstep scoreboard catches the early flush
// (link.ret.policy_flush, then credits_returned). Invisible without TIMEOUT or with K = 1.
// Identical to rtl/return_policy.sv except for the marked line.
// creditloop-mutant: replaces=return_policy.sv
// creditloop-mutant: class=flush timer not restarted
// creditloop-mutant: source=seed 000 (PCIe update timer)
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
      else if (flush_out)           age <= '0;   // MUTATION: was pending_after == '0
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
