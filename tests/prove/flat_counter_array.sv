// A test design for creditloop prove: every channel's credit counter in one module, written with
// flat ports as Verilog-2001 libraries write them (channel c is bits [c*CountW +: CountW] of a
// port), the form yosys 0.23 reads (it takes no packed array of two dimensions). Per channel c:
// a take of take_i's slice credits when take_valid_i[c] and take_ready_o[c], give_i's slice
// credits back, init_i's slice loaded at reset, count_o's slice the count.
module flat_counter_array #(
  parameter int NumChannels = 2,
  parameter int MaxCredits  = 8,
  localparam int CountW = $clog2(MaxCredits + 1)
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [NumChannels-1:0]        take_valid_i,
  input  logic [NumChannels*CountW-1:0] take_i,
  output logic [NumChannels-1:0]        take_ready_o,
  input  logic [NumChannels*CountW-1:0] give_i,
  input  logic [NumChannels*CountW-1:0] init_i,
  output logic [NumChannels*CountW-1:0] count_o
);
  for (genvar c = 0; c < NumChannels; c++) begin : g_channel
    logic [CountW-1:0] count_q;
    logic [CountW:0] next;
    assign take_ready_o[c] = count_q >= take_i[c*CountW +: CountW];
    always_comb begin
      next = {1'b0, count_q};
      if (take_valid_i[c] && take_ready_o[c]) next = next - {1'b0, take_i[c*CountW +: CountW]};
      next = next + {1'b0, give_i[c*CountW +: CountW]};
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) count_q <= init_i[c*CountW +: CountW];
      else         count_q <= next[CountW-1:0];
    end
    assign count_o[c*CountW +: CountW] = count_q;
  end
endmodule
