// noc_smoke_top: the networks the smoke test drives, side by side in one verilated model, each
// in noc_port's fixed C++-facing shape (tb/network/noc_port.sv).
/* verilator lint_off UNUSEDSIGNAL */
module noc_smoke_top (
  input  logic         clk,
  input  logic         rst_n,
`define NOC_PORTS(p) \
  input  logic [15:0]  p``_inj_valid, \
  input  logic [511:0] p``_inj_flit, \
  output logic [15:0]  p``_inj_accept, \
  output logic [15:0]  p``_ej_valid, \
  output logic [511:0] p``_ej_flit, \
  input  logic [15:0]  p``_ej_ready, \
  output logic [1279:0] p``_obs_fill, \
  output logic [1279:0] p``_obs_credits, \
  output logic [6399:0] p``_obs_wait, \
  output logic [319:0] p``_obs_sent, \
  output logic [319:0] p``_obs_freed, \
  input  logic [3:0]   p``_r_here, \
  input  logic [3:0]   p``_r_dest, \
  input  logic [2:0]   p``_r_in_port, \
  input  logic [1:0]   p``_r_in_vc, \
  output logic [2:0]   p``_r_out_port, \
  output logic [3:0]   p``_r_vc_mask, \
  output logic [2:0]   p``_r_alt_port, \
  output logic [3:0]   p``_r_alt_mask,
  `NOC_PORTS(a)
  `NOC_PORTS(b)
  `NOC_PORTS(c)
  `NOC_PORTS(d)
  `NOC_PORTS(e)
  input  logic         unused
);
`define NOC_NET(p, topo, nx, ny, routing, v, b, l) \
  noc_port #(.TOPO(topo), .NX(nx), .NY(ny), .ROUTING(routing), .V(v), .B(b), .L(l)) u_``p ( \
    .clk, .rst_n, .inj_valid(p``_inj_valid), .inj_flit(p``_inj_flit), .inj_accept(p``_inj_accept), \
    .ej_valid(p``_ej_valid), .ej_flit(p``_ej_flit), .ej_ready(p``_ej_ready), \
    .obs_fill(p``_obs_fill), .obs_credits(p``_obs_credits), .obs_wait(p``_obs_wait), \
    .obs_sent(p``_obs_sent), .obs_freed(p``_obs_freed), \
    .r_here(p``_r_here), .r_dest(p``_r_dest), .r_in_port(p``_r_in_port), .r_in_vc(p``_r_in_vc), \
    .r_out_port(p``_r_out_port), .r_vc_mask(p``_r_vc_mask), .r_alt_port(p``_r_alt_port), \
    .r_alt_mask(p``_r_alt_mask));
  // a: one-way ring of 4, one VC, minimal: its channel dependency graph is a cycle.
  `NOC_NET(a, 0, 4, 1, 0, 1, 2, 1)
  // b: the same ring with a dateline over two VCs: acyclic.
  `NOC_NET(b, 0, 4, 1, 1, 2, 2, 1)
  // c: a 3 x 3 mesh, dimension order, two VCs, 3 slots, links of 2 stages.
  `NOC_NET(c, 2, 3, 3, 0, 2, 3, 2)
  // d: a two-way ring of 6 with a dateline, 2 VCs, 3 slots.
  `NOC_NET(d, 1, 6, 1, 1, 2, 3, 1)
  // e: a 3 x 3 mesh, minimal adaptive with an escape VC (VC 0, dimension order), 2 VCs, 3 slots.
  `NOC_NET(e, 2, 3, 3, 1, 2, 3, 1)
endmodule
/* verilator lint_on UNUSEDSIGNAL */
