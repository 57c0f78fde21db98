// MUTANT of cbfc_rx.sv (its count goes wrong inside): a push and a pop in the same cycle should
// leave the count as it is; here the pop is forgotten, so the FIFO believes it holds one flit more
// than it does. The interfaces show it only later (a stale flit handed out again); a probe of the
// count (link.map.json's "probes") shows it at once.
// The receiver that goes with cbfc_tx: flits from the link into a DEPTH-entry FIFO, a
// valid/ready output to the consumer, and a credit back for every flit the consumer takes, one
// cycle later (a registered valid and count).
module cbfc_rx #(
  parameter int DEPTH = 8,
  parameter int DW    = 32,
  parameter int CW    = $clog2(DEPTH + 1),
  parameter int AW    = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          s_valid,
  input  logic [DW-1:0] s_data,
  output logic          m_valid,
  input  logic          m_ready,
  output logic [DW-1:0] m_data,
  output logic          crd_valid,
  output logic [CW-1:0] crd_cnt
);
  logic [DW-1:0] mem [DEPTH];
  logic [AW-1:0] rd_q, wr_q;
  logic [CW-1:0] count_q;
  logic push, pop;

  assign m_valid = count_q != '0;
  assign m_data  = mem[rd_q];
  assign pop     = m_valid && m_ready;
  assign push    = s_valid && (count_q != CW'(DEPTH) || pop);

  function automatic logic [AW-1:0] next(input logic [AW-1:0] ptr);
    return (ptr == AW'(DEPTH - 1)) ? '0 : ptr + 1'b1;
  endfunction

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      rd_q      <= '0;
      wr_q      <= '0;
      count_q   <= '0;
      crd_valid <= 1'b0;
      crd_cnt   <= '0;
    end else begin
      if (push) begin
        mem[wr_q] <= s_data;
        wr_q      <= next(wr_q);
      end
      if (pop) rd_q <= next(rd_q);
      if (push)     count_q <= count_q + 1'b1;   // MUTANT: a push and a pop in one cycle count as a push
      else if (pop) count_q <= count_q - 1'b1;
      crd_valid <= pop;
      crd_cnt   <= CW'(pop);
    end
  end
endmodule
