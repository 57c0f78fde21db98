// Copied verbatim from ../shared/seeds/002_e8024006d7a6805e.txt (section 11, lines 130-151, Verilog-2001 counter); unchanged apart from this line.
// Representative link-credit counter (Verilog-2001).
module chi_credit_counter #(parameter MAXC = 8, parameter CW = 4) (
  input  wire          clk, rst_n, credit_return, want_send,
  input  wire [CW-1:0] init_credits,
  output wire          can_send, do_send,
  output wire [CW-1:0] credits
);
  reg [CW-1:0] cr_q;
  assign credits  = cr_q;
  assign can_send = (cr_q != {CW{1'b0}});
  assign do_send  = want_send & can_send;
 
  always @(posedge clk or negedge rst_n) begin
    if (!rst_n)
      cr_q <= init_credits;
    else if (credit_return & ~do_send)
      cr_q <= cr_q + 1'b1;              // return only
    else if (~credit_return & do_send)
      cr_q <= cr_q - 1'b1;              // send only (decrement!)
    // both or neither: net zero, hold
  end
endmodule
