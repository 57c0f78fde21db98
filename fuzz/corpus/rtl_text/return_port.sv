// return_port: the receiver's access to a return path it shares with reverse traffic (link.ret).
//   released   credits the return logic lets go in this cycle.
//   busy       reverse traffic holds the return slot in this cycle: no credit message can go.
//   sent       combinational: credits sent on the return path in this cycle, as one message.
//   waiting    credits released earlier that still wait for a free slot, at the start of the cycle.
// Timing: with the slot free, released credits go in the cycle they are released (busy tied low
// makes the port a wire, and the link's timing is seed 001's). In a busy cycle they wait, and
// every waiting credit leaves together, in one message carrying their count, in the first free
// cycle (seed 000: "credit messages wait behind other traffic"). Reverse traffic has priority.
// Invariant: waiting is 0 after every free cycle; no credit is created or dropped here.
// Assertions (Verilator --assert, checked at every rising edge out of reset):
//   a_busy_sends_nothing      busy: sent == 0 (reverse traffic has priority).
//   a_free_cycle_sends_all    free: sent == waiting + released (everything ready leaves at once).
//   a_waiting_clear_after_free_cycle  after a free cycle, waiting == 0.
// The bound waiting <= B holds only while the link carries B credits (a reset of the sender end
// alone breaks that on purpose), so the link asserts it (a_return_waiting_within_b, in the probe
// bound into credit_link, rtl/observe/credit_link_probe.sv), with the conservation sum.
// Covers (named for a --coverage-user report):
//   cover_credits_wait        credits are released in a busy cycle and wait for a free one.
//   cover_waiting_sent        credits that waited leave in a free cycle.
module return_port #(
  parameter int B = 4
) (
  input  logic                    clk,
  input  logic                    rst_n,
  input  logic [$clog2(B+1)-1:0]  released,
  input  logic                    busy,
  output logic [$clog2(B+1)-1:0]  sent,
  output logic [$clog2(B+1)-1:0]  waiting
);
  localparam int CW = $clog2(B + 1);

  logic [CW-1:0] ready;

  assign ready = waiting + released;
  assign sent  = busy ? '0 : ready;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) waiting <= '0;
    else        waiting <= ready - sent;
  end

`ifndef SYNTHESIS
  // Whether the cycle that the last edge ended was free (no reverse traffic).
  logic was_free_q;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) was_free_q <= 1'b0;
    else        was_free_q <= !busy;
  end

  // The checker samples rst_n on the clock; the lint note about mixing that with the async
  // reset above is about synthesis, not about this checker.
  /* verilator lint_off SYNCASYNCNET */
  a_busy_sends_nothing: assert property (@(posedge clk) disable iff (!rst_n)
      !busy || sent == '0)
    else $error("return_port: reverse traffic has priority: sent %0d in a busy cycle", sent);
  a_free_cycle_sends_all: assert property (@(posedge clk) disable iff (!rst_n)
      busy || sent == CW'(waiting + released))
    else $error("return_port: a free cycle sends every waiting credit: sent %0d of waiting %0d + released %0d",
                sent, waiting, released);
  a_waiting_clear_after_free_cycle: assert property (@(posedge clk) disable iff (!rst_n)
      !was_free_q || waiting == '0)
    else $error("return_port: waiting is 0 after every free cycle: waiting %0d", waiting);

  cover_credits_wait: cover property (@(posedge clk) disable iff (!rst_n)
      busy && released != '0);
  cover_waiting_sent: cover property (@(posedge clk) disable iff (!rst_n)
      !busy && waiting != '0);
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
