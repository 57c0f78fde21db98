// MUTANT (bug class: the periodic resend carries a stale total), seed 003: the resend was meant
// to repeat the last total sent, but it reads a register that lags one update behind (the total
// of the update with news before the last). The sender has accepted the newer total already, so
// the stale one is d = v - R < 0, i.e. more than B modulo 2^TOTAL_BITS, and is refused:
// recovery.refused (no injected fault explains it) and lockstep (link.sender.update_refused),
// and the RTL's own a_update_carries_released. After a dropped update it also fails to recover:
// the resend brings back the older total only, and the dropped credits stay missing.
// Visible only when a resend goes (RESEND cycles without news) after at least two updates.
// Identical to rtl/update_tx.sv except for the lines marked MUTANT.
// creditloop-mutant: replaces=update_tx.sv
// creditloop-mutant: class=periodic resend carries a stale total
// creditloop-mutant: source=seed 003
// creditloop-mutant: expect=recovery
module update_tx #(
  parameter int B = 4,
  parameter int TOTAL_BITS = 8,
  parameter int RESEND = 16
) (
  input  logic                    clk,
  input  logic                    rst_n,
  input  logic [$clog2(B+1)-1:0]  released,
  input  logic                    busy,
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
  logic          news, resend_due, wanted;
  logic [NW-1:0] older_total;   // MUTANT: the total of the update with news before the last one

  assign next_total   = released_total + NW'(released);
  assign news         = next_total != sent_total;
  assign resend_due   = quiet == QW'(RESEND - 1);
  assign wanted       = news || resend_due;
  assign update_valid = wanted && !busy;
  assign update_total = !update_valid ? '0 : news ? next_total : older_total;   // MUTANT: was update_valid ? next_total : '0
  assign sent         = update_valid ? CW'(next_total - sent_total) : '0;
  assign waiting      = CW'(released_total - sent_total);

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      released_total <= '0;
      older_total    <= '0;   // MUTANT: (not in the correct design)
      sent_total     <= '0;
      quiet          <= '0;
    end else begin
      released_total <= next_total;
      if (update_valid && news) older_total <= sent_total;   // MUTANT: (not in the correct design)
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
