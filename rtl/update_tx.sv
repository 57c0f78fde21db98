// update_tx: the receiver end of the recovery protocol (link.ret with RECOVERY = 1, seed 003;
// docs/recovery.md): instead of counts, cumulative credit updates in the style of PCIe's
// UpdateFC. It replaces return_port: the credits credit_return releases are added to a running
// total, and the return path carries that total, so a lost update is made good by the next one.
//   released        credits the return logic lets go in this cycle (as into return_port).
//   busy            reverse traffic holds the return slot in this cycle (or, on a path shared by
//                   several pools, another pool has it): no update can go.
//   wanted          combinational: an update is wanted this cycle (news, or the resend is due),
//                   whether or not the slot is free; a shared path's round-robin reads it.
//   update_valid    combinational: an update enters the return path in this cycle.
//   update_total    combinational: the total it carries, CR' (0 when no update goes).
//   sent            combinational: the credits the update newly covers, CR' - CS (0 for a pure
//                   resend, and when no update goes), in count bits (credits_returned).
//   waiting         CR - CS at the start of the cycle: released earlier, in no update yet
//                   (return_waiting).
//   released_total  CR, credits released so far (modulo 2^TOTAL_BITS), start of the cycle.
//   sent_total      CS, the total carried by the last update sent, start of the cycle.
// Registers CR, CS and quiet (cycles since the last update, saturating at RESEND - 1) reset to 0.
// Timing: CR' = CR + released. An update is wanted if CR' != CS (news) or quiet == RESEND - 1
// (the periodic resend, RESEND cycles after the last update); if wanted and the slot is free it
// goes this cycle carrying CR', and at the edge CS <= CR', quiet <= 0; otherwise quiet counts
// up and what is wanted waits. With the slot free, released credits leave in the cycle they are
// released, as through return_port: the link's timing and throughput are unchanged.
// Invariant: CS never passes CR (CR - CS = waiting, the credits not yet in any update, at most
// B in a whole loop); waiting is 0 after every free cycle; quiet <= RESEND - 1.
// Assertions (Verilator --assert, checked at every rising edge out of reset):
//   a_busy_sends_nothing      busy: no update (reverse traffic has priority).
//   a_sends_news              free and CR' != CS: an update goes.
//   a_periodic_resend         free and RESEND - 1 or more cycles since the last update (counted
//                             by the checker, apart from quiet): an update goes.
//   a_only_when_wanted        an update goes only with news or when the resend is due.
//   a_update_carries_released an update carries CR', the total released so far, this cycle's
//                             credits included.
//   a_quiet_within_resend     quiet <= RESEND - 1.
//   a_waiting_clear_after_free_cycle  after a free cycle, waiting == 0 (CR == CS).
// The bound waiting <= B needs the whole loop, so the link asserts it (the probe's
// a_return_waiting_within_b).
// Covers (named for a --coverage-user report):
//   cover_periodic_resend     a resend carrying nothing new goes.
//   cover_update_waits        news waits behind reverse traffic.
//   cover_total_wraps         the running total wraps past 2^TOTAL_BITS.
module update_tx #(
  parameter int B = 4,
  parameter int TOTAL_BITS = 8,
  parameter int RESEND = 16
) (
  input  logic                    clk,
  input  logic                    rst_n,
  input  logic [$clog2(B+1)-1:0]  released,
  input  logic                    busy,
  output logic                    wanted,
  output logic                    update_valid,
  output logic [TOTAL_BITS-1:0]   update_total,
  output logic [$clog2(B+1)-1:0]  sent,
  output logic [$clog2(B+1)-1:0]  waiting,
  output logic [TOTAL_BITS-1:0]   released_total,
  output logic [TOTAL_BITS-1:0]   sent_total
);
  localparam int CW = $clog2(B + 1);
  localparam int NW = TOTAL_BITS;
  localparam int QW = (RESEND > 1) ? $clog2(RESEND) : 1;

  if (NW < CW) $error("update_tx: TOTAL_BITS = %0d, need TOTAL_BITS >= %0d (the count's width, B = %0d)", NW, CW, B);
  if (RESEND < 1) $error("update_tx: RESEND = %0d, need RESEND >= 1", RESEND);

  logic [NW-1:0] next_total;     // CR'
  logic [QW-1:0] quiet;
  logic          news, resend_due;

  assign next_total   = released_total + NW'(released);
  assign news         = next_total != sent_total;
  assign resend_due   = quiet == QW'(RESEND - 1);
  assign wanted       = news || resend_due;
  assign update_valid = wanted && !busy;
  assign update_total = update_valid ? next_total : '0;
  assign sent         = update_valid ? CW'(next_total - sent_total) : '0;
  assign waiting      = CW'(released_total - sent_total);

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      released_total <= '0;
      sent_total     <= '0;
      quiet          <= '0;
    end else begin
      released_total <= next_total;
      if (update_valid) begin
        sent_total <= next_total;
        quiet      <= '0;
      end else if (!resend_due) begin
        quiet      <= quiet + 1'b1;
      end
    end
  end

