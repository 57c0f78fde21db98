// A credit-based sender as an engineer writes one, with only its functional ports: a
// valid/ready input from upstream, a valid-only output onto the link (credits stand in for
// ready), and credits coming back as a valid and a count. Not creditloop's link: link.map.json
// tells creditloop which port is which.
//
//   s_valid/s_ready/s_data   upstream: a flit is taken when both are high
//   m_valid/m_data           the flit goes onto the link in the same cycle
//   crd_valid/crd_cnt        credits back from the receiver (any number in one cycle)
//   crd_avail                credits held (the count, exposed for monitoring)
module cbfc_tx #(
  parameter int CREDITS = 8,
  parameter int DW      = 32,
  parameter int CW      = $clog2(CREDITS + 1)
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          s_valid,
  output logic          s_ready,
  input  logic [DW-1:0] s_data,
  output logic          m_valid,
  output logic [DW-1:0] m_data,
  input  logic          crd_valid,
  input  logic [CW-1:0] crd_cnt,
  output logic [CW-1:0] crd_avail
);
  logic [CW-1:0] avail_q;

  assign s_ready   = avail_q != '0;
  assign m_valid   = s_valid && s_ready;
  assign m_data    = s_data;
  assign crd_avail = avail_q;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) avail_q <= CW'(CREDITS);
    else        avail_q <= avail_q - CW'(m_valid) + (crd_valid ? crd_cnt : '0);
  end

  // The sender never holds more credits than the receiver has slots.
  always_ff @(posedge clk) begin
    if (rst_n) begin
      a_credits_bounded: assert (avail_q <= CW'(CREDITS))
        else $error("cbfc_tx: %0d credits held, more than CREDITS = %0d", avail_q, CREDITS);
    end
  end
endmodule
