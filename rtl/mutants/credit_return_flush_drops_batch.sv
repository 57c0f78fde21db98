// MUTANT (bug class: a dropped credit-return message), seed 000's flush ("return any pending
// credits immediately"). The designer sized the flush count like the pending count it usually
// carries, a partial batch of fewer than K credits: $clog2(K) bits. That holds in every cycle
// but one: when the flush lands in the very cycle the K-th credit of a batch is freed,
// pending + freed = K, which needs one bit more. For K a power of two, K truncates to 0: the
// return message carries no credit, and the flush empties the batch, so all K credits are lost
// for ever (the same flush with a correct count would return the whole batch).
// ONLY VISIBLE WITH K A POWER OF TWO, K >= 2 (--K 2, 4, 8 ...; with K = 3 the two bits hold 3)
// and --flush > 0; needs a flush and a batch filling in the same cycle.
// Caught on that cycle: conservation.total ("lost", K credits) and lockstep on
// link.ret.credits_returned.
// Identical to rtl/credit_return.sv except for the marked lines; the pending update was also
// rewritten as "a flush empties the batch", which is what the original does too (it returns
// pending_total on a flush), so that line alone changes nothing.
// creditloop-mutant: replaces=credit_return.sv
// creditloop-mutant: class=dropped credit-return message
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

  localparam int FW = (K > 1) ? $clog2(K) : 1;   // BUG: a flush "carries fewer than K"

  logic [CW-1:0] pending_total;
  logic [FW-1:0] flush_count;

  assign pending_total = pending + CW'(freed);
  assign flush_count   = FW'(pending_total);   // BUG: K (a batch filling as we flush) wraps to 0
  assign returned      = flush                     ? CW'(flush_count) :
                         (pending_total >= CW'(K)) ? CW'(K)        : '0;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n)     pending <= '0;
    else if (flush) pending <= '0;   // a flush empties the batch
    else            pending <= pending_total - returned;
  end
endmodule
