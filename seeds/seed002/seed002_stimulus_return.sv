// Seed 002's testbench stimulus for credit returns, as a return-logic block: it drives
// `credit_return = ($time % 30 == 15)` after each rising edge, that is one credit in every third
// cycle from the first cycle after reset (cycles 1, 4, 7, ...), whatever the receiver freed.
// Written to rtl/credit_return.sv's contract so creditloop can drive seed 002's counter with
// seed 002's own stimulus (creditloop run --counter ... --return this file):
//   creditloop flags "credit returned with none outstanding" (conservation.receiver_returns) at
//   cycle 1, the first cycle it happens. Not a design: a stimulus in the shape of one.
module seed002_stimulus_return #(
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
  logic [1:0] phase;   // cycles since reset, modulo 3

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) phase <= 2'd0;
    else        phase <= (phase == 2'd2) ? 2'd0 : phase + 2'd1;
  end

  assign returned = (phase == 2'd1) ? 1 : 0;
  assign pending  = '0;

  // The seed's stimulus ignores what the receiver freed and any flush; K shapes nothing here.
  wire unused = freed ^ flush ^ (K > 0);
endmodule
