// pipeline: STAGES register stages of WIDTH bits (link.fwd carries {valid, payload}; link.ret
// carries a credit count).
//   in       value entering stage 0 at the next rising edge.
//   out      the last stage: what leaves the pipeline in this cycle.
//   stages   observation: stage i at [i*WIDTH +: WIDTH], stage 0 first.
// Timing: a value presented in cycle t is on `out` in cycle t + STAGES.
// Invariant: every value is delivered exactly once, in order; reset clears every stage to 0
// (a stage of zeros carries no flit and no credit).
// Assertions (Verilator --assert, checked at every rising edge out of reset):
//   a_reset_clears_stages  at the first edge after a reset every stage is 0.
//   a_in_order             out is the value presented STAGES cycles ago, or 0 while the stages
//                          the reset cleared are still draining (compared with a delay line of
//                          the checker's own, not with these registers).
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

`ifndef SYNTHESIS
  // The checker's own delay line: in, as it entered, 1 .. STAGES edges ago (entered_q[i] is
  // i + 1 edges old). Kept apart from stage_q and never reset, so what the stages deliver is
  // compared with what was presented, not with themselves.
  logic [WIDTH-1:0] entered_q [STAGES];
  always_ff @(posedge clk) begin
    entered_q[0] <= in;
    for (int i = 1; i < STAGES; i++) entered_q[i] <= entered_q[i-1];
  end

  // Edges since the last reset, up to STAGES: below STAGES, out still shows a stage the reset
  // cleared, so the expected value is 0.
  localparam int SW = $clog2(STAGES + 1);
  logic [SW-1:0]    since_reset_q;
  logic [WIDTH-1:0] expected_out;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n)                            since_reset_q <= '0;
    else if (since_reset_q != SW'(STAGES)) since_reset_q <= since_reset_q + 1'b1;
  end
  assign expected_out = (since_reset_q == SW'(STAGES)) ? entered_q[STAGES-1] : '0;

  // The checker samples rst_n on the clock; the lint note about mixing that with the async
  // reset above is about synthesis, not about this checker.
  /* verilator lint_off SYNCASYNCNET */
  a_reset_clears_stages: assert property (@(posedge clk) disable iff (!rst_n)
      since_reset_q != '0 || stages == '0)
    else $error("pipeline: reset clears every stage to 0: stages %0h at the first edge after a reset", stages);
  a_in_order: assert property (@(posedge clk) disable iff (!rst_n)
      out == expected_out)
    else $error("pipeline: every value delivered once, in order, %0d cycles later: out %0h, expected %0h (%0d edges since reset)",
                STAGES, out, expected_out, since_reset_q);
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
