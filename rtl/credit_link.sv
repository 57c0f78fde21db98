// credit_link: credit-controlled channels on one link, sender to receiver and the credits back
// (seeds 000 and 001's loop; seed 002's CHI channels; seed 003's PCIe header/data pools and
// InfiniBand virtual lanes; docs/channels.md). With its defaults it is the seeds' link: one
// channel, one lane, one pool of B credits, one-credit flits.
//
//   channels --[arbiter]--> sender: a credit_counter per pool --[fwd: L stages of {valid, lane, payload}]
//      ^                                                          --> lanes: an rx_buffer each (B_p slots)
//      |                                                                  | drain[lane's channel]
//      +--[ret: L + SYNC stages, a pipeline per pool or one shared]<-- per pool: return_policy,
//                                                   credit_return (batches of K_p), return_port
//                                                   (or update_tx with RECOVERY), round-robin on
//                                                   a shared path; update_rx at the sender
//
// Words: a channel c has one lane (plain) or two (header/data: its header lane CH_LANE[c] and its
// data lane CH_LANE[c] + 1); every lane belongs to one pool: one credit counter at the sender and
// the slots it stands for. A lane holds at most B_p flits of its pool p. A packet on channel c of
// `bytes` bytes, unit U_c: plain, n = max(1, ceil(bytes / U_c)) flits on its lane, n credits of its
// pool; header/data, one header flit on the header lane then d = ceil(bytes / U_c) data flits (0
// or more) on the data lane, one credit of the header pool and d of the data pool, together. Flit
// i (0 first, the header is flit 0) carries tag + i. With MULTI_CREDIT = 0 every packet is one
// flit costing one credit whatever its bytes (the seeds' link; the counters take one credit at a
// time, as seed 002's contract has it).
//
// Parameters. Vectors have fixed maximum sizes (8 channels, 16 lanes, 16 pools); entries past NCH,
// NLANE, NPOOL are ignored. The POOL_ vectors default to the scalar of the same name, so a link of
// one pool is set by its scalars alone.
//   L >= 1, W 1..32          stages on the forward link and on every return path; payload bits
//   SYNC >= 0                synchroniser stages a clock-domain crossing adds to every return path
//   FREE_DELAY >= 0          cycles from a flit leaving its lane to its slot being freed (a late free)
//   NCH 1..8, NLANE 1..16, NPOOL 1..16   channels, lanes, pools
//   MULTI_CREDIT 0/1         0: one-credit flits (see above); 1: packets cost their flits' credits
//   SHARED_RET 0/1           0: a return path per pool (CHI's credit wires); 1: one shared path,
//                            one (pool, count) message per cycle (PCIe's UpdateFC, InfiniBand)
//   CH_LANE[c*8 +: 8]        channel c's first (header or only) lane, < NLANE
//   CH_SPLIT[c]              1: header/data channel; its data lane CH_LANE + 1 < NLANE
//   CH_UNIT[c*16 +: 16] >= 1 bytes per credit (and per flit) of channel c
//   LANE_CH[l*8 +: 8]        the channel lane l belongs to (its consumer drains it)
//   LANE_POOL[l*8 +: 8]      the pool lane l belongs to
//   POOL_B[p*16 +: 16]       pool p's credits = the slots of each of its lanes (default B)
//   POOL_K[p*16 +: 16]       pool p's return batch, 1..B_p (default K)
//   POOL_FULL_RATE[p]        pool p must carry a flit every cycle: elaboration fails unless B_p
//                            covers the round trip 2L + 2 + SYNC + FREE_DELAY + K_p - 1 (seed 001's
//                            "lasting fix"; default FULL_RATE)
//   POOL_POLICY[p], POOL_LOW[p*16 +: 16], POOL_IDLE[p*16 +: 16], POOL_TIMEOUT[p*16 +: 16]
//                            pool p's return policy (return_policy.sv: 0 batches, 1 seed 000's
//                            hybrid; defaults POLICY, LOW, IDLE, TIMEOUT)
//   RECOVERY 0/1             0: the return paths carry counts; 1: cumulative credit updates per
//                            pool (update_tx at the receiver, update_rx at the sender;
//                            docs/recovery.md)
//   POOL_TOTAL_BITS[p*8 +: 8], POOL_RESEND[p*16 +: 16]   pool p's running totals' width n_p
//                            (2^n_p > 2 B_p) and resend period T_p (defaults TOTAL_BITS, RESEND)
// Resets, asynchronous and active low, one per end so a one-sided reset can be tested:
//   rst_tx_n   the sender end: the counters, the arbiter, the packet in progress, the forward path.
//   rst_rx_n   the receiver end: the lanes, the return logic and the return paths.
//   A link is reset by holding both low across a rising edge; each pool then holds B_p credits.
// Inputs, all sampled in the cycle they are presented:
//   have[c], bytes[c*16 +: 16], tag[c*W +: W]   channel c presents its head packet; the source
//                            keeps it there until grant[c], and presents the next from the next cycle.
//   drain[c]                 channel c's consumer takes the head flit of each of its lanes.
//   flush[p]                 pool p's return logic returns every pending credit this cycle.
//   return_busy[r]           reverse traffic holds return path r this cycle (r = p with a path per
//                            pool, r = 0 on the shared path): its messages wait (tie low: the
//                            path carries credits alone).
//   fault_drop[p], fault_corrupt[p], fault_add   fault injection, a test hook for a corrupted
//                            return wire (tie low in silicon), on the message arriving for pool p
//                            this cycle (the last return stage), only if there is one: a non-zero
//                            count without recovery, a valid update with it. fault_drop[p] loses
//                            it (drop wins); else fault_corrupt[p] makes it larger by fault_add:
//                            a count becomes count + fault_add truncated to its width; a total
//                            becomes total + fault_add mod 2^n_p, which update_rx then accepts or
//                            refuses.
// Outputs, the functional ones:
//   eligible[c]              combinational: have[c] and, for every pool p, enough credits for the
//                            packet's whole cost (header and data needs add up when they draw from
//                            the same pool).
//   grant[c]                 combinational: channel c's head packet goes this cycle.
//   send, send_lane, send_payload   the flit on the link this cycle (0 when send is low).
//   pop[l], pop_payload[l*W +: W]   lane l's head flit leaves to the consumer this cycle.
// Arbitration: one flit per cycle, packets never interleaved. While a packet is in progress (its
// head left in an earlier cycle and flits remain) its next flit is sent and nothing is granted.
// Otherwise a round-robin arbiter grants the first eligible channel after the one granted last
// (channel 0 first after a reset). With one channel whose packets draw on one pool, that pool's
// counter decides: it is offered the packet's cost (want_send), and its do_send is the grant, as
// in seed 002's counter; with more, the arbiter decides from the counts and the counters are
// charged what the granted packet costs.
// Timing (counts are the state at the start of the cycle, events this cycle's; every register
// moves at the rising edge):
//   t            grant: the head flit is sent; at the edge each pool's counter is charged the
//                packet's cost, and reserved[p] holds the credits of its flits not sent yet.
//   t+1 ...      one flit of the packet per cycle, each moving a credit from reserved to the link.
//   t + L        a flit sent in t is `arrive` (the last forward stage); at the edge it joins its
//                lane (overflow if the lane is full and does not pop this cycle: it is dropped).
//   t + L + 1    the earliest pop; its slot is freed FREE_DELAY cycles later (slots_freeing).
//                Per pool, freed credits join the batch (credit_return), released once they reach
//                K_p or the policy flushes; released credits enter the pool's return path the
//                first cycle it is free (return_port: return_waiting), or wait their turn on the
//                shared path (a round-robin over pools, pool 0 first after a reset).
//   t + 2L + 1 + SYNC   the credit is in the last return stage (credits_arriving);
//   t + 2L + 2 + SYNC   it is spent again. RTT = 2L + 2 + SYNC + FREE_DELAY, throughput
//                min(1, B / RTT) with batches of one (seed 001).
// Recovery (RECOVERY = 1), per pool: the receiver's update_tx keeps the running total released CR
// and the total last sent CS and sends an update carrying CR' = CR + released whenever there is
// news and its path is free, and again every T_p cycles without one; the sender's update_rx keeps
// the total last accepted R and accepts an update v if credits + (v - R) <= B_p, handing d = v - R
// to the counter. On the shared path one update per cycle, round-robin over the pools that want
// one. A lost update costs time, never credits.
// Invariant, per pool p, every cycle from a reset of both ends on (checked by the conservation
// scoreboard from the observed ports, and asserted by the probe bound into this link,
// rtl/observe/credit_link_probe.sv):
//   credits + reserved + fwd_flits + occupancy of p's lanes + slots_freeing + pending_returns +
//   return_waiting + return_flight == B_p
// A reset of one end alone breaks it on purpose, and so does an injected fault that drops or
// enlarges a count (or an enlarged update that is accepted); see the probe.
// Observed internal state (read by name by the probe and the testbench top), packed arrays of
// 16-bit values, index = pool or lane: per pool credits, can_send (credits != 0), reserved,
// fwd_flits, slots_freeing, pending_returns, return_waiting, return_flight, credits_arriving,
// credits_returned; the masks policy_flush, return_message, update_refused, fault_dropped,
// fault_added; per lane occupancy, overflow; arrive, arrive_lane; released_total, sent_total,
// accepted_total (0 without recovery); the pipelines' stages fwd_stages and each path's ret_stages.
// Covers (named for a --coverage-user report), per pool (g_pool_covers[p]): cover_pool_zero,
// cover_pool_zero_to_one, cover_pool_one_to_zero, cover_pool_exhausted_other_sends,
// g_batch.cover_pool_batch_returned (K_p > 1), g_recovery.cover_pool_update_refused,
// g_recovery.cover_pool_resend, g_shared.cover_pool_waits_for_return; per channel
// (g_channel_covers[c]): cover_channel_granted, cover_channel_blocked,
// cover_channel_waits_for_packet, cover_channel_multi_flit, g_split.cover_channel_header_only;
// and cover_contention. Each block asserts and covers its own contract (see its header).
module credit_link #(
  parameter int L = 4,
  parameter int W = 32,
  parameter int SYNC = 0,
  parameter int FREE_DELAY = 0,
  parameter int B = 12,
  parameter int K = 1,
  parameter int FULL_RATE = 0,
  parameter int POLICY = 0,
  parameter int LOW = 0,
  parameter int IDLE = 1,
  parameter int TIMEOUT = 0,
  parameter int RECOVERY = 0,
  parameter int TOTAL_BITS = 8,
  parameter int RESEND = 16,
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
  parameter logic [15:0]      POOL_FULL_RATE = {16{FULL_RATE != 0}},
  parameter logic [15:0]      POOL_POLICY = {16{POLICY != 0}},
  parameter logic [16*16-1:0] POOL_LOW = {16{16'(LOW)}},
  parameter logic [16*16-1:0] POOL_IDLE = {16{16'(IDLE)}},
  parameter logic [16*16-1:0] POOL_TIMEOUT = {16{16'(TIMEOUT)}},
  parameter logic [16*8-1:0]  POOL_TOTAL_BITS = {16{8'(TOTAL_BITS)}},
  parameter logic [16*16-1:0] POOL_RESEND = {16{16'(RESEND)}},
  localparam int NRET = (SHARED_RET == 1) ? 1 : NPOOL
) (
  input  logic                 clk,
  input  logic                 rst_tx_n,
  input  logic                 rst_rx_n,
  input  logic [NCH-1:0]       have,
  input  logic [NCH*16-1:0]    bytes,
  input  logic [NCH*W-1:0]     tag,
  input  logic [NCH-1:0]       drain,
  input  logic [NPOOL-1:0]     flush,
  input  logic [NRET-1:0]      return_busy,
  // fault injection on the message arriving for each pool (tie low in silicon)
  input  logic [NPOOL-1:0]     fault_drop,
  input  logic [NPOOL-1:0]     fault_corrupt,
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [15:0]          fault_add,   // its low bits: a count's or a total's width
  /* verilator lint_on UNUSEDSIGNAL */
  // link.sender: the arbiter and the flit in
  output logic [NCH-1:0]       grant,
  output logic [NCH-1:0]       eligible,
  output logic                 send,
  output logic [7:0]           send_lane,
  output logic [W-1:0]         send_payload,
  // link.rx: the flits out
  output logic [NLANE-1:0]     pop,
  output logic [NLANE*W-1:0]   pop_payload
);
  // A flit on the forward link: {valid, lane, payload}.
  localparam int FW = 1 + 8 + W;
  localparam int RET_STAGES = L + SYNC;
  localparam int ROUND_TRIP = 2 * L + 2 + SYNC + FREE_DELAY;

  // The parameter tables, one entry at a time (out-of-range entries read as 0 or 1, so that a bad
  // table reaches the $error checks below instead of failing on a select).
  function automatic int ch_lane(int c);
    ch_lane = (c >= 0 && c < 8) ? 32'(CH_LANE[c*8 +: 8]) : 0;
  endfunction
  function automatic bit ch_split(int c);
    ch_split = (c >= 0 && c < 8) ? CH_SPLIT[c] : 1'b0;
  endfunction
  function automatic int ch_unit(int c);
    ch_unit = (c >= 0 && c < 8) ? 32'(CH_UNIT[c*16 +: 16]) : 1;
  endfunction
  function automatic int lane_ch(int l);
    lane_ch = (l >= 0 && l < 16) ? 32'(LANE_CH[l*8 +: 8]) : 0;
  endfunction
  function automatic int lane_pool(int l);
    lane_pool = (l >= 0 && l < 16) ? 32'(LANE_POOL[l*8 +: 8]) : 0;
  endfunction
  function automatic int pool_b(int p);
    pool_b = (p >= 0 && p < 16) ? 32'(POOL_B[p*16 +: 16]) : 1;
  endfunction
  function automatic int pool_k(int p);
    pool_k = (p >= 0 && p < 16) ? 32'(POOL_K[p*16 +: 16]) : 1;
  endfunction
  function automatic int pool_total_bits(int p);
    pool_total_bits = (p >= 0 && p < 16) ? 32'(POOL_TOTAL_BITS[p*8 +: 8]) : 8;
  endfunction
  function automatic int pool_field16(logic [16*16-1:0] table16, int p);
    pool_field16 = (p >= 0 && p < 16) ? 32'(table16[p*16 +: 16]) : 0;
  endfunction
  // The lane a channel's flits after the head go to: the data lane of a header/data channel.
  function automatic int ch_rest_lane(int c);
    ch_rest_lane = ch_split(c) ? ch_lane(c) + 1 : ch_lane(c);
  endfunction
  // The pool of a lane number carried on the link, one-hot (0 for a number that is no lane).
  function automatic logic [NPOOL-1:0] pool_of_lane(logic [7:0] lane);
    logic [NPOOL-1:0] mask;
    mask = '0;
    for (int l = 0; l < NLANE; l++)
      for (int p = 0; p < NPOOL; p++)
        if (lane == 8'(l) && lane_pool(l) == p) mask[p] = 1'b1;
    pool_of_lane = mask;
  endfunction
  // The widest running total (the shared return path carries any pool's).
  function automatic int widest_total();
    int n;
    n = 1;
    for (int p = 0; p < NPOOL; p++) if (pool_total_bits(p) > n) n = pool_total_bits(p);
    widest_total = n;
  endfunction
  localparam int NWMAX = widest_total();

  // Parameter contract, checked at elaboration.
  if (L < 1) $error("credit_link: L = %0d, need L >= 1", L);
  if (W < 1 || W > 32) $error("credit_link: W = %0d, need 1 <= W <= 32", W);
  if (SYNC < 0) $error("credit_link: SYNC = %0d, need SYNC >= 0", SYNC);
  if (FREE_DELAY < 0) $error("credit_link: FREE_DELAY = %0d, need FREE_DELAY >= 0", FREE_DELAY);
  if (NCH < 1 || NCH > 8) $error("credit_link: NCH = %0d, need 1 <= NCH <= 8", NCH);
  if (NLANE < 1 || NLANE > 16) $error("credit_link: NLANE = %0d, need 1 <= NLANE <= 16", NLANE);
  if (NPOOL < 1 || NPOOL > 16) $error("credit_link: NPOOL = %0d, need 1 <= NPOOL <= 16", NPOOL);
  if (MULTI_CREDIT < 0 || MULTI_CREDIT > 1) $error("credit_link: MULTI_CREDIT = %0d, need 0 or 1", MULTI_CREDIT);
  if (SHARED_RET < 0 || SHARED_RET > 1)
    $error("credit_link: SHARED_RET = %0d, need 0 (a return path per pool) or 1 (one shared return path)", SHARED_RET);
  if (RECOVERY < 0 || RECOVERY > 1)
    $error("credit_link: RECOVERY = %0d, need 0 (counts) or 1 (cumulative updates)", RECOVERY);
  for (genvar c = 0; c < NCH && c < 8; c++) begin : g_check_channel
    if (ch_unit(c) < 1) $error("credit_link: CH_UNIT of channel %0d = %0d, need >= 1 byte per credit", c, ch_unit(c));
    if (ch_lane(c) >= NLANE)
      $error("credit_link: CH_LANE of channel %0d = %0d, need a lane < NLANE = %0d", c, ch_lane(c), NLANE);
    else if (lane_ch(ch_lane(c)) != c)
      $error("credit_link: channel %0d's lane %0d has LANE_CH = %0d, need %0d", c, ch_lane(c), lane_ch(ch_lane(c)), c);
    if (ch_split(c) && ch_rest_lane(c) >= NLANE)
      $error("credit_link: channel %0d is header/data but its data lane %0d (CH_LANE + 1) is not < NLANE = %0d",
             c, ch_rest_lane(c), NLANE);
    else if (ch_split(c) && lane_ch(ch_rest_lane(c)) != c)
      $error("credit_link: channel %0d's data lane %0d has LANE_CH = %0d, need %0d",
             c, ch_rest_lane(c), lane_ch(ch_rest_lane(c)), c);
    if (ch_split(c) && MULTI_CREDIT == 0)
      $error("credit_link: channel %0d is header/data, which needs MULTI_CREDIT = 1", c);
  end
  for (genvar l = 0; l < NLANE && l < 16; l++) begin : g_check_lane
    if (lane_ch(l) >= NCH) $error("credit_link: LANE_CH of lane %0d = %0d, need a channel < NCH = %0d", l, lane_ch(l), NCH);
    if (lane_pool(l) >= NPOOL) $error("credit_link: LANE_POOL of lane %0d = %0d, need a pool < NPOOL = %0d", l, lane_pool(l), NPOOL);
  end
  for (genvar p = 0; p < NPOOL && p < 16; p++) begin : g_check_pool
    if (pool_b(p) < 1 || pool_b(p) > 65535) $error("credit_link: POOL_B of pool %0d = %0d, need 1..65535", p, pool_b(p));
    if (pool_k(p) < 1 || pool_k(p) > pool_b(p))
      $error("credit_link: POOL_K of pool %0d = %0d, need 1 <= K <= B = %0d", p, pool_k(p), pool_b(p));
    if (pool_field16(POOL_LOW, p) > pool_b(p))
      $error("credit_link: POOL_LOW of pool %0d = %0d, need 0 <= LOW <= B = %0d", p, pool_field16(POOL_LOW, p), pool_b(p));
    if (pool_field16(POOL_IDLE, p) < 1)
      $error("credit_link: POOL_IDLE of pool %0d = %0d, need IDLE >= 1", p, pool_field16(POOL_IDLE, p));
    if (pool_total_bits(p) < 1 || pool_total_bits(p) > 16)
      $error("credit_link: POOL_TOTAL_BITS of pool %0d = %0d, need 1..16", p, pool_total_bits(p));
    if (RECOVERY == 1 && pool_total_bits(p) <= 16 && (1 << pool_total_bits(p)) <= 2 * pool_b(p))
      $error("credit_link: RECOVERY needs 2^TOTAL_BITS > 2B for every pool: pool %0d has TOTAL_BITS = %0d, B = %0d (need TOTAL_BITS >= %0d)",
             p, pool_total_bits(p), pool_b(p), $clog2(2 * pool_b(p) + 1));
    if (RECOVERY == 1 && pool_field16(POOL_RESEND, p) < 1)
      $error("credit_link: POOL_RESEND of pool %0d = %0d, need RESEND >= 1", p, pool_field16(POOL_RESEND, p));
    // Sizing assertion: a credit's round trip is L stages forward, a cycle in the lane, L stages
    // back (plus SYNC), a cycle in the counter, plus a late free, plus up to K - 1 cycles waiting
    // for its batch (seed 000). A shared return path adds waiting behind other pools' messages,
    // which no B covers for certain; the declaration is about the loop as built.
    if (POOL_FULL_RATE[p] && pool_b(p) < ROUND_TRIP + pool_k(p) - 1 && NPOOL == 1)
      $error("credit_link: FULL_RATE is declared but B = %0d does not cover the round trip (2L + 2 + SYNC + FREE_DELAY + K - 1 = %0d cycles with L = %0d, SYNC = %0d, FREE_DELAY = %0d, K = %0d): need B >= %0d",
             pool_b(p), ROUND_TRIP + pool_k(p) - 1, L, SYNC, FREE_DELAY, pool_k(p), ROUND_TRIP + pool_k(p) - 1);
    else if (POOL_FULL_RATE[p] && pool_b(p) < ROUND_TRIP + pool_k(p) - 1)
      $error("credit_link: POOL_FULL_RATE is declared for pool %0d but B = %0d does not cover the round trip (2L + 2 + SYNC + FREE_DELAY + K - 1 = %0d cycles with L = %0d, SYNC = %0d, FREE_DELAY = %0d, K = %0d): need B >= %0d",
             p, pool_b(p), ROUND_TRIP + pool_k(p) - 1, L, SYNC, FREE_DELAY, pool_k(p), ROUND_TRIP + pool_k(p) - 1);
  end

  // ---- The observed state and events (the probe and the testbench top read these by name).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NPOOL*16-1:0] credits, reserved, fwd_flits, slots_freeing, pending_returns, return_waiting,
                          return_flight, credits_arriving, credits_returned;
  logic [NPOOL-1:0]       can_send, policy_flush, return_message, update_refused, fault_dropped, fault_added;
  logic [NPOOL*16-1:0] released_total, sent_total, accepted_total;
  logic [NLANE*16-1:0] occupancy;
  logic [NLANE-1:0]       overflow;
  logic                   arrive;
  logic [7:0]             arrive_lane;
  logic [L*FW-1:0]        fwd_stages;
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- link.sender: each channel's head packet, its cost per pool and its flits.
  logic [NCH*NPOOL*17-1:0] need;        // credits of each pool the head packet takes
  logic [NCH*17-1:0]       rest_flits;  // flits after the head
  always_comb begin
    for (int c = 0; c < NCH; c++) begin
      logic [16:0] units, head_cost, data_cost;  // units = ceil(bytes / U_c)
      units     = (17'(bytes[c*16 +: 16]) + 17'(ch_unit(c)) - 17'd1) / 17'(ch_unit(c));
      head_cost = (MULTI_CREDIT == 0 || ch_split(c)) ? 17'd1 : ((units == '0) ? 17'd1 : units);
      data_cost = ch_split(c) ? units : 17'd0;
      rest_flits[c*17 +: 17] = ch_split(c) ? units : head_cost - 17'd1;
      for (int p = 0; p < NPOOL; p++)
        need[(c*NPOOL + p)*17 +: 17] = ((lane_pool(ch_lane(c)) == p) ? head_cost : 17'd0) +
                     ((lane_pool(ch_rest_lane(c)) == p) ? data_cost : 17'd0);
    end
  end

  // The packet in progress: the flits still to send (none: the link is free to grant), the lane
  // they go to and the payload of the next one.
  logic [16:0]  flits_left;
  logic [7:0]   busy_lane;
  logic [W-1:0] next_payload;
  logic         in_packet;
  assign in_packet = flits_left != '0;

  // Enough credits for each channel's head packet, by the counts.
  logic [NCH-1:0] enough;
  always_comb begin
    for (int c = 0; c < NCH; c++) begin
      enough[c] = 1'b1;
      for (int p = 0; p < NPOOL; p++)
        if ({1'b0, credits[p*16 +: 16]} < need[(c*NPOOL + p)*17 +: 17]) enough[c] = 1'b0;
    end
  end

  // The counters: each pool's credit_counter is offered a cost (want_send) and spends it at the
  // edge when it says do_send.
  localparam bit COUNTER_DECIDES = (NCH == 1) && !CH_SPLIT[0];
  localparam int TAKE_BITS = (MULTI_CREDIT == 1) ? 17 : 1;
  logic [NPOOL*17-1:0] want;
  logic [NPOOL-1:0]       do_send;

  // The round-robin arbiter: the first eligible channel after last_grant (channel 0 first after a
  // reset). Nothing is granted while a packet is in progress.
  logic [2:0]     last_grant;
  logic [NCH-1:0] chosen;
  always_comb begin
    int c;
    c      = 0;
    chosen = '0;
    if (!in_packet) begin
      for (int i = 1; i <= NCH; i++) begin
        c = 32'(last_grant) + i;
        if (c >= NCH) c = c - NCH;
        if (chosen == '0 && have[c] && (COUNTER_DECIDES || enough[c])) chosen[c] = 1'b1;
      end
    end
  end

  // The chosen channel's packet, as the sender takes it at the edge.
  logic [NPOOL*17-1:0] cost;          // credits the chosen packet takes
  logic [16:0]            chosen_rest_flits;
  logic [7:0]             chosen_lane, chosen_rest_lane;
  logic [W-1:0]           chosen_tag;
  logic [2:0]             chosen_channel;
  always_comb begin
    cost              = '0;
    chosen_rest_flits = '0;
    chosen_lane       = '0;
    chosen_rest_lane  = '0;
    chosen_tag        = '0;
    chosen_channel    = last_grant;
    for (int c = 0; c < NCH; c++) begin
      if (chosen[c]) begin
        cost              = need[c*NPOOL*17 +: NPOOL*17];
        chosen_rest_flits = rest_flits[c*17 +: 17];
        chosen_lane       = 8'(ch_lane(c));
        chosen_rest_lane  = 8'(ch_rest_lane(c));
        chosen_tag        = tag[c*W +: W];
        chosen_channel    = 3'(c);
      end
    end
  end
  assign want = cost;

  // With one channel drawing on one pool, that pool's counter decides (seed 002's do_send);
  // otherwise the arbiter did, from the counts.
  logic granted;
  if (COUNTER_DECIDES) begin : g_counter_decides
    assign granted  = chosen != '0 && do_send[lane_pool(ch_lane(0))];
    assign eligible = in_packet ? (have & enough) : NCH'(granted);
  end else begin : g_arbiter_decides
    assign granted  = chosen != '0;
    assign eligible = have & enough;
  end
  assign grant = granted ? chosen : '0;

  // The charge at the edge; of it, the credits reserved for the flits not sent yet.
  // The head flit's pool, one-hot by comparing the lane with each (as the flits after it are).
  logic [NPOOL*17-1:0] taken, reserve;
  logic [NPOOL-1:0]    chosen_pool;
  assign chosen_pool = pool_of_lane(chosen_lane);
  always_comb begin
    for (int p = 0; p < NPOOL; p++) begin
      taken[p*17 +: 17]   = granted ? cost[p*17 +: 17] : '0;
      reserve[p*17 +: 17] = taken[p*17 +: 17] - ((granted && chosen_pool[p]) ? 17'd1 : 17'd0);
    end
  end

  // The flit for the link: the next of the packet in progress, or the granted head. The counters'
  // block launches it (send, send_lane, send_payload): the project's passes it on as it is; a
  // sender of your own that owns the flit mux puts its own there, so lockstep sees what it sends.
  logic         flit;
  logic [7:0]   flit_lane;
  logic [W-1:0] flit_payload;
  assign flit         = in_packet || granted;
  assign flit_lane    = in_packet ? busy_lane : chosen_lane;
  assign flit_payload = in_packet ? next_payload : (granted ? chosen_tag : '0);

  // Each later flit moves one credit of its lane's pool from reserved to the link.
  logic [NPOOL-1:0] continuing;
  assign continuing = in_packet ? pool_of_lane(busy_lane) : '0;

  always_ff @(posedge clk or negedge rst_tx_n) begin
    if (!rst_tx_n) begin
      flits_left   <= '0;
      busy_lane    <= '0;
      next_payload <= '0;
      last_grant   <= 3'(NCH - 1);
      reserved     <= '0;
    end else begin
      flits_left   <= in_packet ? flits_left - 17'd1 : (granted ? chosen_rest_flits : '0);
      busy_lane    <= in_packet ? busy_lane : chosen_rest_lane;
      next_payload <= in_packet ? next_payload + W'(1) : chosen_tag + W'(1);
      last_grant   <= granted ? chosen_channel : last_grant;
      for (int p = 0; p < NPOOL; p++)
        reserved[p*16 +: 16] <= 16'(17'(reserved[p*16 +: 16]) + reserve[p*17 +: 17] - 17'(continuing[p]));
    end
  end

  // The counters, one per pool (rtl/credit_counters.sv: a block of its own, so a design holding
  // every channel's counter in one module takes its place as one unit).
  credit_counters #(.NPOOL(NPOOL), .POOL_B(POOL_B), .TAKE_BITS(TAKE_BITS), .W(W)) u_counters (
    .clk,
    .rst_n            (rst_tx_n),
    .credits_arriving (credits_arriving),
    .want             (want),
    .do_send          (do_send),
    .can_send         (can_send),
    .credits          (credits),
    .flit             (flit),
    .flit_lane        (flit_lane),
    .flit_payload     (flit_payload),
    .send             (send),
    .send_lane        (send_lane),
    .send_payload     (send_payload)
  );

  // ---- link.fwd
  logic [FW-1:0] fwd_out;
  pipeline #(.STAGES(L), .WIDTH(FW)) u_fwd (
    .clk,
    .rst_n  (rst_tx_n),
    .in     ({send, send_lane, send_payload}),
    .out    (fwd_out),
    .stages (fwd_stages)
  );
  assign arrive      = fwd_out[FW-1];
  assign arrive_lane = fwd_out[W +: 8];

  always_comb begin
    fwd_flits = '0;
    for (int i = 0; i < L; i++) begin
      logic [NPOOL-1:0] stage_pool;
      stage_pool = fwd_stages[i*FW + FW - 1] ? pool_of_lane(fwd_stages[i*FW + W +: 8]) : '0;
      for (int p = 0; p < NPOOL; p++) fwd_flits[p*16 +: 16] = fwd_flits[p*16 +: 16] + 16'(stage_pool[p]);
    end
  end

  // ---- link.rx: a lane per rx_buffer, B_p slots, drained by its channel's consumer; its slot
  // freed FREE_DELAY cycles after the pop.
  logic [NLANE-1:0] freed_lane;
  logic [NLANE*16-1:0] freeing_lane;
  for (genvar l = 0; l < NLANE; l++) begin : g_lane
    localparam int LANE_B = pool_b(lane_pool(l));
    logic [$clog2(LANE_B + 1)-1:0] lane_occupancy;
    rx_buffer #(.B(LANE_B), .WIDTH(W)) u_buffer (
      .clk,
      .rst_n     (rst_rx_n),
      .push      (arrive && arrive_lane == 8'(l)),
      .push_data (fwd_out[W-1:0]),
      .drain     (drain[lane_ch(l)]),
      .pop       (pop[l]),
      .pop_data  (pop_payload[l*W +: W]),
      .occupancy (lane_occupancy),
      .overflow  (overflow[l])
    );
    assign occupancy[l*16 +: 16] = 16'(lane_occupancy);
    if (FREE_DELAY > 0) begin : g_late_free
      logic [FREE_DELAY-1:0] freeing_stages;
      pipeline #(.STAGES(FREE_DELAY), .WIDTH(1)) u_free_delay (
        .clk,
        .rst_n  (rst_rx_n),
        .in     (pop[l]),
        .out    (freed_lane[l]),
        .stages (freeing_stages)
      );
      always_comb begin
        freeing_lane[l*16 +: 16] = '0;
        for (int i = 0; i < FREE_DELAY; i++) freeing_lane[l*16 +: 16] = freeing_lane[l*16 +: 16] + 16'(freeing_stages[i]);
      end
    end else begin : g_prompt_free
      assign freed_lane[l]   = pop[l];
      assign freeing_lane[l*16 +: 16] = '0;
    end
  end

  // Per pool: the slots freed this cycle, the slots still freeing, the flits its lanes hold.
  logic [NPOOL*16-1:0] freed, held_in_lanes;
  always_comb begin
    for (int p = 0; p < NPOOL; p++) begin
      freed[p*16 +: 16]         = '0;
      slots_freeing[p*16 +: 16] = '0;
      held_in_lanes[p*16 +: 16] = '0;
      for (int l = 0; l < NLANE; l++) begin
        if (lane_pool(l) == p) begin
          freed[p*16 +: 16]         = freed[p*16 +: 16] + 16'(freed_lane[l]);
          slots_freeing[p*16 +: 16] = slots_freeing[p*16 +: 16] + freeing_lane[l*16 +: 16];
          held_in_lanes[p*16 +: 16] = held_in_lanes[p*16 +: 16] + occupancy[l*16 +: 16];
        end
      end
    end
  end

  // ---- link.ret, per pool: the policy decides when to flush, credit_return batches, and the
  // released credits wait in return_port (update_tx with recovery) for their path to be free.
  // On the shared path a round-robin gives the path to one pool with something to send.
  logic [NPOOL-1:0]       path_busy;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NPOOL-1:0]       owes;       // read by the shared path's turn only
  /* verilator lint_on UNUSEDSIGNAL */
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NPOOL*16-1:0] released;   // read by the covers
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NPOOL*NWMAX-1:0] update_total;

  for (genvar p = 0; p < NPOOL; p++) begin : g_return
    localparam int BP = pool_b(p);
    localparam int CWP = $clog2(BP + 1);
    localparam int NWP = pool_total_bits(p);
    logic [CWP-1:0] pending_p, released_p, sent_p, waiting_p;
    return_policy #(.B(BP), .POLICY(POOL_POLICY[p] ? 1 : 0), .LOW(pool_field16(POOL_LOW, p)),
                    .IDLE(pool_field16(POOL_IDLE, p)), .TIMEOUT(pool_field16(POOL_TIMEOUT, p))) u_policy (
      .clk,
      .rst_n     (rst_rx_n),
      .busy      (return_busy[(SHARED_RET == 1) ? 0 : p]),
      .held      (CWP'(held_in_lanes[p*16 +: 16] + slots_freeing[p*16 +: 16] + pending_returns[p*16 +: 16] + return_waiting[p*16 +: 16])),
      .pending   (pending_p),
      .joining   (CWP'(freed[p*16 +: 16])),
      .released  (released_p),
      .flush_in  (flush[p]),
      .flush_out (policy_flush[p])
    );
    credit_return #(.B(BP), .K(pool_k(p)), .FREED_WIDTH(CWP)) u_return (
      .clk,
      .rst_n    (rst_rx_n),
      .freed    (CWP'(freed[p*16 +: 16])),
      .flush    (policy_flush[p]),
      .returned (released_p),
      .pending  (pending_p)
    );
    assign pending_returns[p*16 +: 16] = 16'(pending_p);
    assign released[p*16 +: 16]        = 16'(released_p);

    if (RECOVERY == 1) begin : g_update
      logic [NWP-1:0] total_p, released_total_p, sent_total_p;
      logic           wanted_p;
      update_tx #(.B(BP), .TOTAL_BITS(NWP), .RESEND(pool_field16(POOL_RESEND, p))) u_update_tx (
        .clk,
        .rst_n          (rst_rx_n),
        .released       (released_p),
        .busy           (path_busy[p]),
        .wanted         (wanted_p),
        .update_valid   (return_message[p]),
        .update_total   (total_p),
        .sent           (sent_p),
        .waiting        (waiting_p),
        .released_total (released_total_p),
        .sent_total     (sent_total_p)
      );
      assign owes[p]           = wanted_p;
      assign update_total[p*NWMAX +: NWMAX]   = NWMAX'(total_p);
      assign released_total[p*16 +: 16] = 16'(released_total_p);
      assign sent_total[p*16 +: 16]     = 16'(sent_total_p);
    end else begin : g_count
      return_port #(.B(BP)) u_port (
        .clk,
        .rst_n    (rst_rx_n),
        .released (released_p),
        .busy     (path_busy[p]),
        .sent     (sent_p),
        .waiting  (waiting_p)
      );
      assign owes[p]           = waiting_p != '0 || released_p != '0;
      assign return_message[p] = sent_p != '0;
      assign update_total[p*NWMAX +: NWMAX]   = '0;
      assign released_total[p*16 +: 16] = '0;
      assign sent_total[p*16 +: 16]     = '0;
    end
    assign credits_returned[p*16 +: 16] = 16'(sent_p);
    assign return_waiting[p*16 +: 16]   = 16'(waiting_p);
  end

  if (SHARED_RET == 1) begin : g_shared_turn
    // One message per cycle: the first pool after the one served last that has something to
    // send (pool 0 first after a reset); reverse traffic on the path holds everyone.
    logic [3:0]       last_return, served;
    logic [NPOOL-1:0] picked;
    always_comb begin
      int p;
      p      = 0;
      picked = '0;
      served = last_return;
      if (!return_busy[0]) begin
        for (int i = 1; i <= NPOOL; i++) begin
          p = 32'(last_return) + i;
          if (p >= NPOOL) p = p - NPOOL;
          if (picked == '0 && owes[p]) begin
            picked[p] = 1'b1;
            served    = 4'(p);
          end
        end
      end
      path_busy = ~picked;
    end
    always_ff @(posedge clk or negedge rst_rx_n) begin
      if (!rst_rx_n) last_return <= 4'(NPOOL - 1);
      else           last_return <= served;
    end
  end else begin : g_own_paths
    assign path_busy = NPOOL'(return_busy);
  end

  // ---- The return paths: L stages of wire, then SYNC synchroniser stages. A stage holds a
  // message {valid, pool, value}: a count, or with recovery a running total.
  localparam int VW = (RECOVERY == 1) ? NWMAX : 16;
  localparam int MW = 1 + 4 + VW;
  logic [NPOOL-1:0]         arriving_valid;
  logic [NPOOL*VW-1:0] arriving_value;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NRET*RET_STAGES*MW-1:0] ret_stages;   // the probe counts the credits in flight from them
  /* verilator lint_on UNUSEDSIGNAL */
  for (genvar r = 0; r < NRET; r++) begin : g_path
    logic [MW-1:0] message, arriving;
    // The value is sized in a variable of its own before the concatenation: yosys 0.23 sizes a
    // conditional of two casts inside a concatenation by its widest operand, which would push
    // the valid bit and the pool off the top of the message.
    always_comb begin
      logic [VW-1:0] value;
      message = '0;
      for (int p = 0; p < NPOOL; p++) begin
        if (RECOVERY == 1) value = VW'(update_total[p*NWMAX +: NWMAX]);
        else               value = VW'(credits_returned[p*16 +: 16]);
        if ((SHARED_RET == 1 || p == r) && return_message[p]) message = {1'b1, 4'(p), value};
      end
    end
    pipeline #(.STAGES(RET_STAGES), .WIDTH(MW)) u_ret (
      .clk,
      .rst_n  (rst_rx_n),
      .in     (message),
      .out    (arriving),
      .stages (ret_stages[r*(RET_STAGES*MW) +: (RET_STAGES*MW)])
    );
    for (genvar p = 0; p < NPOOL; p++) begin : g_arrival
      if (SHARED_RET == 1 || p == r) begin : g_mine
        assign arriving_valid[p] = arriving[MW-1] && arriving[VW +: 4] == 4'(p);
        assign arriving_value[p*VW +: VW] = arriving[VW-1:0];
      end
    end
  end

  // Credits on the way back per pool: counts in the stages, or the totals sent and not accepted.
  always_comb begin
    for (int p = 0; p < NPOOL; p++) begin
      return_flight[p*16 +: 16] = '0;
      if (RECOVERY == 1) begin
        // At most B_p credits can be on their way: R ahead of CS (a corrupted update accepted)
        // counts as none, so the extra credits show as made, by exactly their number.
        logic [15:0] flight;
        flight = 16'((sent_total[p*16 +: 16] - accepted_total[p*16 +: 16]) & ((17'd1 << pool_total_bits(p)) - 17'd1));
        return_flight[p*16 +: 16] = (32'(flight) > pool_b(p)) ? '0 : flight;
      end else begin
        for (int r = 0; r < NRET; r++)
          for (int i = 0; i < RET_STAGES; i++)
            if (ret_stages[r*(RET_STAGES*MW) + i*MW + MW - 1] && ret_stages[r*(RET_STAGES*MW) + i*MW + VW +: 4] == 4'(p))
              return_flight[p*16 +: 16] = return_flight[p*16 +: 16] + 16'(ret_stages[r*(RET_STAGES*MW) + i*MW +: VW]);
      end
    end
  end

  // ---- link.sender: the arriving messages, after the faults, become the counters' credits.
  for (genvar p = 0; p < NPOOL; p++) begin : g_arrive
    localparam int BP = pool_b(p);
    localparam int CWP = $clog2(BP + 1);
    localparam int NWP = pool_total_bits(p);
    assign fault_dropped[p] = arriving_valid[p] && fault_drop[p];
    if (RECOVERY == 1) begin : g_update
      logic [NWP-1:0] value, accepted;
      logic [CWP-1:0] handed;
      logic           refused;
      assign value = NWP'(arriving_value[p*VW +: VW]) + (fault_corrupt[p] ? NWP'(fault_add) : '0);
      assign fault_added[p] = arriving_valid[p] && !fault_drop[p] && fault_corrupt[p] && NWP'(fault_add) != '0;
      update_rx #(.B(BP), .TOTAL_BITS(NWP)) u_update_rx (
        .clk,
        .rst_n            (rst_tx_n),
        .update_valid     (arriving_valid[p] && !fault_drop[p]),
        .update_total     (value),
        .credits          (CWP'(credits[p*16 +: 16])),
        .credits_arriving (handed),
        .refused,
        .accepted_total   (accepted)
      );
      assign credits_arriving[p*16 +: 16] = 16'(handed);
      assign update_refused[p]   = refused;
      assign accepted_total[p*16 +: 16]   = 16'(accepted);
    end else begin : g_count
      // Without recovery a count of 0 is no message and is left alone; a corrupted count is
      // truncated to the count's width.
      logic [CWP-1:0] count;
      assign count = CWP'(arriving_value[p*VW +: VW]) + (fault_corrupt[p] ? CWP'(fault_add) : '0);
      assign fault_added[p] = arriving_valid[p] && !fault_drop[p] && fault_corrupt[p] && CWP'(fault_add) != '0;
      assign credits_arriving[p*16 +: 16] = (!arriving_valid[p] || fault_drop[p]) ? '0 : 16'(count);
      assign update_refused[p]   = 1'b0;
      assign accepted_total[p*16 +: 16]   = '0;
    end
  end

`ifndef SYNTHESIS
  // ---- covers (named for a --coverage-user report; listed in the header). The loop's
  // assertions live in the probe bound into this link (rtl/observe/credit_link_probe.sv).
  /* verilator lint_off SYNCASYNCNET */
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NPOOL-1:0] send_pool;   // the pool of the flit on the link (none: 0)
  /* verilator lint_on UNUSEDSIGNAL */
  assign send_pool = send ? pool_of_lane(send_lane) : '0;
  for (genvar p = 0; p < NPOOL; p++) begin : g_pool_covers
    logic [17:0] next_credits;   // the pool's count after this cycle's edge
    assign next_credits = 18'(credits[p*16 +: 16]) - 18'(taken[p*17 +: 17]) + 18'(credits_arriving[p*16 +: 16]);
    cover_pool_zero: cover property (@(posedge clk) disable iff (!rst_tx_n)
        credits[p*16 +: 16] == '0);
    cover_pool_zero_to_one: cover property (@(posedge clk) disable iff (!rst_tx_n)
        credits[p*16 +: 16] == '0 && next_credits == 18'd1);
    cover_pool_one_to_zero: cover property (@(posedge clk) disable iff (!rst_tx_n)
        credits[p*16 +: 16] == 16'd1 && next_credits == '0);
    if (NPOOL > 1) begin : g_others
      cover_pool_exhausted_other_sends: cover property (@(posedge clk) disable iff (!rst_tx_n)
          credits[p*16 +: 16] == '0 && send && !send_pool[p]);
    end
    if (pool_k(p) > 1) begin : g_batch
      cover_pool_batch_returned: cover property (@(posedge clk) disable iff (!rst_rx_n)
          32'(released[p*16 +: 16]) == pool_k(p));
    end
    if (RECOVERY == 1) begin : g_recovery
      cover_pool_update_refused: cover property (@(posedge clk) disable iff (!rst_tx_n)
          update_refused[p]);
      cover_pool_resend: cover property (@(posedge clk) disable iff (!rst_rx_n)
          return_message[p] && credits_returned[p*16 +: 16] == '0);
    end
    if (SHARED_RET == 1) begin : g_shared
      cover_pool_waits_for_return: cover property (@(posedge clk) disable iff (!rst_rx_n)
          return_waiting[p*16 +: 16] != '0);
    end
  end
  if (NCH > 1 || MULTI_CREDIT == 1) begin : g_packet_covers
    for (genvar c = 0; c < NCH; c++) begin : g_channel_covers
      cover_channel_granted: cover property (@(posedge clk) disable iff (!rst_tx_n)
          grant[c]);
      cover_channel_blocked: cover property (@(posedge clk) disable iff (!rst_tx_n)
          have[c] && !eligible[c]);
      cover_channel_waits_for_packet: cover property (@(posedge clk) disable iff (!rst_tx_n)
          eligible[c] && in_packet);
      cover_channel_multi_flit: cover property (@(posedge clk) disable iff (!rst_tx_n)
          grant[c] && rest_flits[c*17 +: 17] != '0);
      if (ch_split(c)) begin : g_split
        cover_channel_header_only: cover property (@(posedge clk) disable iff (!rst_tx_n)
            grant[c] && rest_flits[c*17 +: 17] == '0);
      end
    end
  end
  if (NCH > 1) begin : g_contention
    cover_contention: cover property (@(posedge clk) disable iff (!rst_tx_n)
        grant != '0 && !$onehot(eligible));
  end
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