`ifndef SYNTHESIS
  // The checker's own count of cycles since the last update (or the reset), saturating at
  // RESEND: kept apart from quiet, so the resend is checked against the time, not the register.
  localparam int GW = $clog2(RESEND + 1);
  logic [GW-1:0] gap_q;
  logic          was_free_q;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      gap_q      <= '0;
      was_free_q <= 1'b0;
    end else begin
      gap_q      <= update_valid ? '0 : (gap_q == GW'(RESEND)) ? gap_q : gap_q + 1'b1;
      was_free_q <= !busy;
    end
  end

  // The checker samples rst_n on the clock; the lint note about mixing that with the async
  // reset above is about synthesis, not about this checker.
  /* verilator lint_off SYNCASYNCNET */
  a_busy_sends_nothing: assert property (@(posedge clk) disable iff (!rst_n)
      !busy || !update_valid)
    else $error("update_tx: reverse traffic has priority: an update (total %0d) in a busy cycle", update_total);
  a_sends_news: assert property (@(posedge clk) disable iff (!rst_n)
      busy || released_total + NW'(released) == sent_total || update_valid)
    else $error("update_tx: a free cycle sends news: released total %0d, last sent %0d, no update",
                released_total + NW'(released), sent_total);
  a_periodic_resend: assert property (@(posedge clk) disable iff (!rst_n)
      busy || int'(gap_q) < RESEND - 1 || update_valid)
    else $error("update_tx: an update every RESEND = %0d cycles: %0d cycles since the last one, slot free, none sent",
                RESEND, gap_q);
  a_only_when_wanted: assert property (@(posedge clk) disable iff (!rst_n)
      !update_valid || released_total + NW'(released) != sent_total || int'(gap_q) >= RESEND - 1)
    else $error("update_tx: an update only with news or when the resend is due: %0d cycles since the last, nothing new",
                gap_q);
  a_update_carries_released: assert property (@(posedge clk) disable iff (!rst_n)
      !update_valid || update_total == released_total + NW'(released))
    else $error("update_tx: an update carries the total released: total %0d, released total %0d + %0d",
                update_total, released_total, released);
  a_quiet_within_resend: assert property (@(posedge clk) disable iff (!rst_n)
      int'(quiet) <= RESEND - 1)
    else $error("update_tx: quiet %0d > RESEND - 1 = %0d", quiet, RESEND - 1);
  a_waiting_clear_after_free_cycle: assert property (@(posedge clk) disable iff (!rst_n)
      !was_free_q || released_total == sent_total)
    else $error("update_tx: nothing waits after a free cycle: released total %0d, last sent %0d",
                released_total, sent_total);

  cover_periodic_resend: cover property (@(posedge clk) disable iff (!rst_n)
      update_valid && sent == '0);
  cover_update_waits: cover property (@(posedge clk) disable iff (!rst_n)
      busy && news);
  cover_total_wraps: cover property (@(posedge clk) disable iff (!rst_n)
      next_total < released_total);
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
