// pipeline: STAGES register stages of WIDTH bits (link.fwd carries {valid, payload}; link.ret
// carries a credit count).
//   in       value entering stage 0 at the next rising edge.
//   out      the last stage: what leaves the pipeline in this cycle.
//   stages   observation: stage i at [i*WIDTH +: WIDTH], stage 0 first.
// Timing: a value presented in cycle t is on `out` in cycle t + STAGES.
// Invariant: every value is delivered exactly once, in order; reset clears every stage to 0
// (a stage of zeros carries no flit and no credit).
module pipeline #(
  parameter int STAGES = 4,
  parameter int WIDTH  = 1
) (
  input  logic                      clk,
  input  logic                      rst_n,
  input  logic [WIDTH-1:0]          in,
  output logic [WIDTH-1:0]          out,
  output logic [STAGES*WIDTH-1:0]   stages
);
  logic [WIDTH-1:0] stage_q [STAGES];

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      for (int i = 0; i < STAGES; i++) stage_q[i] <= '0;
    end else begin
      stage_q[0] <= in;
      for (int i = 1; i < STAGES; i++) stage_q[i] <= stage_q[i-1];
    end
  end

  assign out = stage_q[STAGES-1];
  always_comb begin
    for (int i = 0; i < STAGES; i++) stages[i*WIDTH +: WIDTH] = stage_q[i];
  end
endmodule
