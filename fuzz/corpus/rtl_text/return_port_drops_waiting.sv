// MUTANT (bug class: credit message lost behind reverse traffic), seed 000: "the return path is
// shared and credit messages wait behind other traffic". The port was written for one busy
// cycle at a time: in a busy cycle it keeps only the credits released in that cycle, so when
// reverse traffic holds the slot two cycles running, what waited from the first is overwritten.
// The credits are gone for good: conservation.total sees the loop shrink at the edge where they
// were dropped. Invisible without reverse load (busy never set) or when busy never repeats.
// Identical to rtl/return_port.sv except for the marked line.
// creditloop-mutant: replaces=return_port.sv
// creditloop-mutant: class=credit message lost behind reverse traffic
// creditloop-mutant: source=seed 000
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
    else        waiting <= busy ? released : '0;   // MUTATION: was ready - sent
  end
endmodule
