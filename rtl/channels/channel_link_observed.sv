// channel_link_observed: the testbench top the harness drives for the multi-channel link
// (docs/channels.md, last section). It wraps a channel_link (instance `dut`), gives it the low
// NCH channels of fixed-width inputs, and brings out its functional ports and the state the
// scoreboards observe inside it, at fixed widths (8 channels, 16 lanes, 16 pools), so one port
// list (cpp_models/channel_signals.def) serves every configuration. Entries beyond NCH, NLANE and
// NPOOL are 0; input entries beyond NCH are ignored.
//
// Parameters: those of credit_link, passed down unchanged (see its header for their encoding):
// the layout, SYNC, FREE_DELAY, the per-pool return policies, RECOVERY, TOTAL_BITS and RESEND.
// Ports: inputs and the functional outputs as credit_link's; the per-pool inputs flush[p],
// fault_drop[p] and fault_corrupt[p] and the per-path return_busy[r] are 16 bits (the low NPOOL,
// or 1 on a shared return path, used), fault_add one 16-bit amount (docs/recovery.md, "On the
// multi-channel link"); the resets rst_tx_n and rst_rx_n one per end; then, with the timing of
// channel_link's header (counts at the start of the cycle, events this cycle):
//   arrive, arrive_lane     the flit leaving the last forward stage, and its lane.
//   occupancy[l*16 +: 16]   flits lane l holds; overflow[l] a flit arrives at a full lane.
//   return_message[p]       a message for pool p enters the return path (a non-zero count without
//                           recovery, an update with it); update_refused[p] an update arriving for
//                           pool p is refused by the credit limit (0 without recovery).
//   policy_flush[p]         pool p's batch is flushed this cycle (the flush input or its policy).
//   per pool p, [p*16 +: 16]: credits, reserved, fwd_flits (flits on the forward link whose lane
//   is in pool p), slots_freeing (popped, not freed yet), pending, waiting, return_flight (the
//   pool's credits in its return stages),
//   credits_arriving, credits_returned. With recovery waiting = CR_p - CS_p, return_flight =
//   CS_p - R_p, credits_returned = CR'_p - CS_p when pool p's update is sent and credits_arriving =
//   d when an update is accepted.
// The observation is read from channel_link's internal signals by name (dut.credits, ...), as
// credit_link_observed reads its bound probe: the design keeps only its functional ports.
module channel_link_observed #(
  parameter int NCH = 1,
  parameter int NLANE = 1,
  parameter int NPOOL = 1,
  parameter int L = 4,
  parameter int SYNC = 0,
  parameter int FREE_DELAY = 0,
  parameter int SHARED_RET = 0,
  parameter logic [8*8-1:0]   CH_LANE = '0,
  parameter logic [7:0]       CH_SPLIT = '0,
  parameter logic [8*16-1:0]  CH_UNIT = {8{16'd1}},
  parameter logic [16*8-1:0]  LANE_CH = '0,
  parameter logic [16*8-1:0]  LANE_POOL = '0,
  parameter logic [16*16-1:0] POOL_B = {16{16'd12}},
  parameter logic [16*16-1:0] POOL_K = {16{16'd1}},
  parameter logic [15:0]      POOL_FULL_RATE = '0,
  parameter logic [15:0]      POOL_POLICY = '0,
  parameter logic [16*16-1:0] POOL_LOW = '0,
  parameter logic [16*16-1:0] POOL_IDLE = {16{16'd1}},
  parameter logic [16*16-1:0] POOL_TIMEOUT = '0,
  parameter int RECOVERY = 0,
  parameter int TOTAL_BITS = 8,
  parameter int RESEND = 16
) (
  input  logic           clk,
  input  logic           rst_tx_n,
  input  logic           rst_rx_n,
  // Fixed widths: the entries past NCH are not used by this configuration.
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [7:0]     have,
  input  logic [127:0]   bytes,
  input  logic [255:0]   tag,
  input  logic [7:0]     drain,
  input  logic [15:0]    flush,
  input  logic [15:0]    return_busy,
  input  logic [15:0]    fault_drop,
  input  logic [15:0]    fault_corrupt,
  input  logic [15:0]    fault_add,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [7:0]     grant,
  output logic [7:0]     eligible,
  output logic           send,
  output logic [7:0]     send_lane,
  output logic [31:0]    send_payload,
  output logic           arrive,
  output logic [7:0]     arrive_lane,
  output logic [15:0]    pop,
  output logic [511:0]   pop_payload,
  output logic [255:0]   occupancy,
  output logic [15:0]    overflow,
  // per pool, one bit each
  output logic [15:0]    return_message,
  output logic [15:0]    update_refused,
  output logic [15:0]    policy_flush,
  // per pool, 16 bits each
  output logic [255:0]   credits,
  output logic [255:0]   reserved,
  output logic [255:0]   fwd_flits,
  output logic [255:0]   slots_freeing,
  output logic [255:0]   pending,
  output logic [255:0]   waiting,
  output logic [255:0]   return_flight,
  output logic [255:0]   credits_arriving,
  output logic [255:0]   credits_returned
);
  localparam int NRET = (SHARED_RET == 1) ? 1 : NPOOL;
  logic [NCH-1:0]      grant_n, eligible_n;
  logic [NLANE-1:0]    pop_n;
  logic [NLANE*32-1:0] pop_payload_n;

  credit_link #(
    .NCH(NCH), .NLANE(NLANE), .NPOOL(NPOOL), .L(L), .W(32), .SYNC(SYNC), .FREE_DELAY(FREE_DELAY),
    .MULTI_CREDIT(1), .SHARED_RET(SHARED_RET),
    .CH_LANE(CH_LANE), .CH_SPLIT(CH_SPLIT), .CH_UNIT(CH_UNIT), .LANE_CH(LANE_CH), .LANE_POOL(LANE_POOL),
    .POOL_B(POOL_B), .POOL_K(POOL_K), .POOL_FULL_RATE(POOL_FULL_RATE),
    .POOL_POLICY(POOL_POLICY), .POOL_LOW(POOL_LOW), .POOL_IDLE(POOL_IDLE), .POOL_TIMEOUT(POOL_TIMEOUT),
    .RECOVERY(RECOVERY), .TOTAL_BITS(TOTAL_BITS), .RESEND(RESEND)
  ) dut (
    .clk,
    .rst_tx_n,
    .rst_rx_n,
    .have         (have[NCH-1:0]),
    .bytes        (bytes[NCH*16-1:0]),
    .tag          (tag[NCH*32-1:0]),
    .drain        (drain[NCH-1:0]),
    .flush        (flush[NPOOL-1:0]),
    .return_busy  (return_busy[NRET-1:0]),
    .fault_drop   (fault_drop[NPOOL-1:0]),
    .fault_corrupt(fault_corrupt[NPOOL-1:0]),
    .fault_add,
    .grant        (grant_n),
    .eligible     (eligible_n),
    .send,
    .send_lane,
    .send_payload,
    .pop          (pop_n),
    .pop_payload  (pop_payload_n)
  );

  assign grant            = 8'(grant_n);
  assign eligible         = 8'(eligible_n);
  assign pop              = 16'(pop_n);
  assign pop_payload      = 512'(pop_payload_n);
  assign arrive           = dut.arrive;
  assign arrive_lane      = dut.arrive_lane;
  assign occupancy        = 256'(dut.occupancy);
  assign overflow         = 16'(dut.overflow);
  assign return_message   = 16'(dut.return_message);
  assign update_refused   = 16'(dut.update_refused);
  assign policy_flush     = 16'(dut.policy_flush);
  assign credits          = 256'(dut.credits);
  assign reserved         = 256'(dut.reserved);
  assign fwd_flits        = 256'(dut.fwd_flits);
  assign slots_freeing    = 256'(dut.slots_freeing);
  assign pending          = 256'(dut.pending_returns);
  assign waiting          = 256'(dut.return_waiting);
  assign return_flight    = 256'(dut.return_flight);
  assign credits_arriving = 256'(dut.credits_arriving);
  assign credits_returned = 256'(dut.credits_returned);
endmodule
