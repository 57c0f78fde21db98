// credit_link_formal: the formal top (scripts/formal.py, docs/formal.md). One credit_link with
// every input free, the checker bound into it (credit_link_checker.sv), and the environment's
// assumptions: the resets and the fault inputs.
//
// The link's shape is credit_link's own parameters, passed through: with their defaults one
// channel of one-credit flits, one lane, one pool (the seeds' link); set NCH, NLANE, NPOOL,
// MULTI_CREDIT, SHARED_RET and the tables for channels, header/data pools, shared pools and a
// shared return path (credit_link.sv's header says what each means).
//
// Every input is free in every cycle: per channel have, bytes, tag and drain; per pool flush;
// per return path return_busy (and per pool fault_drop with FAULT_DROP = 1). fault_corrupt and
// fault_add are tied to 0. bytes is free too: a packet the pools cannot hold is never eligible.
// Resets, RESETS:
//   0  proof: both ends are reset in the first cycle and never again.
//   1  one-sided, the sender end: both reset in the first cycle, then rst_tx_n free, rst_rx_n high.
//   2  one-sided, the receiver end: both reset in the first cycle, then rst_rx_n free, rst_tx_n high.
//   3  whole-link resets: both reset in the first cycle, then both free but always together (a
//      reset of the link in the middle of traffic, which must keep every credit).
// ONE_AT_A_TIME = 1 holds flush and return_busy low: with K = 1 credits then come back one a
// cycle, all a counter with a one-bit credit_return takes (creditloop prove on such a counter).
// The first cycle (the reset) is the solver's initial state; cycle 0 of the waves is the next.
// An asynchronous reset is modelled by yosys's async2sync: in a cycle with the reset low, that
// end's registers read their reset values, and hold them at the next edge.
module credit_link_formal #(
  parameter int L = 2,
  parameter int B = 4,
  parameter int K = 1,
  parameter int W = 2,
  parameter int SYNC = 0,
  parameter int FREE_DELAY = 0,
  parameter int POLICY = 0,
  parameter int LOW = 0,
  parameter int IDLE = 1,
  parameter int TIMEOUT = 0,
  parameter int RECOVERY = 0,
  parameter int TOTAL_BITS = 8,
  parameter int RESEND = 16,
  parameter int RESETS = 0,
  parameter int FAULT_DROP = 0,
  parameter int ONE_AT_A_TIME = 0,   // 1: flush and return_busy held low, so credits come back one a cycle (K = 1)
  parameter int NCH = 1,
  parameter int NLANE = 1,
  parameter int NPOOL = 1,
  parameter int MULTI_CREDIT = 0,
  parameter int SHARED_RET = 0,
  parameter logic [8*8-1:0]   CH_LANE = '0,
  parameter logic [7:0]       CH_SPLIT = '0,
  parameter logic [8*16-1:0]  CH_UNIT = {8{16'd1}},
  parameter logic [16*8-1:0]  LANE_CH = '0,
  parameter logic [16*8-1:0]  LANE_POOL = '0,
  parameter logic [16*16-1:0] POOL_B = {16{16'(B)}},
  parameter logic [16*16-1:0] POOL_K = {16{16'(K)}},
  localparam int NRET = (SHARED_RET == 1) ? 1 : NPOOL
) (
  input  logic               clk,
  input  logic               rst_tx_n,
  input  logic               rst_rx_n,
  input  logic [NCH-1:0]     have,
  input  logic [NCH*16-1:0]  bytes,
  input  logic [NCH*W-1:0]   tag,
  input  logic [NCH-1:0]     drain,
  input  logic [NPOOL-1:0]   flush,
  input  logic [NRET-1:0]    return_busy,
  input  logic [NPOOL-1:0]   fault_drop
);
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NCH-1:0]     grant, eligible;
  logic               send;
  logic [7:0]         send_lane;
  logic [W-1:0]       send_payload;
  logic [NLANE-1:0]   pop;
  logic [NLANE*W-1:0] pop_payload;
  /* verilator lint_on UNUSEDSIGNAL */

  credit_link #(.L(L), .B(B), .K(K), .W(W), .SYNC(SYNC), .FREE_DELAY(FREE_DELAY), .POLICY(POLICY), .LOW(LOW),
                .IDLE(IDLE), .TIMEOUT(TIMEOUT), .RECOVERY(RECOVERY), .TOTAL_BITS(TOTAL_BITS),
                .RESEND(RESEND), .NCH(NCH), .NLANE(NLANE), .NPOOL(NPOOL), .MULTI_CREDIT(MULTI_CREDIT),
                .SHARED_RET(SHARED_RET), .CH_LANE(CH_LANE), .CH_SPLIT(CH_SPLIT), .CH_UNIT(CH_UNIT),
                .LANE_CH(LANE_CH), .LANE_POOL(LANE_POOL), .POOL_B(POOL_B), .POOL_K(POOL_K)) dut (
    .clk, .rst_tx_n, .rst_rx_n, .have, .bytes, .tag, .drain, .flush,
    .return_busy, .fault_drop, .fault_corrupt ('0), .fault_add (16'd0),
    .grant, .eligible, .send, .send_lane, .send_payload, .pop, .pop_payload
  );

  always @* begin
    if ($initstate) begin
      assume (!rst_tx_n && !rst_rx_n);
    end else begin
      case (RESETS)
        1:       assume (rst_rx_n);
        2:       assume (rst_tx_n);
        3:       assume (rst_tx_n == rst_rx_n);
        default: assume (rst_tx_n && rst_rx_n);
      endcase
    end
    if (FAULT_DROP == 0) assume (fault_drop == '0);
    if (ONE_AT_A_TIME != 0) assume (flush == '0 && return_busy == '0);
  end
endmodule
