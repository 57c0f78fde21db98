// MUTANT (bug class: double return), seed 004: "leaks, double returns, counter overflow and
// one-sided resets all break conservation". The pending count is updated for the batch path
// only, pending_total minus K when a batch goes out; the flush path, added later, changed what
// is returned but not what is kept. A flush of a partial batch returns its credits and leaves
// them pending, so they are returned a second time with the next batch or flush: credits are
// created and the buffer eventually overflows.
// Needs K > 1 (with K = 1 nothing is ever left pending) and --flush > 0.
// Caught in the cycle after the first flush of a partial batch: lockstep on
// link.ret.pending_returns and conservation.total ("created"), and conservation.receiver_returns
// as soon as the stale credits go out again. Unlike rx_buffer_pop_unqualified.sv, whose pop port
// itself lies, this is a mutant the receiver_returns check catches.
// Identical to rtl/credit_return.sv except for the marked line.
// creditloop-mutant: replaces=credit_return.sv
// creditloop-mutant: class=double return
// creditloop-mutant: source=seed 004
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
    else        pending <= pending_total - ((pending_total >= CW'(K)) ? CW'(K) : '0);  // BUG: a
                                                         // flush leaves its credits pending
  end
endmodule
