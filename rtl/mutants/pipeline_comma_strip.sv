// MUTANT (bug class: a stage that loses what it carries on a rare pattern), seed 002: "a lost
// data flit corrupts or loses a line". The designer reused an idle stripper from a SerDes lane:
// a word whose low ten bits are the K28.5 comma (10'b0011111010) is filler and is not loaded
// into stage 0. On the lane the 8b/10b encoder guarantees data never contains a comma, and the
// strip is qualified by the control flag; here the payload is raw 32-bit data and nothing
// qualifies it, so any flit whose payload ends in those ten bits (1 in 1024 random payloads)
// vanishes in stage 0, valid bit and all: the flit and its credit are lost together.
// The credit pipe (WIDTH <= 16) is built without the strip, so only link.fwd is affected.
// Reachable by random traffic: at ~0.7 flits per cycle the first hit is expected after about
// 1,500 cycles and comes within 20,000 cycles for all but ~1e-6 of seeds; cycle 0 or 1 hits only
// for 1 in ~1000 seeds.
// Caught the cycle after the unlucky flit is sent: conservation.total ("lost") and lockstep on
// link.fwd.flits; data.lost follows when the next payload is popped in its place.
// Identical to rtl/pipeline.sv except for the marked lines.
// creditloop-mutant: replaces=pipeline.sv
// creditloop-mutant: class=stage loses its flit on a rare payload pattern
// creditloop-mutant: source=seed 002
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
  logic [WIDTH-1:0] stage_in;

  // Idle stripping, reused from a SerDes lane: a word whose low symbol is the K28.5 comma is
  // link filler, not traffic, so it does not enter the pipeline. Only wide (data) pipes carry
  // symbols; the narrow credit pipe is left alone.
  localparam logic [9:0] COMMA = 10'b0011111010;   // K28.5, RD-
  if (WIDTH > 16) begin : g_idle_strip
    assign stage_in = (in[9:0] == COMMA) ? '0 : in;   // BUG: not qualified by valid / a control
  end else begin : g_no_strip                         // flag: a payload that ends in 0x0FA is
    assign stage_in = in;                             // dropped with its credit
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      for (int i = 0; i < STAGES; i++) stage_q[i] <= '0;
    end else begin
      stage_q[0] <= stage_in;   // BUG: see stage_in
      for (int i = 1; i < STAGES; i++) stage_q[i] <= stage_q[i-1];
    end
  end

  assign out = stage_q[STAGES-1];
  always_comb begin
    for (int i = 0; i < STAGES; i++) stages[i*WIDTH +: WIDTH] = stage_q[i];
  end
endmodule
