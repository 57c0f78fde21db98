// A valid/ready-style credit counter in the manner of open-source credit libraries: the count
// changes by several credits in one cycle (an increment and a decrement, each with a valid), a
// decrement is accepted only when enough credits are available (decr_ready), part of the count
// can be withheld, and the reset is synchronous and active high. Not written to creditloop's
// contract: vr_counter.map.json maps it.
//
//   incr_valid, incr        credits come back this cycle
//   decr_valid, decr        credits are asked for; taken when decr_ready
//   decr_ready              available >= decr
//   withhold                credits held back from `available`
//   initial_value           the count after reset
//   value, available        the count, and what may be spent (value - withhold)
`include "cl_registers.svh"

module vr_credit_counter #(
  parameter int MaxValue  = 8,
  parameter int MaxChange = 1,
  parameter int ValueWidth  = $clog2(MaxValue + 1),
  parameter int ChangeWidth = $clog2(MaxChange + 1)
) (
  input  logic                   clk,
  input  logic                   rst,
  input  logic                   incr_valid,
  input  logic [ChangeWidth-1:0] incr,
  input  logic                   decr_valid,
  input  logic [ChangeWidth-1:0] decr,
  output logic                   decr_ready,
  input  logic [ValueWidth-1:0]  withhold,
  input  logic [ValueWidth-1:0]  initial_value,
  output logic [ValueWidth-1:0]  value,
  output logic [ValueWidth-1:0]  available
);
  logic [ValueWidth-1:0] value_next;

  assign available  = value - withhold;
  assign decr_ready = available >= decr;

  always_comb begin
    value_next = value;
    if (incr_valid) value_next = value_next + incr;
    if (decr_valid && decr_ready) value_next = value_next - decr;
  end

  `CL_FFR(value, value_next, initial_value, clk, rst)
endmodule
