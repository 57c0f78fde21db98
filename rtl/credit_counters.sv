// credit_counters: the sender's counters, one credit_counter per pool (link.sender).
//
// Its own block so that a design holding every channel's counter in one module (CHI's per-channel
// credit array, a per-virtual-channel sender's counters) takes this block's place as one unit,
// through a map of its per-channel ports (docs/own-rtl.md); a counter of one pool takes
// credit_counter's place inside it.
//   clk, rst_n         rising-edge clock, asynchronous active-low reset (the sender end's).
//   credits_arriving   per pool p, [p*16 +: 16]: the credits reaching the sender this cycle.
//   want               per pool p, [p*17 +: 17]: the credits the granted packet asks of pool p
//                      (TAKE_BITS = 1: one bit, one credit a packet; else a count).
//   do_send[p]         combinational: pool p's counter spends what is asked at the next edge.
//   can_send[p]        combinational: pool p has a credit.
//   credits            per pool p, [p*16 +: 16]: its count at the start of this cycle.
//   flit, flit_lane, flit_payload   the flit the link's arbiter puts on the link this cycle;
//   send, send_lane, send_payload   the flit launched onto the forward link: here the same, passed
//                      on (a sender of your own that owns the flit mux launches its own).
// Each pool p starts from POOL_B[p*16 +: 16] credits at reset.
module credit_counters #(
  parameter int NPOOL = 1,
  parameter logic [16*16-1:0] POOL_B = {16{16'd12}},
  parameter int TAKE_BITS = 1,
  parameter int W = 32
) (
  input  logic               clk,
  input  logic               rst_n,
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [NPOOL*16-1:0] credits_arriving,   // the high bits of each pool's: never more than B
  input  logic [NPOOL*17-1:0] want,               // the same: a packet never asks more than B
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [NPOOL-1:0]    do_send,
  output logic [NPOOL-1:0]    can_send,
  output logic [NPOOL*16-1:0] credits,
  input  logic               flit,
  input  logic [7:0]         flit_lane,
  input  logic [W-1:0]       flit_payload,
  output logic               send,
  output logic [7:0]         send_lane,
  output logic [W-1:0]       send_payload
);
  assign send         = flit;
  assign send_lane    = flit_lane;
  assign send_payload = flit_payload;

  for (genvar p = 0; p < NPOOL; p++) begin : g_sender
    localparam int BP = 32'(POOL_B[p*16 +: 16]);
    localparam int CWP = $clog2(BP + 1);
    localparam int TWP = (TAKE_BITS == 1) ? 1 : CWP;
    logic [CWP-1:0] count, arriving;
    assign arriving = CWP'(credits_arriving[p*16 +: 16]);   // the credits coming home this cycle
    credit_counter #(.MAXC(BP), .RETURN_WIDTH(CWP), .TAKE_WIDTH(TWP)) u_counter (
      .clk,
      .rst_n,
      .credit_return (arriving),
      .want_send     (TWP'(want[p*17 +: 17])),
      .init_credits  (CWP'(BP)),
      .can_send      (can_send[p]),
      .do_send       (do_send[p]),
      .credits       (count)
    );
    assign credits[p*16 +: 16] = 16'(count);
  end
endmodule
