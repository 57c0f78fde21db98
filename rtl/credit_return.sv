// credit_return: the receiver's credit-return logic (link.ret).
//   freed      a slot was freed in this cycle (the consumer popped a flit).
//   flush      return everything pending now, batch full or not.
//   returned   combinational: credits put on the return path in this cycle.
//   pending    credits freed but not yet returned, at the start of this cycle.
// Timing: a credit freed in cycle t joins the batch in cycle t; when that makes K pending the
// whole batch of K is returned in the same cycle (K = 1 returns each credit the cycle its slot
// is freed, seed 001); otherwise it waits (seed 000: with B not a multiple of K up to K - 1
// credits can be stranded here).
// Invariant: pending < K after every cycle without flush; credits are never created: the total
// returned never exceeds the total freed.
module credit_return #(
  parameter int B = 4,
  parameter int K = 1
) (
  input  logic                    clk,
  input  logic                    rst_n,
  input  logic                    freed,
  input  logic                    flush,
  output logic [$clog2(B+1)-1:0]  returned,
  output logic [$clog2(B+1)-1:0]  pending
);
  localparam int CW = $clog2(B + 1);

  logic [CW-1:0] pending_total;

  assign pending_total = pending + CW'(freed);
  assign returned      = flush                     ? pending_total :
                         (pending_total >= CW'(K)) ? CW'(K)        : '0;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) pending <= '0;
    else        pending <= pending_total - returned;
  end
endmodule
