// A credit-based sender with a FIFO of its own in front of its credit check, as many link
// layers are built: the source's flits are taken while the FIFO has room, whatever the credits,
// and the head goes onto the link once a credit is held. The FIFO is registered: a flit taken
// in cycle t is at the head from t + 1 (fifo_sender.map.json says so: "sender_fifo_latency": 1).
//
//   in_valid/in_ready/in_data   upstream: a flit is taken when both are high (in_ready: room)
//   tx_valid/tx_data            the FIFO's head onto the link, when a credit is held
//   credit_valid/credit_count   credits back from the receiver (any number in one cycle)
//   credits_held                credits held (exposed for monitoring)
module fifo_tx #(
  parameter int Credits   = 8,
  parameter int FifoDepth = 4,
  parameter int Width     = 32,
  localparam int CW = $clog2(Credits + 1),
  localparam int PW = $clog2(FifoDepth),
  localparam int FW = $clog2(FifoDepth + 1)
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [Width-1:0] in_data,
  output logic             tx_valid,
  output logic [Width-1:0] tx_data,
  input  logic             credit_valid,
  input  logic [CW-1:0]    credit_count,
  output logic [CW-1:0]    credits_held
);
  logic [Width-1:0] mem_q [FifoDepth];
  logic [PW-1:0]    rd_q, wr_q;
  logic [FW-1:0]    fill_q;
  logic [CW-1:0]    credits_q;
  logic             push, pop;

  assign in_ready     = fill_q != FW'(FifoDepth);
  assign push         = in_valid && in_ready;
  assign tx_valid     = fill_q != '0 && credits_q != '0;
  assign pop          = tx_valid;
  assign tx_data      = mem_q[rd_q];
  assign credits_held = credits_q;

  function automatic logic [PW-1:0] next(logic [PW-1:0] p);
    return p == PW'(FifoDepth - 1) ? '0 : p + 1'b1;
  endfunction

  always_ff @(posedge clk) if (push) mem_q[wr_q] <= in_data;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      rd_q      <= '0;
      wr_q      <= '0;
      fill_q    <= '0;
      credits_q <= CW'(Credits);
    end else begin
      if (push) wr_q <= next(wr_q);
      if (pop)  rd_q <= next(rd_q);
      fill_q    <= fill_q + FW'(push) - FW'(pop);
      credits_q <= credits_q - CW'(pop) + (credit_valid ? credit_count : '0);
    end
  end

  // The sender never holds more credits than the receiver has slots.
  always_ff @(posedge clk) begin
    if (rst_n) begin
      a_credits_bounded: assert (credits_q <= CW'(Credits))
        else $error("fifo_tx: %0d credits held, more than Credits = %0d", credits_q, Credits);
    end
  end
endmodule
