// MUTANT (bug class: a batch that never flushes), seed 000: "return any pending credits
// immediately when the sender is running low or the return path is idle, so batching never
// starves the sender". The flush is written inside the full-batch test instead of around it:
// "when the batch is ready, send it, all of it if flushing". A full batch already goes out on
// its own, so flush never changes anything: a partial batch waits for its K-th credit, and with
// B not a multiple of K up to K - 1 credits stay stranded however often flush is asserted.
// Conservation still holds (the credits are only late); the lockstep scoreboard catches it on
// the first flush with a partial batch pending (link.ret.credits_returned, then
// link.ret.pending). Invisible with K = 1 (no partial batches) or without --flush.
// Identical to rtl/credit_return.sv except for the marked line.
// creditloop-mutant: replaces=credit_return.sv
// creditloop-mutant: class=a batch that never flushes
// creditloop-mutant: source=seed 000
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
  assign returned      = (pending_total >= CW'(K)) ? (flush ? pending_total : CW'(K))  // BUG: flush
                                                 : '0;                                // only if full

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) pending <= '0;
    else        pending <= pending_total - returned;
  end
endmodule
