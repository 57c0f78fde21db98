// credit_link: one credit-controlled link, sender to receiver and the credits back.
//
//   sender --[fwd: L stages of {valid, payload}]--> rx_buffer (B slots) --drain-->
//      ^                                                 | freed
//      +------[ret: L stages of a credit count]<---- credit_return (batches of K)
//
// Parameters: L stages each way (>= 1), B receiver slots = credits granted (>= 1), return
// batch K (1 <= K <= B), payload width W, SYNC synchroniser stages that a clock-domain
// crossing adds to the return path (>= 0: a credit reaches the sender SYNC cycles later, and the
// round trip is 2L + 2 + SYNC), FREE_DELAY cycles between a flit leaving the buffer and its slot
// being freed (a late free: the credit starts back FREE_DELAY cycles later; slots_freeing counts
// such slots). FULL_RATE = 1 declares that this instance must carry a
// flit every cycle: elaboration then fails unless B covers the round trip the instance builds
// (seed 001's "lasting fix": the next timing fix cannot silently break the sizing).
// Return policy (return_policy.sv): POLICY = 0 batches of K (K = 1 returns each credit at once),
// POLICY = 1 the hybrid of seed 000 (batch while the return path is busy, flush when it has been
// idle for IDLE cycles or when the sender may hold LOW credits or fewer); TIMEOUT > 0 bounds the
// cycles a credit waits for its batch.
// Recovery (seed 003, docs/recovery.md): RECOVERY = 0 (default) returns counts, as above; with
// RECOVERY = 1 the return path carries cumulative credit updates {valid, total} instead:
// update_tx (replacing return_port) keeps the running total released, CR, and the total last
// sent, CS, and sends an update carrying CR' = CR + released whenever there is news and the slot
// is free, and again every RESEND cycles without one (the periodic resend); update_rx, at the
// sender, keeps the total last accepted, R, and accepts an update v if credits + (v - R) <= B
// (the credit limit), handing d = v - R to the counter. Totals are TOTAL_BITS wide (modulo
// 2^TOTAL_BITS; 2^TOTAL_BITS > 2B, so a stale or duplicated total never looks like new credits).
// A lost update costs time, never credits: the next one accepted carries them. Timing and
// throughput are those of RECOVERY = 0.
// Resets, asynchronous and active low, one per end so a one-sided reset can be tested:
//   rst_tx_n   the sender end: credit counter and forward pipeline.
//   rst_rx_n   the receiver end: buffer, return logic and return pipeline.
//   A link is reset by holding both low across a rising edge; the sender then holds B credits.
// Inputs, all sampled in the cycle they are presented:
//   want_send, tx_payload   the source offers a flit; it leaves if the sender holds a credit.
//   drain                   the consumer takes the head flit this cycle if there is one.
//   flush                   return every pending credit this cycle (as the policy's own flush does).
//   return_busy             reverse traffic holds the shared return slot this cycle: credit
//                           messages wait in return_port (update_tx with recovery) until a
//                           free cycle (tie low: a dedicated return path).
//   fault_drop, fault_add   fault injection, a test hook standing for a corrupted return wire
//                           (tie low in silicon). They act on the message in the last stage of
//                           the return path (the one arriving at the sender this cycle), and
//                           only if there is one (a non-zero count without recovery, a valid
//                           update with it): fault_drop loses it (the sender sees nothing);
//                           otherwise fault_add makes its value larger: without recovery the
//                           count becomes count + fault_add[CW-1:0] truncated to CW bits (no
//                           saturation: it may wrap, even to 0, which then delivers nothing);
//                           with recovery the total becomes total + fault_add[TOTAL_BITS-1:0]
//                           modulo 2^TOTAL_BITS and update_rx then accepts or refuses it.
//                           fault_drop wins over fault_add; fault_add's higher bits are unused.
// Outputs, the functional ones only: can_send and send (the flit in: it leaves the sender this
// cycle, with send_payload), pop and pop_payload (the flit out: the consumer takes it). What the
// scoreboards observe inside the link (credits, occupancy, each path's contents, ...) is read by
// a probe bound into it (rtl/observe/credit_link_probe.sv), by these internal signals' names;
// the testbench top rtl/observe/credit_link_observed.sv brings it out as ports. Counts are the
// state at the start of the cycle; send, arrive, pop, overflow, credits_arriving and
// credits_returned are this cycle's events.
// Timing (seed 001): a flit sent in cycle t arrives in t + L, can be popped in t + L + 1, its
// credit (K = 1) reaches the sender in t + 2L + 1 and is spent again in t + 2L + 2:
// RTT = 2L + 2, throughput min(1, B / RTT) with batches of one.
// With recovery, credits_returned is CR' - CS when an update is sent (the credits it newly
// covers; 0 for a pure resend), return_waiting is CR - CS, credits_arriving is d when an update
// is accepted, and the conservation term return_flight is CS - R (all modulo 2^TOTAL_BITS, in
// the count's CW bits): the invariant below is the same sum in both modes.
// Invariant (checked by the conservation scoreboard, every cycle, and asserted by the probe
// bound into this link, rtl/observe/credit_link_probe.sv, which sees every term of the sum):
//   credits + fwd_flits + occupancy + slots_freeing + pending_returns + return_waiting +
//   return_flight == B.
// The invariant holds from a reset of both ends on. A reset of one end alone breaks it on purpose
// (the harness's one-sided reset tests: the sender counts B again while credits are still at the
// receiver, or the receiver forgets the credits it held), and the break lasts: the credits made or
// lost stay made or lost until both ends are reset together. The scoreboard reports that reset
// (conservation.one_sided_reset); the loop assertions below stand aside from the cycle of a
// one-sided reset until the next reset of both ends, so they never fire on a correct design.
// An injected fault breaks it on purpose too (the credits of a count dropped or enlarged without
// recovery; the credits an enlarged update creates if update_rx accepts it): the loop assertions
// also stand aside from the cycle such a fault hits an arriving message (fault_dropped without
// recovery, or fault_added and the message not refused) until the next reset of both ends. With
// recovery a dropped update (or an enlarged one that is refused) breaks nothing, and the loop
// assertions go on checking: that is the recovery's claim.
// Assertions (Verilator --assert, at every rising edge):
//   while the loop is whole (both ends out of reset for the whole cycle, and both last reset
//   together; never in or after a one-sided reset):
//     a_conservation             the sum above == B.
//     a_credits_within_b         credits <= B (the sender never holds more than the grant).
//     a_return_waiting_within_b  return_waiting <= B.
//     a_no_overflow              no flit arrives at a full buffer.
//   at every edge the end concerned is out of reset (the ports keep the blocks' contracts
//   whichever block drives them: a counter or return logic dropped in with --counter or
//   --return brings no assertions of its own):
//     a_no_send_at_zero          send only with credits != 0.
//     a_no_pop_when_empty        pop only with occupancy != 0.
//     a_flush_reaches_return     flush always raises policy_flush.
//     a_flush_empties_batch      the cycle after policy_flush, pending_returns == 0.
// Covers (named for a --coverage-user report): a reset while credits are away from the sender
// (on the forward path, at the receiver or on the way back):
//   cover_reset_link_in_flight      both ends together (the regression's --reset-every).
//   cover_reset_tx_alone_in_flight  the sender end alone.
//   cover_reset_rx_alone_in_flight  the receiver end alone.
// Those assertions and covers live in the probe; the blocks assert and cover their own
// contracts (see each block's header).
// policy_flush is the flush credit_return sees (the input or the policy's own decision);
// credits_returned is what the return path carries this cycle, one message (0: none).
// Observed signals added by recovery (also driven, constant or as described, with RECOVERY = 0):
//   return_message   a message enters the return path this cycle (credits_returned != 0 without
//                    recovery, an update sent with it).
//   update_refused   an arriving update is refused by the credit limit (0 without recovery).
//   released_total, sent_total, accepted_total   CR, CS and R (0 without recovery).
//   fault_dropped    a message arrives and fault_drop loses it.
//   fault_added      a message arrives, is not dropped, and fault_add changes its value.
module credit_link #(
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
  // link.sender: the flit in
  output logic                    can_send,
  output logic                    send,
  output logic [W-1:0]            send_payload,
  // link.rx: the flit out
  output logic                    pop,
  output logic [W-1:0]            pop_payload
);
  localparam int CW = $clog2(B + 1);

  // The state and events the probe observes (rtl/observe/credit_link_probe.sv binds to these
  // names, and to fwd_stages and ret_stages below); some are read by the probe alone.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [CW-1:0] credits, credits_arriving, occupancy, slots_freeing, pending_returns, return_waiting,
                 credits_returned;
  logic          arrive, overflow, policy_flush;
  logic          return_message, update_refused, fault_dropped, fault_added;
  logic [TOTAL_BITS-1:0] released_total, sent_total, accepted_total;
  /* verilator lint_on UNUSEDSIGNAL */

  // Parameter contract, checked at elaboration.
  if (L < 1) $error("credit_link: L = %0d, need L >= 1", L);
  if (B < 1) $error("credit_link: B = %0d, need B >= 1", B);
  if (K < 1 || K > B) $error("credit_link: K = %0d, need 1 <= K <= B = %0d", K, B);

  // Sizing assertion. The round trip of a credit through this instance: L stages forward, a
  // cycle in the buffer, L stages back, a cycle in the counter (2L + 2), plus up to K - 1 cycles
  // waiting for its batch (seed 000). Any latency added to the loop belongs in ROUND_TRIP.
  localparam int ROUND_TRIP = 2 * L + 2 + SYNC + FREE_DELAY;
  localparam int FULL_RATE_B = ROUND_TRIP + K - 1;
  if (SYNC < 0) $error("credit_link: SYNC = %0d, need SYNC >= 0", SYNC);
  if (FREE_DELAY < 0) $error("credit_link: FREE_DELAY = %0d, need FREE_DELAY >= 0", FREE_DELAY);
  if (POLICY < 0 || POLICY > 1) $error("credit_link: POLICY = %0d, need 0 (batch) or 1 (hybrid)", POLICY);
  if (LOW < 0 || LOW > B) $error("credit_link: LOW = %0d, need 0 <= LOW <= B = %0d", LOW, B);
  if (IDLE < 1) $error("credit_link: IDLE = %0d, need IDLE >= 1", IDLE);
  if (TIMEOUT < 0) $error("credit_link: TIMEOUT = %0d, need TIMEOUT >= 0 (0: no timeout)", TIMEOUT);
  if (RECOVERY < 0 || RECOVERY > 1) $error("credit_link: RECOVERY = %0d, need 0 (counts) or 1 (cumulative updates)", RECOVERY);
  if (TOTAL_BITS < 1 || TOTAL_BITS > 16) $error("credit_link: TOTAL_BITS = %0d, need 1 <= TOTAL_BITS <= 16", TOTAL_BITS);
  if (RECOVERY == 1 && (TOTAL_BITS > 30 || (1 << TOTAL_BITS) <= 2 * B))
    $error("credit_link: RECOVERY needs 2^TOTAL_BITS > 2B: TOTAL_BITS = %0d, B = %0d (need TOTAL_BITS >= %0d)",
           TOTAL_BITS, B, $clog2(2 * B + 1));
  if (RECOVERY == 1 && RESEND < 1) $error("credit_link: RESEND = %0d, need RESEND >= 1", RESEND);
  if (FULL_RATE != 0 && B < FULL_RATE_B)
    $error("credit_link: FULL_RATE is declared but B = %0d does not cover the round trip (2L + 2 + SYNC + FREE_DELAY + K - 1 = %0d cycles with L = %0d, SYNC = %0d, FREE_DELAY = %0d, K = %0d): need B >= %0d",
           B, FULL_RATE_B, L, SYNC, FREE_DELAY, K, FULL_RATE_B);

  // ---- link.sender
  credit_counter #(.MAXC(B), .RETURN_WIDTH(CW)) u_sender (
    .clk,
    .rst_n         (rst_tx_n),
    .credit_return (credits_arriving),
    .want_send,
    .init_credits  (CW'(B)),
    .can_send,
    .do_send       (send),
    .credits
  );
  assign send_payload = send ? tx_payload : '0;

  // ---- link.fwd
  logic [W:0]       fwd_out;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [L*(W+1)-1:0] fwd_stages;     // the probe counts the flits in flight from it
  /* verilator lint_on UNUSEDSIGNAL */
  pipeline #(.STAGES(L), .WIDTH(W + 1)) u_fwd (
    .clk,
    .rst_n  (rst_tx_n),
    .in     ({send, send_payload}),
    .out    (fwd_out),
    .stages (fwd_stages)
  );
  assign arrive = fwd_out[W];

  // ---- link.rx
  rx_buffer #(.B(B), .WIDTH(W)) u_rx (
    .clk,
    .rst_n     (rst_rx_n),
    .push      (arrive),
    .push_data (fwd_out[W-1:0]),
    .drain,
    .pop,
    .pop_data  (pop_payload),
    .occupancy,
    .overflow
  );

  // A late free: the slot of a flit popped in cycle t is freed in cycle t + FREE_DELAY. Until
  // then it is still in use (slots_freeing) and its credit has not started back.
  logic freed;
  if (FREE_DELAY > 0) begin : g_late_free
    logic [FREE_DELAY-1:0] freeing_stages;
    pipeline #(.STAGES(FREE_DELAY), .WIDTH(1)) u_free_delay (
      .clk,
      .rst_n  (rst_rx_n),
      .in     (pop),
      .out    (freed),
      .stages (freeing_stages)
    );
    always_comb begin
      slots_freeing = '0;
      for (int i = 0; i < FREE_DELAY; i++) slots_freeing = slots_freeing + CW'(freeing_stages[i]);
    end
  end else begin : g_prompt_free
    assign freed = pop;
    assign slots_freeing = '0;
  end

  // ---- link.ret: the policy decides when to flush, credit_return batches, the port waits for
  // a return slot the reverse traffic leaves free.
  logic [CW-1:0] released;
  return_policy #(.B(B), .POLICY(POLICY), .LOW(LOW), .IDLE(IDLE), .TIMEOUT(TIMEOUT)) u_policy (
    .clk,
    .rst_n     (rst_rx_n),
    .busy      (return_busy),
    .held      (occupancy + slots_freeing + pending_returns + return_waiting),
    .pending   (pending_returns),
    .joining   (freed),
    .released,
    .flush_in  (flush),
    .flush_out (policy_flush)
  );

  credit_return #(.B(B), .K(K)) u_return (
    .clk,
    .rst_n    (rst_rx_n),
    .freed    (freed),
    .flush    (policy_flush),
    .returned (released),
    .pending  (pending_returns)
  );

  // The return path: L stages of wire, then SYNC synchroniser stages. Without recovery each stage
  // holds a count (CW bits), with it an update {valid, total} (TOTAL_BITS + 1 bits).
  localparam int RET_STAGES = L + SYNC;
  localparam int RW = (RECOVERY == 1) ? TOTAL_BITS + 1 : CW;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [RET_STAGES*RW-1:0] ret_stages;   // the probe counts the credits in flight from it
  /* verilator lint_on UNUSEDSIGNAL */
  logic [RW-1:0] ret_in, ret_out;
  pipeline #(.STAGES(RET_STAGES), .WIDTH(RW)) u_ret_pipe (
    .clk,
    .rst_n  (rst_rx_n),
    .in     (ret_in),
    .out    (ret_out),
    .stages (ret_stages)
  );

  // Only fault_add's low CW (or TOTAL_BITS) bits are used.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0] fault_add_used;
  /* verilator lint_on UNUSEDSIGNAL */
  assign fault_add_used = fault_add;

  if (RECOVERY == 1) begin : g_updates
    // ---- link.ret: cumulative updates (update_tx replaces return_port).
    localparam int NW = TOTAL_BITS;
    logic [NW-1:0] update_total;
    update_tx #(.B(B), .TOTAL_BITS(NW), .RESEND(RESEND)) u_update_tx (
      .clk,
      .rst_n          (rst_rx_n),
      .released,
      .busy           (return_busy),
      .update_valid   (return_message),
      .update_total,
      .sent           (credits_returned),
      .waiting        (return_waiting),
      .released_total,
      .sent_total
    );
    assign ret_in = {return_message, update_total};

    // The faults, on the update in the last stage.
    logic          arriving_valid;
    logic [NW-1:0] arriving_total, fault_total;
    assign arriving_valid = ret_out[NW];
    assign fault_total    = fault_add_used[NW-1:0];
    assign arriving_total = ret_out[NW-1:0] + fault_total;
    assign fault_dropped  = arriving_valid && fault_drop;
    assign fault_added    = arriving_valid && !fault_drop && fault_total != '0;

    // ---- link.sender: the updates become the counter's credits.
    update_rx #(.B(B), .TOTAL_BITS(NW)) u_update_rx (
      .clk,
      .rst_n          (rst_tx_n),
      .update_valid   (arriving_valid && !fault_drop),
      .update_total   (arriving_total),
      .credits,
      .credits_arriving,
      .refused        (update_refused),
      .accepted_total
    );
  end else begin : g_counts
    // ---- link.ret: counts; the port waits for a return slot the reverse traffic leaves free.
    return_port #(.B(B)) u_port (
      .clk,
      .rst_n    (rst_rx_n),
      .released,
      .busy     (return_busy),
      .sent     (credits_returned),
      .waiting  (return_waiting)
    );
    assign return_message = credits_returned != '0;
    assign ret_in         = credits_returned;

    // The faults, on the count in the last stage (a count of 0 is no message and is left alone).
    logic          arriving_message;
    logic [CW-1:0] fault_count;
    assign arriving_message = ret_out != '0;
    assign fault_count      = fault_add_used[CW-1:0];
    assign fault_dropped    = arriving_message && fault_drop;
    assign fault_added      = arriving_message && !fault_drop && fault_count != '0;
    assign credits_arriving = (!arriving_message || fault_drop) ? '0 : ret_out + fault_count;

    assign update_refused = 1'b0;
    assign released_total = '0;
    assign sent_total     = '0;
    assign accepted_total = '0;
  end

endmodule
