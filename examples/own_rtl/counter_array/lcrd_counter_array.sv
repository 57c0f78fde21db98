// lcrd_counter_array: the link-layer credit counters of a CHI-style port, one per channel
// (REQ, RSP, SNP, DAT, ...), in one module with per-channel packed ports.
//
// Per channel c (slice c of every array port, channel 0 in the low bits):
//   take_valid_i[c], take_i[c]   a flit (or a packet of take_i[c] credits) leaves on channel c;
//                                it is taken only when take_ready_o[c] (a valid/ready handshake)
//   take_ready_o[c]              enough credits for take_i[c]
//   give_i[c]                    credits the receiver returns on channel c this cycle (a count)
//   init_i[c]                    the channel's credits, loaded while rst_ni is low
//   count_o[c]                   the channel's credits at the start of this cycle
// The channels share a clock and a reset and nothing else.
module lcrd_counter_array #(
  parameter int NumChannels = 4,
  parameter int MaxCredits  = 15,
  localparam int CountW = $clog2(MaxCredits + 1)
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  input  logic [NumChannels-1:0]                take_valid_i,
  input  logic [NumChannels-1:0][CountW-1:0]    take_i,
  output logic [NumChannels-1:0]                take_ready_o,
  input  logic [NumChannels-1:0][CountW-1:0]    give_i,
  input  logic [NumChannels-1:0][CountW-1:0]    init_i,
  output logic [NumChannels-1:0][CountW-1:0]    count_o
);
  logic [NumChannels-1:0][CountW-1:0] count_q;

  for (genvar c = 0; c < NumChannels; c++) begin : g_channel
    logic [CountW:0] next;
    assign take_ready_o[c] = count_q[c] >= take_i[c];
    always_comb begin
      next = {1'b0, count_q[c]};
      if (take_valid_i[c] && take_ready_o[c]) next = next - {1'b0, take_i[c]};
      next = next + {1'b0, give_i[c]};
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) count_q[c] <= init_i[c];
      else         count_q[c] <= next[CountW-1:0];
    end
`ifndef SYNTHESIS
    // A channel never holds more credits than it was given.
    a_within_init: assert property (@(posedge clk_i) disable iff (!rst_ni) next <= {1'b0, init_i[c]})
      else $error("channel %0d would hold %0d credits, more than its %0d", c, next, init_i[c]);
`endif
  end
  assign count_o = count_q;
endmodule
