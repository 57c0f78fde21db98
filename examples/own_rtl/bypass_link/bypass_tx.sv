// A credit sender that spends a returning credit in the cycle it arrives: the count coming back
// is added to its ready straight away (a bypass), not only after it has been registered. Many
// published senders do this to save a cycle of round trip: 2L + 1 plus whatever the receiver
// adds, where a registered count gives 2L + 2. bypass_link.map.json says so to creditloop
// ("credits_on_arrival": true), so the golden model spends on arrival too.
//
//   valid_i/ready_o/data_i   upstream: a flit is taken when both are high
//   valid_o/data_o           the flit goes onto the link in the same cycle
//   credit_i                 credits back from the receiver this cycle (a count, 0 when none)
//   credits_o                credits held (registered)
module bypass_tx #(
  parameter int NUM_CREDITS = 8,
  parameter int WIDTH       = 32,
  localparam int CW         = $clog2(NUM_CREDITS + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             valid_i,
  output logic             ready_o,
  input  logic [WIDTH-1:0] data_i,
  output logic             valid_o,
  output logic [WIDTH-1:0] data_o,
  input  logic [CW-1:0]    credit_i,
  output logic [CW-1:0]    credits_o
);
  logic [CW-1:0] credits_q;

  assign ready_o   = (credits_q != '0) || (credit_i != '0);   // the bypass
  assign valid_o   = valid_i && ready_o;
  assign data_o    = data_i;
  assign credits_o = credits_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) credits_q <= CW'(NUM_CREDITS);
    else         credits_q <= credits_q + credit_i - CW'(valid_o);
  end
endmodule
