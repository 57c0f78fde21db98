// Copied verbatim from ../shared/seeds/002_e8024006d7a6805e.txt (section 11, lines 96-126, SystemVerilog counter); unchanged apart from this line.
// Representative link-credit counter (educational).
// A credit == one free slot in the receiver's buffer. Send ONLY when credits > 0;
// decrement on every send; increment on every credit return. The count must exactly
// track free slots, or the sender can oversend and overflow the receiver's buffer.
module chi_credit_counter #(parameter MAXC = 8) (
  input  logic                     clk, rst_n,
  input  logic                     credit_return,   // receiver freed a slot
  input  logic                     want_send,       // sender has a flit to send
  input  logic [$clog2(MAXC+1)-1:0] init_credits,   // granted at reset (<= buffer cap)
  output logic                     can_send,        // a credit is available
  output logic                     do_send,         // a flit is actually transmitted
  output logic [$clog2(MAXC+1)-1:0] credits
);
  logic [$clog2(MAXC+1)-1:0] cr_q;
  assign credits  = cr_q;
  assign can_send = (cr_q != 0);
  assign do_send  = want_send && can_send;   // never send without a credit
 
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      cr_q <= init_credits;
    end else begin
      // +1 on a return, -1 on a send; both can occur in the same cycle.
      case ({credit_return, do_send})
        2'b10:   cr_q <= cr_q + 1'b1;   // return only
        2'b01:   cr_q <= cr_q - 1'b1;   // send only  (MUST decrement)
        default: cr_q <= cr_q;          // both or neither: net zero
      endcase
    end
  end
endmodule
