// credit_link_observed: the testbench top the harness drives. It wraps a credit_link, passes its
// functional ports through, and brings out what the bound credit_link_probe observes inside it,
// so the harness has one port per observed signal (cpp_models/observed_signals.def) while the
// design itself has only its functional ports.
//
// Parameters: those of credit_link, passed down unchanged (RECOVERY, TOTAL_BITS and RESEND
// included). Ports: credit_link's functional ports (the fault inputs fault_drop and fault_add
// with them, right after return_busy), then the observation (see credit_link_probe.sv and
// credit_link.sv for their timing); return_message and update_refused follow credits_returned.
module credit_link_observed #(
  parameter int L = 4,
  parameter int B = 12,
  parameter int K = 1,
  parameter int W = 32,
  parameter int SYNC = 0,
  parameter int FREE_DELAY = 0,
  parameter int FULL_RATE = 0,
  parameter int POLICY = 0,
  parameter int LOW = 0,
  parameter int IDLE = 1,
  parameter int TIMEOUT = 0,
  parameter int RECOVERY = 0,
  parameter int TOTAL_BITS = 8,
  parameter int RESEND = 16
) (
  input  logic                    clk,
  input  logic                    rst_tx_n,
  input  logic                    rst_rx_n,
  input  logic                    want_send,
  input  logic [W-1:0]            tx_payload,
  input  logic                    drain,
  input  logic                    flush,
  input  logic                    return_busy,
  input  logic                    fault_drop,
  input  logic [15:0]             fault_add,
  output logic                    can_send,
  output logic                    send,
  output logic [W-1:0]            send_payload,
  output logic                    pop,
  output logic [W-1:0]            pop_payload,
  // the observation, from the probe bound into the design
  output logic [$clog2(B+1)-1:0]  credits,
  output logic [$clog2(B+1)-1:0]  credits_arriving,
  output logic [$clog2(L+1)-1:0]  fwd_flits,
  output logic                    arrive,
  output logic [$clog2(B+1)-1:0]  occupancy,
  output logic                    overflow,
  output logic [$clog2(B+1)-1:0]  slots_freeing,
  output logic [$clog2(B+1)-1:0]  pending_returns,
  output logic                    policy_flush,
  output logic [$clog2(B+1)-1:0]  return_waiting,
  output logic [$clog2(B+1)-1:0]  credits_returned,
  output logic                    return_message,
  output logic                    update_refused,
  output logic [$clog2(B+1)-1:0]  return_flight,
  output logic [(($clog2(B+1) > $clog2(L+1)) ? $clog2(B+1) : $clog2(L+1)) + 2:0] credit_total
);
  localparam int CW = $clog2(B + 1);
  localparam int TW = ((CW > $clog2(L + 1)) ? CW : $clog2(L + 1)) + 3;
  // The one-pool link's masks are one bit; a netlist written by yosys (scripts/mutation.py)
  // declares a one-bit wire without a range, so each is read whole into a [0:0] first.
  logic [0:0] can_send_n, overflow_n, policy_flush_n, return_message_n, update_refused_n;
  /* verilator lint_off PINCONNECTEMPTY */
  credit_link #(.L(L), .B(B), .K(K), .W(W), .SYNC(SYNC), .FREE_DELAY(FREE_DELAY), .FULL_RATE(FULL_RATE),
                .POLICY(POLICY), .LOW(LOW), .IDLE(IDLE), .TIMEOUT(TIMEOUT), .RECOVERY(RECOVERY),
                .TOTAL_BITS(TOTAL_BITS), .RESEND(RESEND)) dut (
    .clk, .rst_tx_n, .rst_rx_n,
    .have (want_send), .bytes (16'd1), .tag (tx_payload), .drain, .flush, .return_busy,
    .fault_drop, .fault_corrupt (1'b1), .fault_add,
    .grant (), .eligible (), .send, .send_lane (), .send_payload, .pop, .pop_payload
  );
  /* verilator lint_on PINCONNECTEMPTY */

  assign can_send_n       = dut.can_send;
  assign can_send         = can_send_n[0];
  assign credits          = CW'(dut.credits[15:0]);
  assign credits_arriving = CW'(dut.credits_arriving[15:0]);
  assign fwd_flits        = $clog2(L + 1)'(dut.fwd_flits[15:0]);
  assign arrive           = dut.arrive;
  assign occupancy        = CW'(dut.occupancy[15:0]);
  assign overflow_n       = dut.overflow;
  assign overflow         = overflow_n[0];
  assign slots_freeing    = CW'(dut.slots_freeing[15:0]);
  assign pending_returns  = CW'(dut.pending_returns[15:0]);
  assign policy_flush_n   = dut.policy_flush;
  assign policy_flush     = policy_flush_n[0];
  assign return_waiting   = CW'(dut.return_waiting[15:0]);
  assign credits_returned = CW'(dut.credits_returned[15:0]);
  assign return_message_n = dut.return_message;
  assign return_message   = return_message_n[0];
  assign update_refused_n = dut.update_refused;
  assign update_refused   = update_refused_n[0];
  assign return_flight    = CW'(dut.return_flight[15:0]);
  assign credit_total     = TW'(dut.u_probe.credit_total[17:0]);
endmodule
