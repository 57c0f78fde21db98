// channel_link: many credit-controlled channels on one link (docs/channels.md), seeds 002 (CHI:
// REQ, RSP, SNP, DAT, a pool each) and 003 (PCIe: Posted, Non-Posted, Completion, a header pool
// and a data pool each; InfiniBand: a pool per virtual lane).
//
//   channels --[arbiter]--> sender (a counter per pool) --[fwd: L stages of {valid, lane, payload}]
//      ^                                                    --> lanes (rx_buffer each, B_p slots)
//      |                                                              | drain[lane's channel]
//      +--[ret: L stages, a pipeline per pool or one shared]<-- batches of K_p per pool
//
// Words (docs/channels.md): a channel c has one lane (plain) or two (header/data: its header lane
// CH_LANE[c] and its data lane CH_LANE[c] + 1); every lane belongs to one pool, one credit counter
// at the sender and the slots it stands for. A lane holds at most B_p flits of its pool p.
// Packet on channel c of `bytes` bytes, unit U_c: plain, n = max(1, ceil(bytes / U_c)) flits on
// its lane, n credits of that lane's pool; header/data, one header flit on the header lane then
// d = ceil(bytes / U_c) data flits (0 or more) on the data lane, one credit of the header pool and
// d of the data pool, together. Flit i (0 first, the header is flit 0) carries tag + i.
//
// Parameters (vectors have fixed maximum sizes: 8 channels, 16 lanes, 16 pools; entries past NCH,
// NLANE, NPOOL are ignored):
//   NCH 1..8, NLANE 1..16, NPOOL 1..16   channels, lanes, pools
//   L >= 1                               stages on the forward link and on every return pipeline
//   SHARED_RET                           0: a return pipeline per pool (CHI's credit wires);
//                                        1: one shared return path, one (pool, count) message per
//                                        cycle (PCIe's UpdateFC, InfiniBand's flow-control packets)
//   CH_LANE[c*8 +: 8]                    channel c's first (header or only) lane, < NLANE
//   CH_SPLIT[c]                          1: header/data channel; its data lane CH_LANE + 1 < NLANE
//   CH_UNIT[c*16 +: 16] >= 1             bytes per credit (and per flit) of channel c
//   LANE_CH[l*8 +: 8] < NCH              the channel lane l belongs to (its consumer drains it);
//                                        must name the channel whose CH_LANE (or data lane) it is
//   LANE_POOL[l*8 +: 8] < NPOOL          the pool lane l belongs to
//   POOL_B[p*16 +: 16] 1..65535          pool p's credits = the slots of each of its lanes
//   POOL_K[p*16 +: 16] 1..B_p            pool p's return batch
//   POOL_FULL_RATE[p]                    pool p must carry a flit every cycle: elaboration fails
//                                        unless B_p >= RTT + K_p - 1, RTT = 2L + 2 (seed 001's
//                                        "lasting fix", as credit_link's FULL_RATE).
//   RECOVERY 0/1                         0: the return paths carry counts (as above); 1: cumulative
//                                        credit updates per pool (docs/recovery.md, "On the
//                                        multi-channel link"; below)
//   TOTAL_BITS 1..16                     width n of the running totals; with RECOVERY = 1
//                                        elaboration fails unless 2^n > 2 B_p for every pool p
//   RESEND >= 1                          T: with RECOVERY = 1, a pool with no news sends its update
//                                        again T cycles after its last one
// Ports (functional; all inputs are sampled in the cycle they are presented):
//   clk, rst_n                   rising edge; asynchronous active-low reset of both ends together.
//   have[c], bytes[c*16 +: 16],  channel c presents its head packet; the stimulus keeps it there
//   tag[c*32 +: 32]              until grant[c], and presents the next one from the next cycle.
//   drain[c]                     channel c's consumer takes the head flit of each of its lanes.
//   fault_drop[p],               fault injection (a test hook for a corrupted return wire; tie low
//   fault_corrupt[p],            in silicon), on the message arriving for pool p this cycle (the
//   fault_add                    last return stage), only if there is one: a non-zero count without
//                                recovery, a valid update with it. fault_drop[p] loses it (drop wins);
//                                else fault_corrupt[p] makes it larger by fault_add: the count becomes
//                                count + fault_add truncated to 16 bits (the width of every count
//                                here); the total becomes total + fault_add mod 2^TOTAL_BITS (its low
//                                TOTAL_BITS bits), which the credit limit then accepts or refuses.
//                                Dedicated returns can have a message for several pools at once; the
//                                shared path at most one.
//   eligible[c]                  combinational: have[c] and, for every pool p, credits[p] >=
//                                need_c[p] (the whole cost; header and data needs add up when they
//                                draw from the same pool).
//   grant[c]                     combinational: channel c's head packet goes this cycle (its head
//                                flit is sent now; the stimulus drops it at the edge).
//   send, send_lane,             the flit on the link this cycle (0 when send is low).
//   send_payload
//   pop[l], pop_payload[l*32 +: 32]  lane l's head flit leaves to the consumer this cycle.
// Arbitration: one flit per cycle, packets never interleaved. While a packet is in progress (its
// head left in an earlier cycle and flits remain) its next flit is sent and nothing is granted.
// Otherwise a round-robin arbiter grants the first eligible channel after the one granted last,
// in the order last + 1, last + 2, ... (mod NCH); after reset channel 0 comes first. The pointer
// moves only on a grant.
// Timing (counts are the state at the start of the cycle; events are this cycle's; every register
// moves at the rising edge):
//   cycle t      grant[c]: the head flit is sent; at the edge credits[p] -= need_c[p] and
//                reserved[p] takes the credits of the flits not sent yet.
//   t+1 ...      one flit of the packet per cycle, each moving a credit from reserved to the link.
//   t + L        a flit sent in t is `arrive` (the last forward stage); at the edge it joins its
//                lane (overflow if the lane holds B_p flits and does not pop this cycle: the flit
//                is dropped, as rx_buffer does).
//   t + L + 1    the earliest pop; freed[p] = lanes of pool p popping. pending[p] + freed[p] is
//                released whole once it reaches K_p, else kept in pending[p].
//                Dedicated returns: released[p] enters pool p's pipeline now (credits_returned[p]).
//                Shared return: waiting[p] + released[p] is what pool p has to send; a round-robin
//                over pools (pool 0 first after reset, then the first after the pool sent last)
//                sends all of one pool's (credits_returned[p]); the others keep theirs in waiting.
//   t + 2L + 1   the credit is in the last return stage (credits_arriving[p]);
//   t + 2L + 2   it is spent again: credits[p] <= credits[p] - taken[p] + credits_arriving[p].
//   With one channel, one-flit packets and K = 1 this is credit_link: RTT = 2L + 2, throughput
//   min(1, B / RTT).
// Recovery (RECOVERY = 1), per pool p: registers CR_p (released total), CS_p (total of the last
// update sent) and quiet_p (cycles since that update, saturating at T - 1) at the receiver, R_p
// (total of the last update accepted) at the sender, all reset to 0 by rst_n, totals mod 2^n.
//   CR'_p = CR_p + released[p]; an update is wanted when CR'_p != CS_p or quiet_p == T - 1.
//   Dedicated returns: every wanted pool sends {valid, CR'_p} on its own pipeline this cycle.
//   Shared return: one {valid, pool, CR'_p} per cycle, the round-robin above (pool 0 first after
//   reset, then the first after the pool sent last) over the wanted pools; the others keep wanting.
//   At the edge a pool that sent: CS_p <= CR'_p, quiet_p <= 0; one that did not: quiet_p <=
//   min(quiet_p + 1, T - 1); CR_p <= CR'_p always.
//   Sender, an update for pool p arriving with value v (after the faults): d = v - R_p (mod 2^n);
//   accepted if credits[p] + d <= B_p (taken at 18 bits, never wrapping): credits_arriving[p] = d
//   and R_p <= v; otherwise refused (update_refused[p]), nothing added, R_p unchanged.
//   Observed: credits_returned[p] = CR'_p - CS_p when pool p's update is sent, else 0 (0 for a pure
//   resend); waiting[p] = CR_p - CS_p; return_flight[p] = CS_p - R_p (credits covered by an update
//   sent and not yet accepted, whether still on its way or lost). The timing is unchanged: with its
//   slot free, a released credit leaves in the cycle it is released and arrives L cycles later (on
//   a shared path a periodic resend can take the slot another pool's news wanted).
// Invariant, per pool p, every cycle from a reset on (checked by the conservation scoreboard
// from channel_link_observed's ports, and asserted below), in both modes, whatever is dropped with
// recovery on:
//   credits[p] + reserved[p] + fwd_flits[p] + occupancy of p's lanes + pending[p] + waiting[p]
//     + return_flight[p] == B_p
// An injected fault breaks it on purpose (the count a drop loses or a corruption adds without
// recovery; the credits an accepted corrupted update creates with it): pool p's loop checks
// (a_conservation[p], a_credits_within_b[p] without recovery, a_no_overflow on p's lanes) stand
// aside from the cycle such a fault hits pool p's arriving message until the next reset.
// Observed internal state (read by name by rtl/channels/channel_link_observed.sv), packed arrays
// of 16-bit counts, index = pool or lane: credits, reserved, fwd_flits, pending, waiting,
// return_flight, credits_arriving, credits_returned (per pool), occupancy, overflow (per lane),
// arrive, arrive_lane; the masks return_message and update_refused (16 bits, [NPOOL-1:0] used);
// fault_dropped, fault_added, released_total, sent_total, accepted_total (per pool; 0 without
// recovery); the pipelines' stages are fwd_stages and ret_stages.
// Assertions (Verilator --assert, at every rising edge out of reset):
//   a_conservation[p]        the sum above == B_p (standing aside after a fault that breaks it).
//   a_credits_within_b[p]    credits[p] <= B_p (with recovery always: the credit limit keeps it).
//   a_no_overflow            no flit arrives at a full lane (of a pool not broken by a fault).
//   a_one_grant              at most one grant per cycle.
//   a_grant_only_eligible    a grant only to an eligible channel.
//   a_no_grant_in_packet     no grant while a packet is in progress.
//   a_reserved_is_packet     the reserved credits are the flits of the packet in progress.
//   With RECOVERY = 1, per pool p (g_recovery_checks):
//   a_quiet_within_resend        quiet_p <= T - 1.
//   a_update_only_when_wanted    an update for p goes only with news or when its resend is due.
//   a_update_sent_when_wanted    (dedicated returns) every wanted update goes this cycle.
//   a_refused_only_over_limit    a refusal only when credits[p] + d > B_p.
//   a_accepted_within_limit      credits[p] + credits_arriving[p] <= B_p.
//   a_refused_only_if_corrupted  a refusal only with a corrupted update this cycle or after an
//                                accepted one broke the pool (a correct receiver is never refused).
//   and on the shared path: a_one_update_per_cycle, a_shared_sends_when_wanted (a pool wants an
//   update: one goes).
// (Each lane's rx_buffer and each pipeline assert their own contracts; see their headers.)
// Covers (named for a --coverage-user report), per pool p (g_pool_covers[p]):
//   cover_pool_zero                   the pool has no credit left.
//   cover_pool_zero_to_one            a credit comes back to the empty pool (0 -> 1).
//   cover_pool_one_to_zero            the pool's last credit is taken and none comes back (1 -> 0).
//   cover_pool_exhausted_other_sends  the pool is empty while a flit of another pool goes on the
//                                     link (the other channels are not blocked by it).
//   g_batch.cover_pool_batch_returned a batch of K_p credits is released (K_p > 1).
//   g_recovery.cover_pool_update_refused, g_recovery.cover_pool_resend  (RECOVERY = 1) an update
//                                     refused by the credit limit; a resend carrying nothing new.
//   g_shared.cover_pool_waits_for_return  (SHARED_RET = 1) credits wait for the shared path.
// per channel c (g_channel_covers[c]):
//   cover_channel_granted             its head packet is granted.
//   cover_channel_blocked             it has a packet but not all its credits.
//   cover_channel_waits_for_packet    it is eligible while another packet holds the link.
//   cover_channel_multi_flit          a packet of several flits is granted.
//   g_split.cover_channel_header_only (header/data) a packet of a header and no data.
// and cover_contention: two or more channels eligible in a cycle with a grant.
// The forward and return paths reuse rtl/pipeline.sv: the same stage semantics as credit_link
// (a value presented in t leaves in t + L, reset clears every stage to 0, a stage of zeros carries
// nothing), and its in-order checker comes with it. The lanes reuse rtl/rx_buffer.sv for the
// same reason (its occupancy, overflow and FIFO checks). So a build of channel_link needs
// rtl/pipeline.sv and rtl/rx_buffer.sv besides rtl/channels/*.sv.
module channel_link #(
  parameter int NCH = 1,
  parameter int NLANE = 1,
  parameter int NPOOL = 1,
  parameter int L = 4,
  parameter int SHARED_RET = 0,
  parameter logic [8*8-1:0]   CH_LANE = '0,
  parameter logic [7:0]       CH_SPLIT = '0,
  parameter logic [8*16-1:0]  CH_UNIT = {8{16'd1}},
  parameter logic [16*8-1:0]  LANE_CH = '0,
  parameter logic [16*8-1:0]  LANE_POOL = '0,
  parameter logic [16*16-1:0] POOL_B = {16{16'd12}},
  parameter logic [16*16-1:0] POOL_K = {16{16'd1}},
  parameter logic [15:0]      POOL_FULL_RATE = '0,
  parameter int RECOVERY = 0,
  parameter int TOTAL_BITS = 8,
  parameter int RESEND = 16
) (
  input  logic                 clk,
  input  logic                 rst_n,
  input  logic [NCH-1:0]       have,
  input  logic [NCH*16-1:0]    bytes,
  input  logic [NCH*32-1:0]    tag,
  input  logic [NCH-1:0]       drain,
  // fault injection on the message arriving for each pool (tie low in silicon)
  input  logic [NPOOL-1:0]     fault_drop,
  input  logic [NPOOL-1:0]     fault_corrupt,
  input  logic [15:0]          fault_add,
  // link.sender: the arbiter and the flit in
  output logic [NCH-1:0]       grant,
  output logic [NCH-1:0]       eligible,
  output logic                 send,
  output logic [7:0]           send_lane,
  output logic [31:0]          send_payload,
  // link.rx: the flits out
  output logic [NLANE-1:0]     pop,
  output logic [NLANE*32-1:0]  pop_payload
);
  // A flit on the forward link: {valid, lane, payload}.
  localparam int FW = 1 + 8 + 32;
  // A message on the shared return path: {pool, count}; a count of 0 is no message.
  localparam int MW = 4 + 16;
  localparam int RTT = 2 * L + 2;

  // The parameter tables, one entry at a time (out-of-range entries read as 0 or 1 so that a bad
  // table reaches the $error checks below instead of failing on a select).
  function automatic int ch_lane(int c);
    return (c >= 0 && c < 8) ? int'(CH_LANE[c*8 +: 8]) : 0;
  endfunction
  function automatic bit ch_split(int c);
    return (c >= 0 && c < 8) ? CH_SPLIT[c] : 1'b0;
  endfunction
  function automatic int ch_unit(int c);
    return (c >= 0 && c < 8) ? int'(CH_UNIT[c*16 +: 16]) : 1;
  endfunction
  function automatic int lane_ch(int l);
    return (l >= 0 && l < 16) ? int'(LANE_CH[l*8 +: 8]) : 0;
  endfunction
  function automatic int lane_pool(int l);
    return (l >= 0 && l < 16) ? int'(LANE_POOL[l*8 +: 8]) : 0;
  endfunction
  function automatic int pool_b(int p);
    return (p >= 0 && p < 16) ? int'(POOL_B[p*16 +: 16]) : 1;
  endfunction
  function automatic int pool_k(int p);
    return (p >= 0 && p < 16) ? int'(POOL_K[p*16 +: 16]) : 1;
  endfunction
  // The lane a channel's flits after the head go to: the data lane of a header/data channel.
  function automatic int ch_rest_lane(int c);
    return ch_split(c) ? ch_lane(c) + 1 : ch_lane(c);
  endfunction
  // The pool of a lane number carried on the link, one-hot (0 for a number that is no lane).
  function automatic logic [NPOOL-1:0] pool_of_lane(logic [7:0] lane);
    logic [NPOOL-1:0] mask;
    mask = '0;
    for (int l = 0; l < NLANE; l++)
      for (int p = 0; p < NPOOL; p++)
        if (lane == 8'(l) && lane_pool(l) == p) mask[p] = 1'b1;
    return mask;
  endfunction

  // Parameter contract, checked at elaboration.
  if (NCH < 1 || NCH > 8) $error("channel_link: NCH = %0d, need 1 <= NCH <= 8", NCH);
  if (NLANE < 1 || NLANE > 16) $error("channel_link: NLANE = %0d, need 1 <= NLANE <= 16", NLANE);
  if (NPOOL < 1 || NPOOL > 16) $error("channel_link: NPOOL = %0d, need 1 <= NPOOL <= 16", NPOOL);
  if (L < 1) $error("channel_link: L = %0d, need L >= 1", L);
  if (SHARED_RET < 0 || SHARED_RET > 1)
    $error("channel_link: SHARED_RET = %0d, need 0 (a return pipeline per pool) or 1 (one shared return path)", SHARED_RET);
  if (RECOVERY < 0 || RECOVERY > 1)
    $error("channel_link: RECOVERY = %0d, need 0 (counts) or 1 (cumulative updates per pool)", RECOVERY);
  if (TOTAL_BITS < 1 || TOTAL_BITS > 16) $error("channel_link: TOTAL_BITS = %0d, need 1 <= TOTAL_BITS <= 16", TOTAL_BITS);
  if (RESEND < 1) $error("channel_link: RESEND = %0d, need RESEND >= 1", RESEND);
  for (genvar c = 0; c < NCH && c < 8; c++) begin : g_check_channel
    if (ch_unit(c) < 1) $error("channel_link: CH_UNIT of channel %0d = %0d, need >= 1 byte per credit", c, ch_unit(c));
    if (ch_lane(c) >= NLANE)
      $error("channel_link: CH_LANE of channel %0d = %0d, need a lane < NLANE = %0d", c, ch_lane(c), NLANE);
    else if (lane_ch(ch_lane(c)) != c)
      $error("channel_link: channel %0d's lane %0d has LANE_CH = %0d, need %0d", c, ch_lane(c), lane_ch(ch_lane(c)), c);
    if (ch_split(c) && ch_rest_lane(c) >= NLANE)
      $error("channel_link: channel %0d is header/data but its data lane %0d (CH_LANE + 1) is not < NLANE = %0d",
             c, ch_rest_lane(c), NLANE);
    else if (ch_split(c) && lane_ch(ch_rest_lane(c)) != c)
      $error("channel_link: channel %0d's data lane %0d has LANE_CH = %0d, need %0d",
             c, ch_rest_lane(c), lane_ch(ch_rest_lane(c)), c);
  end
  for (genvar l = 0; l < NLANE && l < 16; l++) begin : g_check_lane
    if (lane_ch(l) >= NCH) $error("channel_link: LANE_CH of lane %0d = %0d, need a channel < NCH = %0d", l, lane_ch(l), NCH);
    if (lane_pool(l) >= NPOOL) $error("channel_link: LANE_POOL of lane %0d = %0d, need a pool < NPOOL = %0d", l, lane_pool(l), NPOOL);
  end
  for (genvar p = 0; p < NPOOL && p < 16; p++) begin : g_check_pool
    if (pool_b(p) < 1 || pool_b(p) > 65535) $error("channel_link: POOL_B of pool %0d = %0d, need 1..65535", p, pool_b(p));
    if (pool_k(p) < 1 || pool_k(p) > pool_b(p))
      $error("channel_link: POOL_K of pool %0d = %0d, need 1 <= K <= B = %0d", p, pool_k(p), pool_b(p));
    // Sizing assertion: a credit's round trip is L stages forward, a cycle in the lane, L stages
    // back, a cycle in the counter (2L + 2), plus up to K - 1 cycles waiting for its batch. (A
    // shared return path adds waiting behind other pools' messages, which no B covers for
    // certain; the declaration is about the loop as built.)
    if (POOL_FULL_RATE[p] && pool_b(p) < RTT + pool_k(p) - 1)
      $error("channel_link: POOL_FULL_RATE is declared for pool %0d but B = %0d does not cover the round trip (2L + 2 + K - 1 = %0d cycles with L = %0d, K = %0d): need B >= %0d",
             p, pool_b(p), RTT + pool_k(p) - 1, L, pool_k(p), RTT + pool_k(p) - 1);
    // Recovery: a stale or duplicated total must never look like new credits (docs/recovery.md).
    if (RECOVERY == 1 && TOTAL_BITS >= 1 && TOTAL_BITS <= 16 && (1 << TOTAL_BITS) <= 2 * pool_b(p))
      $error("channel_link: RECOVERY needs 2^TOTAL_BITS > 2 B_p for every pool: TOTAL_BITS = %0d, pool %0d has B = %0d (need TOTAL_BITS >= %0d)",
             TOTAL_BITS, p, pool_b(p), $clog2(2 * pool_b(p) + 1));
  end

  // ---- The observed state and events (rtl/channels/channel_link_observed.sv reads these by
  // name); some are read by it and the assertions alone.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NPOOL-1:0][15:0] credits, reserved, fwd_flits, pending, waiting, return_flight,
                          credits_arriving, credits_returned;
  logic [NLANE-1:0][15:0] occupancy;
  logic [NLANE-1:0]       overflow;
  logic                   arrive;
  logic [7:0]             arrive_lane;
  logic [L*FW-1:0]        fwd_stages;
  // Recovery and faults, per pool (entries [NPOOL-1:0] of the masks are used, the rest are 0):
  //   return_message[p]  a message for pool p enters the return path this cycle (a non-zero count
  //                      without recovery, an update with it).
  //   update_refused[p]  an update arriving for pool p is refused by the credit limit (0 without
  //                      recovery).
  //   fault_dropped[p]   a message arrives for pool p and fault_drop[p] loses it.
  //   fault_added[p]     a message arrives for pool p, is not dropped, and fault_corrupt[p] changes
  //                      its value (fault_add != 0 in the bits used).
  //   released_total, sent_total, accepted_total   CR_p, CS_p, R_p (0 without recovery).
  logic [15:0]            return_message, update_refused;
  logic [NPOOL-1:0]       fault_dropped, fault_added;
  logic [NPOOL-1:0][TOTAL_BITS-1:0] released_total, sent_total, accepted_total;
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- link.sender: each channel's head packet, its cost per pool and its flits.
  logic [NCH-1:0][NPOOL-1:0][16:0] need;        // credits of each pool the head packet takes
  logic [NCH-1:0][16:0]            rest_flits;  // flits after the head
  always_comb begin
    for (int c = 0; c < NCH; c++) begin
      logic [16:0] units;                       // ceil(bytes / U_c)
      logic [16:0] head_cost, data_cost;
      units     = (17'(bytes[c*16 +: 16]) + 17'(ch_unit(c)) - 17'd1) / 17'(ch_unit(c));
      head_cost = ch_split(c) ? 17'd1 : ((units == '0) ? 17'd1 : units);
      data_cost = ch_split(c) ? units : 17'd0;
      rest_flits[c] = ch_split(c) ? units : head_cost - 17'd1;
      for (int p = 0; p < NPOOL; p++) begin
        need[c][p] = ((lane_pool(ch_lane(c)) == p) ? head_cost : 17'd0) +
                     ((lane_pool(ch_rest_lane(c)) == p) ? data_cost : 17'd0);
      end
    end
  end

  always_comb begin
    for (int c = 0; c < NCH; c++) begin
      eligible[c] = have[c];
      for (int p = 0; p < NPOOL; p++)
        if ({1'b0, credits[p]} < need[c][p]) eligible[c] = 1'b0;
    end
  end

  // The packet in progress: the flits still to send (none: the link is free to grant), the lane
  // they go to and the payload of the next one.
  logic [16:0] flits_left;
  logic [7:0]  busy_lane;
  logic [31:0] next_payload;
  logic        in_packet;
  assign in_packet = flits_left != '0;

  // The round-robin arbiter: the first eligible channel after last_grant (reset: NCH - 1, so
  // channel 0 comes first). Nothing is granted while a packet is in progress.
  logic [2:0]     last_grant;
  logic [NCH-1:0] request;
  assign request = eligible;
  always_comb begin
    int c;
    c     = 0;
    grant = '0;
    if (!in_packet) begin
      for (int i = 1; i <= NCH; i++) begin
        c = int'(last_grant) + i;
        if (c >= NCH) c = c - NCH;
        if (grant == '0 && request[c]) grant[c] = 1'b1;
      end
    end
  end

  // The granted channel's packet, as the sender takes it at the edge.
  logic [NPOOL-1:0][16:0] taken;        // credits charged at the edge
  logic [NPOOL-1:0][16:0] reserve;      // of them, the ones for flits not sent yet
  logic [16:0]            grant_rest_flits;
  logic [7:0]             grant_lane, grant_rest_lane;
  logic [31:0]            grant_tag;
  logic [2:0]             grant_channel;
  always_comb begin
    taken            = '0;
    reserve          = '0;
    grant_rest_flits = '0;
    grant_lane       = '0;
    grant_rest_lane  = '0;
    grant_tag        = '0;
    grant_channel    = last_grant;
    for (int c = 0; c < NCH; c++) begin
      if (grant[c]) begin
        taken            = need[c];
        grant_rest_flits = rest_flits[c];
        grant_lane       = 8'(ch_lane(c));
        grant_rest_lane  = 8'(ch_rest_lane(c));
        grant_tag        = tag[c*32 +: 32];
        grant_channel    = 3'(c);
      end
    end
    for (int p = 0; p < NPOOL; p++)
      reserve[p] = taken[p] - ((lane_pool(int'(grant_lane)) == p && grant != '0) ? 17'd1 : 17'd0);
  end

  // The flit on the link: the next of the packet in progress, or the granted head.
  assign send         = in_packet || grant != '0;
  assign send_lane    = in_packet ? busy_lane : grant_lane;
  assign send_payload = in_packet ? next_payload : grant_tag;

  // Each later flit moves one credit of its lane's pool from reserved to the link.
  logic [NPOOL-1:0] continuing;
  assign continuing = in_packet ? pool_of_lane(busy_lane) : '0;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      flits_left   <= '0;
      busy_lane    <= '0;
      next_payload <= '0;
      last_grant   <= 3'(NCH - 1);
    end else begin
      flits_left   <= in_packet ? flits_left - 17'd1 : grant_rest_flits;
      busy_lane    <= in_packet ? busy_lane : grant_rest_lane;
      next_payload <= in_packet ? next_payload + 32'd1 : grant_tag + 32'd1;
      last_grant   <= grant_channel;
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      for (int p = 0; p < NPOOL; p++) begin
        credits[p]  <= 16'(pool_b(p));
        reserved[p] <= '0;
      end
    end else begin
      for (int p = 0; p < NPOOL; p++) begin
        credits[p]  <= 16'(18'(credits[p]) - 18'(taken[p]) + 18'(credits_arriving[p]));
        reserved[p] <= 16'(17'(reserved[p]) + reserve[p] - 17'(continuing[p]));
      end
    end
  end

  // ---- link.fwd
  logic [FW-1:0] fwd_out;
  pipeline #(.STAGES(L), .WIDTH(FW)) u_fwd (
    .clk,
    .rst_n,
    .in     ({send, send_lane, send_payload}),
    .out    (fwd_out),
    .stages (fwd_stages)
  );
  assign arrive      = fwd_out[FW-1];
  assign arrive_lane = fwd_out[39:32];

  always_comb begin
    fwd_flits = '0;
    for (int i = 0; i < L; i++) begin
      logic [NPOOL-1:0] stage_pool;
      stage_pool = fwd_stages[i*FW + FW - 1] ? pool_of_lane(fwd_stages[i*FW + 32 +: 8]) : '0;
      for (int p = 0; p < NPOOL; p++) fwd_flits[p] = fwd_flits[p] + 16'(stage_pool[p]);
    end
  end

  // ---- link.rx: a lane per rx_buffer, B_p slots, drained by its channel's consumer.
  for (genvar l = 0; l < NLANE; l++) begin : g_lane
    localparam int LANE_B = pool_b(lane_pool(l));
    logic [$clog2(LANE_B + 1)-1:0] lane_occupancy;
    rx_buffer #(.B(LANE_B), .WIDTH(32)) u_buffer (
      .clk,
      .rst_n,
      .push      (arrive && arrive_lane == 8'(l)),
      .push_data (fwd_out[31:0]),
      .drain     (drain[lane_ch(l)]),
      .pop       (pop[l]),
      .pop_data  (pop_payload[l*32 +: 32]),
      .occupancy (lane_occupancy),
      .overflow  (overflow[l])
    );
    assign occupancy[l] = 16'(lane_occupancy);
  end

  // ---- link.ret: per pool, the lanes popping free their slots (more than one only in a shared
  // pool); pending + freed is released whole once it reaches K_p.
  logic [NPOOL-1:0][15:0] freed, released;
  always_comb begin
    for (int p = 0; p < NPOOL; p++) begin
      freed[p] = '0;
      for (int l = 0; l < NLANE; l++)
        if (lane_pool(l) == p) freed[p] = freed[p] + 16'(pop[l]);
      released[p] = (17'(pending[p]) + 17'(freed[p]) >= 17'(pool_k(p))) ? pending[p] + freed[p] : '0;
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) pending <= '0;
    else for (int p = 0; p < NPOOL; p++) pending[p] <= pending[p] + freed[p] - released[p];
  end

  // The faults act on the message in the last return stage for a pool (docs/recovery.md, "On the
  // multi-channel link"). Only fault_add's low TOTAL_BITS bits are used with recovery.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0] fault_amount;
  /* verilator lint_on UNUSEDSIGNAL */
  assign fault_amount = fault_add;

  if (RECOVERY == 0 && SHARED_RET == 0) begin : g_dedicated_return
    // A pipeline of L stages per pool (CHI's credit wires): every released count goes at once.
    assign credits_returned = released;
    assign waiting          = '0;
    for (genvar p = 0; p < NPOOL; p++) begin : g_pool
      logic [L*16-1:0] ret_stages;
      logic [15:0]     ret_out;
      logic            arriving_count;      // a non-zero count in the last stage: a message
      pipeline #(.STAGES(L), .WIDTH(16)) u_ret (
        .clk,
        .rst_n,
        .in     (released[p]),
        .out    (ret_out),
        .stages (ret_stages)
      );
      // Faults: drop wins; corrupt adds fault_add, truncated to the count's 16 bits.
      assign arriving_count      = ret_out != '0;
      assign fault_dropped[p]    = arriving_count && fault_drop[p];
      assign fault_added[p]      = arriving_count && !fault_drop[p] && fault_corrupt[p] && fault_amount != '0;
      assign credits_arriving[p] = (!arriving_count || fault_drop[p]) ? '0 :
                                   fault_corrupt[p] ? ret_out + fault_amount : ret_out;
      always_comb begin
        return_flight[p] = '0;
        for (int i = 0; i < L; i++) return_flight[p] = return_flight[p] + ret_stages[i*16 +: 16];
      end
    end
  end else if (RECOVERY == 0) begin : g_shared_return
    // One message (pool, count) per cycle: a round-robin over the pools with something to send
    // (last_return reset to NPOOL - 1, so pool 0 comes first); the one picked sends all it has.
    logic [NPOOL-1:0][15:0] owed;           // waiting + released: what each pool has to send
    logic [NPOOL-1:0]       picked;
    logic [3:0]             last_return, return_pool;
    logic [15:0]            return_count;
    logic [MW-1:0]          message, arriving_message;
    logic [L*MW-1:0]        ret_stages;

    always_comb begin
      int p;
      p = 0;
      for (int q = 0; q < NPOOL; q++) owed[q] = waiting[q] + released[q];
      picked       = '0;
      return_pool  = last_return;
      return_count = '0;
      for (int i = 1; i <= NPOOL; i++) begin
        p = int'(last_return) + i;
        if (p >= NPOOL) p = p - NPOOL;
        if (picked == '0 && owed[p] != '0) begin
          picked[p]    = 1'b1;
          return_pool  = 4'(p);
          return_count = owed[p];
        end
      end
      for (int q = 0; q < NPOOL; q++) credits_returned[q] = picked[q] ? owed[q] : '0;
    end
    assign message = (return_count != '0) ? {return_pool, return_count} : '0;

    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n) begin
        waiting     <= '0;
        last_return <= 4'(NPOOL - 1);
      end else begin
        for (int p = 0; p < NPOOL; p++) waiting[p] <= picked[p] ? '0 : owed[p];
        last_return <= return_pool;
      end
    end

    pipeline #(.STAGES(L), .WIDTH(MW)) u_ret (
      .clk,
      .rst_n,
      .in     (message),
      .out    (arriving_message),
      .stages (ret_stages)
    );

    // The message in the last stage is pool arriving_pool's if its count is non-zero. Faults: drop
    // wins; corrupt adds fault_add, truncated to the count's 16 bits.
    logic [3:0]  arriving_pool;
    logic [15:0] arriving_count;
    assign arriving_pool  = arriving_message[MW-1 -: 4];
    assign arriving_count = arriving_message[15:0];
    always_comb begin
      for (int p = 0; p < NPOOL; p++) begin
        logic hit;
        hit                 = arriving_count != '0 && arriving_pool == 4'(p);
        fault_dropped[p]    = hit && fault_drop[p];
        fault_added[p]      = hit && !fault_drop[p] && fault_corrupt[p] && fault_amount != '0;
        credits_arriving[p] = (!hit || fault_drop[p]) ? '0 :
                              fault_corrupt[p] ? arriving_count + fault_amount : arriving_count;
        return_flight[p]    = '0;
        for (int i = 0; i < L; i++)
          if (ret_stages[i*MW + 16 +: 4] == 4'(p)) return_flight[p] = return_flight[p] + ret_stages[i*MW +: 16];
      end
    end
  end else begin : g_recovery
    // Cumulative credit updates per pool (docs/recovery.md, "On the multi-channel link"), written
    // here rather than as an update_tx/update_rx pair per pool: the shared path's round-robin must
    // see every pool's "wanted" before it picks, which update_tx keeps inside (it only takes a
    // busy input), and the credit limit is taken on the link's 16-bit credits[p] (update_rx takes
    // the count at $clog2(B + 1) bits), so a pool driven past B by a broken loop is refused, not
    // wrapped into range.
    localparam int NW = TOTAL_BITS;
    localparam int QW = (RESEND > 1) ? $clog2(RESEND) : 1;
    logic [NPOOL-1:0][NW-1:0] next_total;      // CR'_p = CR_p + released_p (mod 2^NW)
    logic [NPOOL-1:0][QW-1:0] quiet;           // cycles since pool p's last update, up to T - 1
    logic [NPOOL-1:0]         wanted;          // news (CR'_p != CS_p) or the resend is due
    logic [NPOOL-1:0]         sending;         // pool p's update enters the return path
    logic [NPOOL-1:0]         arriving_valid;  // an update for pool p in the last return stage
    logic [NPOOL-1:0][NW-1:0] arriving_raw;    // ... its total as sent
    logic [NPOOL-1:0][NW-1:0] arriving_value;  // ... after the faults
    logic [NPOOL-1:0][NW-1:0] delta;           // d = v - R_p (mod 2^NW)
    logic [NPOOL-1:0]         delivered, accept;
    logic [NW-1:0]            fault_total;
    assign fault_total = fault_amount[NW-1:0];

    // Receiver end.
    always_comb begin
      for (int p = 0; p < NPOOL; p++) begin
        next_total[p] = released_total[p] + NW'(released[p]);
        wanted[p]     = next_total[p] != sent_total[p] || quiet[p] == QW'(RESEND - 1);
      end
    end

    // The observation: what an update newly covers, what waits for one, what is covered by an
    // update sent and not yet accepted (the conservation terms; all below 2^NW <= 2^16).
    always_comb begin
      return_message = '0;
      for (int p = 0; p < NPOOL; p++) begin
        return_message[p]   = sending[p];
        credits_returned[p] = sending[p] ? 16'(NW'(next_total[p] - sent_total[p])) : '0;
        waiting[p]          = 16'(NW'(released_total[p] - sent_total[p]));
        // R ahead of CS (a corrupted update accepted): nothing on the way, the extra credits show
        // as made by exactly their number (as credit_link's probe and the models count it).
        return_flight[p]    = NW'(sent_total[p] - accepted_total[p]) > NW'(pool_b(p))
                                ? '0 : 16'(NW'(sent_total[p] - accepted_total[p]));
      end
    end

    // Sender end: faults (drop wins; corrupt adds fault_add mod 2^NW), then the credit limit
    // credits[p] + d <= B_p, taken at 18 bits so it never wraps.
    always_comb begin
      update_refused = '0;
      for (int p = 0; p < NPOOL; p++) begin
        delivered[p]        = arriving_valid[p] && !fault_drop[p];
        fault_dropped[p]    = arriving_valid[p] && fault_drop[p];
        fault_added[p]      = delivered[p] && fault_corrupt[p] && fault_total != '0;
        arriving_value[p]   = arriving_raw[p] + (fault_corrupt[p] ? fault_total : '0);
        delta[p]            = arriving_value[p] - accepted_total[p];
        accept[p]           = delivered[p] && 18'(credits[p]) + 18'(delta[p]) <= 18'(pool_b(p));
        update_refused[p]   = delivered[p] && !accept[p];
        credits_arriving[p] = accept[p] ? 16'(delta[p]) : '0;
      end
    end

    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n) begin
        released_total <= '0;
        sent_total     <= '0;
        quiet          <= '0;
        accepted_total <= '0;
      end else begin
        for (int p = 0; p < NPOOL; p++) begin
          released_total[p] <= next_total[p];
          if (sending[p]) begin
            sent_total[p] <= next_total[p];
            quiet[p]      <= '0;
          end else if (quiet[p] != QW'(RESEND - 1)) begin
            quiet[p]      <= quiet[p] + 1'b1;
          end
          if (accept[p]) accepted_total[p] <= arriving_value[p];
        end
      end
    end

    if (SHARED_RET == 0) begin : g_dedicated
      // Every wanted pool sends its update {valid, total} on its own pipeline this cycle.
      assign sending = wanted;
      for (genvar p = 0; p < NPOOL; p++) begin : g_pool
        /* verilator lint_off UNUSEDSIGNAL */
        logic [L*(NW+1)-1:0] ret_stages;
        /* verilator lint_on UNUSEDSIGNAL */
        logic [NW:0]         ret_out;
        pipeline #(.STAGES(L), .WIDTH(NW + 1)) u_ret (
          .clk,
          .rst_n,
          .in     (sending[p] ? {1'b1, next_total[p]} : '0),
          .out    (ret_out),
          .stages (ret_stages)
        );
        assign arriving_valid[p] = ret_out[NW];
        assign arriving_raw[p]   = ret_out[NW-1:0];
      end
    end else begin : g_shared
      // One update {valid, pool, total} per cycle: the round-robin over the wanted pools
      // (last_return reset to NPOOL - 1, so pool 0 comes first; it moves only when one is sent).
      localparam int UW = 1 + 4 + NW;
      logic [3:0]      last_return, return_pool;
      logic [NW-1:0]   return_total;
      logic [UW-1:0]   message, arriving_message;
      /* verilator lint_off UNUSEDSIGNAL */
      logic [L*UW-1:0] ret_stages;
      /* verilator lint_on UNUSEDSIGNAL */

      always_comb begin
        int p;
        p            = 0;
        sending      = '0;
        return_pool  = last_return;
        return_total = '0;
        for (int i = 1; i <= NPOOL; i++) begin
          p = int'(last_return) + i;
          if (p >= NPOOL) p = p - NPOOL;
          if (sending == '0 && wanted[p]) begin
            sending[p]   = 1'b1;
            return_pool  = 4'(p);
            return_total = next_total[p];
          end
        end
      end
      assign message = (sending != '0) ? {1'b1, return_pool, return_total} : '0;

      always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) last_return <= 4'(NPOOL - 1);
        else        last_return <= return_pool;
      end

      pipeline #(.STAGES(L), .WIDTH(UW)) u_ret (
        .clk,
        .rst_n,
        .in     (message),
        .out    (arriving_message),
        .stages (ret_stages)
      );

      always_comb begin
        for (int p = 0; p < NPOOL; p++) begin
          arriving_valid[p] = arriving_message[UW-1] && arriving_message[NW +: 4] == 4'(p);
          arriving_raw[p]   = arriving_message[NW-1:0];
        end
      end
    end
  end

  if (RECOVERY == 0) begin : g_counts
    // Without recovery a message is a non-zero count; nothing is refused and there are no totals.
    always_comb begin
      return_message = '0;
      for (int p = 0; p < NPOOL; p++) return_message[p] = credits_returned[p] != '0;
    end
    assign update_refused = '0;
    assign released_total = '0;
    assign sent_total     = '0;
    assign accepted_total = '0;
  end

`ifndef SYNTHESIS
  // ---- checks. Every term of each pool's sum is taken as an int, so a count driven past either
  // end shows its true value instead of wrapping.
  logic [NPOOL-1:0][31:0] lanes_total, credit_total;
  always_comb begin
    for (int p = 0; p < NPOOL; p++) begin
      lanes_total[p] = '0;
      for (int l = 0; l < NLANE; l++)
        if (lane_pool(l) == p) lanes_total[p] = lanes_total[p] + 32'(occupancy[l]);
      credit_total[p] = 32'(credits[p]) + 32'(reserved[p]) + 32'(fwd_flits[p]) + lanes_total[p] +
                        32'(pending[p]) + 32'(waiting[p]) + 32'(return_flight[p]);
    end
  end
  int reserved_total;
  always_comb begin
    reserved_total = 0;
    for (int p = 0; p < NPOOL; p++) reserved_total = reserved_total + int'(reserved[p]);
  end

  // An injected fault that changes the credits in pool p's loop, this cycle: a count dropped or
  // enlarged without recovery; an enlarged update accepted with it (a dropped update, or an
  // enlarged one refused, changes no credit). The pool's loop checks stand aside from the cycle of
  // such a fault until the next reset (as rtl/observe/credit_link_probe.sv does for credit_link).
  logic [NPOOL-1:0] fault_breaks, pool_whole_q, pool_checked;
  logic [NLANE-1:0] lane_checked;
  assign fault_breaks = (RECOVERY == 1) ? (fault_added & ~update_refused[NPOOL-1:0]) : (fault_dropped | fault_added);
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) pool_whole_q <= '1;
    else        pool_whole_q <= pool_whole_q & ~fault_breaks;
  end
  assign pool_checked = pool_whole_q & ~fault_breaks;
  always_comb begin
    lane_checked = '0;
    for (int l = 0; l < NLANE; l++)
      for (int p = 0; p < NPOOL; p++)
        if (lane_pool(l) == p) lane_checked[l] = pool_checked[p];
  end

  // The checker samples rst_n on the clock; the lint note about mixing that with the async
  // reset above is about synthesis, not about this checker.
  /* verilator lint_off SYNCASYNCNET */
  for (genvar p = 0; p < NPOOL; p++) begin : g_pool_checks
    a_conservation: assert property (@(posedge clk) disable iff (!rst_n)
        !pool_checked[p] || int'(credit_total[p]) == pool_b(p))
      else $error("channel_link: conservation of pool %0d: credits %0d + reserved %0d + fwd %0d + lanes %0d + pending %0d + waiting %0d + returning %0d = %0d != B %0d",
                  p, credits[p], reserved[p], fwd_flits[p], lanes_total[p], pending[p], waiting[p],
                  return_flight[p], credit_total[p], pool_b(p));
    // With recovery the credit limit keeps it even after an accepted corrupted update.
    a_credits_within_b: assert property (@(posedge clk) disable iff (!rst_n)
        !(RECOVERY == 1 || pool_checked[p]) || int'(credits[p]) <= pool_b(p))
      else $error("channel_link: the sender never holds more than B credits of pool %0d: credits %0d > B %0d",
                  p, credits[p], pool_b(p));
  end
  a_no_overflow: assert property (@(posedge clk) disable iff (!rst_n)
      (overflow & lane_checked) == '0)
    else $error("channel_link: no flit arrives at a full lane: overflow %0h (arrive_lane %0d)", overflow, arrive_lane);
  a_one_grant: assert property (@(posedge clk) disable iff (!rst_n)
      $onehot0(grant))
    else $error("channel_link: at most one grant per cycle: grant %0b", grant);
  a_grant_only_eligible: assert property (@(posedge clk) disable iff (!rst_n)
      (grant & ~eligible) == '0)
    else $error("channel_link: a grant only to an eligible channel: grant %0b, eligible %0b", grant, eligible);
  a_no_grant_in_packet: assert property (@(posedge clk) disable iff (!rst_n)
      !(in_packet && grant != '0))
    else $error("channel_link: no grant while a packet is in progress: grant %0b with %0d flits left", grant, flits_left);
  a_reserved_is_packet: assert property (@(posedge clk) disable iff (!rst_n)
      reserved_total == int'(flits_left))
    else $error("channel_link: the reserved credits are the flits of the packet in progress: reserved %0d, flits left %0d",
                reserved_total, flits_left);

  // ---- recovery, per pool (RECOVERY = 1). Each check recomputes what it needs from the registers
  // (CR, CS, quiet, R) and the cycle's inputs, apart from the design's own wanted/accept terms.
  if (RECOVERY == 1) begin : g_recovery_checks
    localparam int NW = TOTAL_BITS;
    logic [NPOOL-1:0] due;          // news or the resend is due, per pool
    always_comb begin
      for (int p = 0; p < NPOOL; p++)
        due[p] = NW'(released_total[p] + NW'(released[p])) != sent_total[p] ||
                 int'(g_recovery.quiet[p]) == RESEND - 1;
    end
    for (genvar p = 0; p < NPOOL; p++) begin : g_pool
      a_quiet_within_resend: assert property (@(posedge clk) disable iff (!rst_n)
          int'(g_recovery.quiet[p]) <= RESEND - 1)
        else $error("channel_link: pool %0d: quiet %0d > RESEND - 1 = %0d", p, g_recovery.quiet[p], RESEND - 1);
      a_update_only_when_wanted: assert property (@(posedge clk) disable iff (!rst_n)
          !return_message[p] || due[p])
        else $error("channel_link: pool %0d: an update only with news or when the resend is due: released total %0d, last sent %0d",
                    p, released_total[p], sent_total[p]);
      if (SHARED_RET == 0) begin : g_dedicated
        a_update_sent_when_wanted: assert property (@(posedge clk) disable iff (!rst_n)
            !due[p] || return_message[p])
          else $error("channel_link: pool %0d: a dedicated lane sends every wanted update: released total %0d + %0d, last sent %0d, quiet %0d, none sent",
                      p, released_total[p], released[p], sent_total[p], g_recovery.quiet[p]);
      end
      a_refused_only_over_limit: assert property (@(posedge clk) disable iff (!rst_n)
          !update_refused[p] ||
          int'(credits[p]) + int'(NW'(g_recovery.arriving_value[p] - accepted_total[p])) > pool_b(p))
        else $error("channel_link: pool %0d: an update is refused only over the limit: total %0d, accepted %0d, credits %0d, B %0d",
                    p, g_recovery.arriving_value[p], accepted_total[p], credits[p], pool_b(p));
      a_accepted_within_limit: assert property (@(posedge clk) disable iff (!rst_n)
          int'(credits[p]) + int'(credits_arriving[p]) <= pool_b(p))
        else $error("channel_link: pool %0d: credits handed over keep credits within B: credits %0d + arriving %0d > B %0d",
                    p, credits[p], credits_arriving[p], pool_b(p));
      // A correct receiver never sends a total the sender must refuse: a refusal needs a corrupted
      // update this cycle, or a loop already broken by an accepted one.
      a_refused_only_if_corrupted: assert property (@(posedge clk) disable iff (!rst_n)
          !update_refused[p] || fault_added[p] || !pool_whole_q[p])
        else $error("channel_link: pool %0d: an update refused that no corruption explains: total %0d, accepted %0d, credits %0d",
                    p, g_recovery.arriving_value[p], accepted_total[p], credits[p]);
    end
    if (SHARED_RET == 1) begin : g_shared
      a_one_update_per_cycle: assert property (@(posedge clk) disable iff (!rst_n)
          $onehot0(return_message))
        else $error("channel_link: one update per cycle on the shared return path: return_message %0b", return_message);
      a_shared_sends_when_wanted: assert property (@(posedge clk) disable iff (!rst_n)
          due == '0 || return_message != '0)
        else $error("channel_link: the shared return path sends when a pool wants an update: wanted %0b, none sent", due);
    end
  end

  // ---- covers (named for a --coverage-user report; listed in the header), per pool and per
  // channel. Each lane's rx_buffer covers its own full and full-to-one-free states.
  logic [NPOOL-1:0] send_pool;   // the pool of the flit on the link (none: 0)
  assign send_pool = send ? pool_of_lane(send_lane) : '0;
  for (genvar p = 0; p < NPOOL; p++) begin : g_pool_covers
    logic [17:0] next_credits;   // the pool's count after this cycle's edge
    assign next_credits = 18'(credits[p]) - 18'(taken[p]) + 18'(credits_arriving[p]);
    cover_pool_zero: cover property (@(posedge clk) disable iff (!rst_n)
        credits[p] == '0);
    cover_pool_zero_to_one: cover property (@(posedge clk) disable iff (!rst_n)
        credits[p] == '0 && next_credits == 18'd1);
    cover_pool_one_to_zero: cover property (@(posedge clk) disable iff (!rst_n)
        credits[p] == 16'd1 && next_credits == '0);
    cover_pool_exhausted_other_sends: cover property (@(posedge clk) disable iff (!rst_n)
        credits[p] == '0 && send && !send_pool[p]);
    if (pool_k(p) > 1) begin : g_batch
      cover_pool_batch_returned: cover property (@(posedge clk) disable iff (!rst_n)
          int'(released[p]) == pool_k(p));
    end
    if (RECOVERY == 1) begin : g_recovery
      cover_pool_update_refused: cover property (@(posedge clk) disable iff (!rst_n)
          update_refused[p]);
      cover_pool_resend: cover property (@(posedge clk) disable iff (!rst_n)
          return_message[p] && credits_returned[p] == '0);
    end
    if (SHARED_RET == 1) begin : g_shared
      cover_pool_waits_for_return: cover property (@(posedge clk) disable iff (!rst_n)
          waiting[p] != '0);
    end
  end
  for (genvar c = 0; c < NCH; c++) begin : g_channel_covers
    cover_channel_granted: cover property (@(posedge clk) disable iff (!rst_n)
        grant[c]);
    cover_channel_blocked: cover property (@(posedge clk) disable iff (!rst_n)
        have[c] && !eligible[c]);
    cover_channel_waits_for_packet: cover property (@(posedge clk) disable iff (!rst_n)
        eligible[c] && in_packet);
    cover_channel_multi_flit: cover property (@(posedge clk) disable iff (!rst_n)
        grant[c] && rest_flits[c] != '0);
    if (ch_split(c)) begin : g_split
      cover_channel_header_only: cover property (@(posedge clk) disable iff (!rst_n)
          grant[c] && rest_flits[c] == '0);
    end
  end
  cover_contention: cover property (@(posedge clk) disable iff (!rst_n)
      grant != '0 && !$onehot(eligible));
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
