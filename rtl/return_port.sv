// return_port: the receiver's access to a return path it shares with reverse traffic (link.ret).
//   released   credits the return logic lets go in this cycle.
//   busy       reverse traffic holds the return slot in this cycle: no credit message can go.
//   sent       combinational: credits sent on the return path in this cycle, as one message.
//   waiting    credits released earlier that still wait for a free slot, at the start of the cycle.
// Timing: with the slot free, released credits go in the cycle they are released (busy tied low
// makes the port a wire, and the link's timing is seed 001's). In a busy cycle they wait, and
// every waiting credit leaves together, in one message carrying their count, in the first free
// cycle (seed 000: "credit messages wait behind other traffic"). Reverse traffic has priority.
// Invariant: waiting is 0 after every free cycle; no credit is created or dropped here.
module return_port #(
  parameter int B = 4
) (
  input  logic                    clk,
  input  logic                    rst_n,
  input  logic [$clog2(B+1)-1:0]  released,
  input  logic                    busy,
  output logic [$clog2(B+1)-1:0]  sent,
  output logic [$clog2(B+1)-1:0]  waiting
);
  localparam int CW = $clog2(B + 1);

  logic [CW-1:0] ready;

  assign ready = waiting + released;
  assign sent  = busy ? '0 : ready;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) waiting <= '0;
    else        waiting <= ready - sent;
  end
endmodule
