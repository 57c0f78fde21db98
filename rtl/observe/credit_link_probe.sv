// credit_link_probe: what the scoreboards observe of a credit_link, read from inside it.
//
// Attached to every credit_link with SystemVerilog `bind` (at the end of this file), so the
// design keeps only its functional ports and the testbench sees its internal state without
// growing ports for it. The probe's inputs are credit_link's internal signals of the same names
// (the counter's credits, the buffer's occupancy, each path's pipeline stages, ...); its outputs
// are the observation, which credit_link_observed.sv brings out as ports.
//
// Outputs, per cycle (counts at the start of the cycle, events during it; see credit_link.sv):
//   fwd_flits      flits on the forward path (valid bits of its L stages)
//   return_flight  credits on the return path (its L + SYNC stages of counts)
//   credit_total   credits + fwd_flits + occupancy + slots_freeing + pending_returns +
//                  return_waiting + return_flight: B in a correct loop (for people reading waves;
//                  the conservation scoreboard adds the terms itself)
// and the observed internal signals themselves (credits, occupancy, ...) under their own names.
module credit_link_probe #(
  parameter int L = 4,
  parameter int B = 12,
  parameter int W = 32,
  parameter int SYNC = 0
) (
  input  logic [$clog2(B+1)-1:0]  credits,
  input  logic [$clog2(B+1)-1:0]  credits_arriving,
  input  logic [L*(W+1)-1:0]      fwd_stages,
  input  logic                    arrive,
  input  logic [$clog2(B+1)-1:0]  occupancy,
  input  logic                    overflow,
  input  logic [$clog2(B+1)-1:0]  slots_freeing,
  input  logic [$clog2(B+1)-1:0]  pending_returns,
  input  logic                    policy_flush,
  input  logic [$clog2(B+1)-1:0]  return_waiting,
  input  logic [$clog2(B+1)-1:0]  credits_returned,
  input  logic [(L+SYNC)*$clog2(B+1)-1:0] ret_stages,
  output logic [$clog2(L+1)-1:0]  fwd_flits,
  output logic [$clog2(B+1)-1:0]  return_flight,
  output logic [(($clog2(B+1) > $clog2(L+1)) ? $clog2(B+1) : $clog2(L+1)) + 2:0] credit_total
);
  localparam int CW = $clog2(B + 1);
  localparam int FW = $clog2(L + 1);
  localparam int TW = ((CW > FW) ? CW : FW) + 3;   // room for a total well past B in a buggy loop

  always_comb begin
    fwd_flits     = '0;
    return_flight = '0;
    for (int i = 0; i < L; i++) fwd_flits = fwd_flits + FW'(fwd_stages[i*(W+1) + W]);
    for (int i = 0; i < L + SYNC; i++) return_flight = return_flight + ret_stages[i*CW +: CW];
  end
  assign credit_total = TW'(credits) + TW'(fwd_flits) + TW'(occupancy) + TW'(slots_freeing) +
                        TW'(pending_returns) + TW'(return_waiting) + TW'(return_flight);
endmodule

// Every credit_link gets its probe, connected by name to the link's own signals. Its outputs are
// read through the hierarchy (credit_link_observed.sv), not by the link: left open here.
/* verilator lint_off PINCONNECTEMPTY */
bind credit_link credit_link_probe #(.L(L), .B(B), .W(W), .SYNC(SYNC)) u_probe (
  .credits, .credits_arriving, .fwd_stages, .arrive, .occupancy, .overflow, .slots_freeing,
  .pending_returns, .policy_flush, .return_waiting, .credits_returned, .ret_stages,
  .fwd_flits (), .return_flight (), .credit_total ()
);
/* verilator lint_on PINCONNECTEMPTY */
