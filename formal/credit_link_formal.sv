// credit_link_formal: the formal top (scripts/formal.py, docs/formal.md). One credit_link with
// every input free, the checker bound into it (credit_link_checker.sv), and the environment's
// assumptions: the resets and the fault inputs.
//
// Every input is free in every cycle: want_send, tx_payload, drain, flush, return_busy (and
// fault_drop with FAULT_DROP = 1). fault_add is tied to 0.
// Resets, RESETS:
//   0  proof: both ends are reset in the first cycle and never again.
//   1  one-sided, the sender end: both reset in the first cycle, then rst_tx_n free, rst_rx_n high.
//   2  one-sided, the receiver end: both reset in the first cycle, then rst_rx_n free, rst_tx_n high.
//   3  whole-link resets: both reset in the first cycle, then both free but always together (a
//      reset of the link in the middle of traffic, which must keep every credit).
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
  parameter int FAULT_DROP = 0
) (
  input  logic          clk,
  input  logic          rst_tx_n,
  input  logic          rst_rx_n,
  input  logic          want_send,
  input  logic [W-1:0]  tx_payload,
  input  logic          drain,
  input  logic          flush,
  input  logic          return_busy,
  input  logic          fault_drop
);
  /* verilator lint_off UNUSEDSIGNAL */
  logic         grant, eligible, send, pop;
  logic [7:0]   send_lane;
  logic [W-1:0] send_payload, pop_payload;
  /* verilator lint_on UNUSEDSIGNAL */

  // One channel of one-credit flits, one lane, one pool: the seeds' link (credit_link's defaults).
  credit_link #(.L(L), .B(B), .K(K), .W(W), .SYNC(SYNC), .FREE_DELAY(FREE_DELAY), .POLICY(POLICY), .LOW(LOW),
                .IDLE(IDLE), .TIMEOUT(TIMEOUT), .RECOVERY(RECOVERY), .TOTAL_BITS(TOTAL_BITS),
                .RESEND(RESEND)) dut (
    .clk, .rst_tx_n, .rst_rx_n, .have (want_send), .bytes (16'd1), .tag (tx_payload), .drain, .flush,
    .return_busy, .fault_drop, .fault_corrupt (1'b0), .fault_add (16'd0),
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
    if (FAULT_DROP == 0) assume (!fault_drop);
  end
endmodule
