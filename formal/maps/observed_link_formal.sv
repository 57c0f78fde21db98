// observed_link_formal: the formal top for a link of your own (creditloop prove --link MAP). The
// generated testbench top credit_link_observed (your sender and receiver closed into a loop by
// creditloop's pipelines, every observed count kept from the events on their ports; see
// tb/dut/port_map_link.cpp) with every input the map lets vary free in every cycle: the source's
// want_send and tx_payload, the consumer's drain. The rest is tied as the harness ties it for a
// link of your own (no flush, no reverse traffic, no faults).
//
// Both ends are reset in the first cycle (the solver's initial state) and never again. From
// cycle 0 on (the first after the reset), in every cycle, the properties of the project's own
// proof (formal/credit_link_checker.sv), stated on the observation the simulation's scoreboards
// read:
//   p_conservation     credit_total == B: the sender's count + flits on the forward path +
//                      occupancy + credits held for return + credits on the return path.
//   p_no_overflow      no flit arrives at a full receiver.
//   p_no_send_at_zero  a flit goes onto the link only with a credit held (ON_ARRIVAL = 1, a
//                      sender that spends a credit in the cycle it arrives: held or arriving).
// The strengthening invariant (INVARIANTS = 1, proved with them):
//   i_exact_sum        the same sum at 32 bits equals B (the observed total is taken in the
//                      count's width, where terms can wrap in a state no reset reaches).
// INVARIANTS = 0 leaves the properties alone, for the bounded searches of counterexamples.
module observed_link_formal #(
  parameter int L = 2,
  parameter int B = 4,
  parameter int W = 2,
  parameter int ON_ARRIVAL = 0,
  parameter int INVARIANTS = 1
) (
  input  logic         clk,
  input  logic         rst_tx_n,
  input  logic         rst_rx_n,
  input  logic         want_send,
  input  logic [W-1:0] tx_payload,
  input  logic         drain
);
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] credits, send_payload, credits_arriving, fwd_flits, occupancy, pop_payload, slots_freeing;
  logic [31:0] pending_returns, return_waiting, credits_returned, return_flight, credit_total;
  logic        can_send, send, update_refused, arrive, pop, overflow, policy_flush, return_message;
  /* verilator lint_on UNUSEDSIGNAL */

  credit_link_observed #(.L(L), .B(B), .K(1), .W(W)) dut (
    .clk, .rst_tx_n, .rst_rx_n, .want_send, .tx_payload, .drain,
    .flush (1'b0), .return_busy (1'b0), .fault_drop (1'b0), .fault_add ('0),
    .credits, .can_send, .send, .send_payload, .credits_arriving, .update_refused, .fwd_flits, .arrive,
    .occupancy, .pop, .pop_payload, .overflow, .slots_freeing, .pending_returns, .policy_flush,
    .return_waiting, .credits_returned, .return_message, .return_flight, .credit_total
  );

  // The reset: both ends in the first cycle, never again.
  always @* begin
    if ($initstate) assume (!rst_tx_n && !rst_rx_n);
    else assume (rst_tx_n && rst_rx_n);
  end

  localparam int CW = $clog2(B + 1);
  localparam int FLW = $clog2(L + 1);
  localparam int TW = ((CW > FLW) ? CW : FLW) + 3;   // the observed total's width (observation.h)
  logic [31:0] exact_sum, spendable;
  assign exact_sum = 32'(credits[CW-1:0]) + 32'(fwd_flits[FLW-1:0]) + 32'(occupancy[CW-1:0]) +
                     32'(pending_returns[CW-1:0]) + 32'(return_flight[CW-1:0]);
  assign spendable = 32'(credits[CW-1:0]) + (ON_ARRIVAL != 0 ? 32'(credits_arriving[CW-1:0]) : 32'd0);

  always @* begin
    if (!$initstate) begin
      p_conservation: assert (credit_total[TW-1:0] == TW'(B));
      p_no_overflow: assert (!overflow);
      p_no_send_at_zero: assert (!(send && spendable == 32'd0));
      if (INVARIANTS != 0) begin
        i_exact_sum: assert (exact_sum == 32'(B));
      end
    end
  end

  // The credits move: the sender is spent (for the vacuity check of a proof).
  always @* if (!$initstate) c_credits_exhausted: cover (credits[CW-1:0] == '0);
endmodule
