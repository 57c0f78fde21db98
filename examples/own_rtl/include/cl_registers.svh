// Register macros in the style of widely used open-source RTL libraries: one line per flop, the
// reset value and polarity in the macro's name. Included by the example counters.
`ifndef CL_REGISTERS_SVH
`define CL_REGISTERS_SVH

// Flop with asynchronous active-low reset.
`define CL_FFARN(q, d, reset_value, clk, rst_ni) \
  always_ff @(posedge (clk) or negedge (rst_ni)) begin \
    if (!(rst_ni)) q <= (reset_value); \
    else           q <= (d); \
  end

// Flop with synchronous active-high reset.
`define CL_FFR(q, d, reset_value, clk, rst) \
  always_ff @(posedge (clk)) begin \
    if (rst) q <= (reset_value); \
    else     q <= (d); \
  end

`endif
