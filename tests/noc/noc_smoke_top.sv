// noc_smoke_top: the networks the smoke test drives, side by side in one verilated model.
//
// Each is noc_network behind noc_smoke_port, which gives every network the same C++-facing
// shape: buses of 16 nodes, a node's flit in 32 bits with fixed fields (LSB first: seq 4, id 8,
// src 4, dest 4, vc 2, tail 1, head 1), whatever the network's own widths.
module noc_smoke_port #(
  parameter int TOPO = 0, NX = 4, NY = 1, ROUTING = 0, V = 2, B = 4, L = 1
) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic [127:0] inj_valid,
  input  logic [511:0] inj_flit,
  output logic [127:0] inj_accept,
  output logic [127:0] ej_valid,
  output logic [511:0] ej_flit,
  input  logic [127:0] ej_ready,
  // per node n, port p, VC v: the 4 bits at ((n * 5 + p) * 4 + v) * 4
  output logic [1279:0] obs_fill,
  output logic [1279:0] obs_credits
);
  localparam int N  = NX * NY;
  localparam int NW = (N > 1) ? $clog2(N) : 1;
  localparam int VW = (V > 1) ? $clog2(V) : 1;
  localparam int FW = 2 + VW + 2 * NW + 8 + 4;

  localparam int P  = (TOPO == 0) ? 2 : (TOPO == 1) ? 3 : 5;
  localparam int CW = $clog2(B + 1);
  logic [N*FW-1:0] net_inj, net_ej;
  logic [N*P*V*CW-1:0] fill, credits;
  always_comb begin
    obs_fill    = '0;
    obs_credits = '0;
    for (int n = 0; n < N; n++)
      for (int p = 0; p < P; p++)
        for (int v = 0; v < V; v++) begin
          obs_fill[((n * 5 + p) * 4 + v) * 4 +: 4]    = 4'(fill[((n * P + p) * V + v) * CW +: CW]);
          obs_credits[((n * 5 + p) * 4 + v) * 4 +: 4] = 4'(credits[((n * P + p) * V + v) * CW +: CW]);
        end
  end
  logic [N-1:0]    accept, valid;

  for (genvar n = 0; n < N; n++) begin : g_node
    logic [31:0] in32;
    logic [FW-1:0] out;
    assign in32 = inj_flit[n*32 +: 32];
    assign net_inj[n*FW +: FW] = {in32[23], in32[22], in32[20 +: VW], in32[16 +: NW], in32[12 +: NW], in32[11:0]};
    assign out = net_ej[n*FW +: FW];
    assign ej_flit[n*32 +: 32] = {8'b0, out[FW-1], out[FW-2], 2'(out[12 + 2*NW +: VW]), 4'(out[12 + NW +: NW]),
                                  4'(out[12 +: NW]), out[11:0]};
  end
  if (N < 16) begin : g_pad
    assign ej_flit[511:N*32] = '0;
  end
  assign inj_accept = 128'(accept);
  assign ej_valid   = 128'(valid);

  noc_network #(.TOPO(TOPO), .NX(NX), .NY(NY), .ROUTING(ROUTING), .V(V), .B(B), .L(L), .IDW(8), .SW(4)) u_net (
    .clk, .rst_n, .inj_valid(inj_valid[N-1:0]), .inj_flit(net_inj), .inj_accept(accept),
    .ej_valid(valid), .ej_flit(net_ej), .ej_ready(ej_ready[N-1:0]), .obs_fill(fill), .obs_credits(credits));
endmodule

// The routing function of a network, alone, in the same fixed widths: the channel dependency
// graph is built by evaluating it on every input.
module noc_smoke_route #(
  parameter int TOPO = 0, NX = 4, NY = 1, ROUTING = 0, V = 2
) (
  input  logic [3:0] here,
  input  logic [3:0] dest,
  input  logic [2:0] in_port,
  input  logic [1:0] in_vc,
  output logic [2:0] out_port,
  output logic [3:0] vc_mask
);
  localparam int N  = NX * NY;
  localparam int NW = (N > 1) ? $clog2(N) : 1;
  localparam int VW = (V > 1) ? $clog2(V) : 1;
  logic [V-1:0] mask;
  noc_route #(.TOPO(TOPO), .NX(NX), .NY(NY), .V(V), .ROUTING(ROUTING), .NW(NW), .PW(3), .VW(VW)) u_route (
    .here(here[NW-1:0]), .dest(dest[NW-1:0]), .in_port, .in_vc(in_vc[VW-1:0]), .out_port, .vc_mask(mask));
  assign vc_mask = 4'(mask);
endmodule

/* verilator lint_off UNUSEDSIGNAL */
module noc_smoke_top (
  input  logic         clk,
  input  logic         rst_n,
`define NOC_PORTS(p) \
  input  logic [127:0] p``_inj_valid, \
  input  logic [511:0] p``_inj_flit, \
  output logic [127:0] p``_inj_accept, \
  output logic [127:0] p``_ej_valid, \
  output logic [511:0] p``_ej_flit, \
  input  logic [127:0] p``_ej_ready, \
  output logic [1279:0] p``_obs_fill, \
  output logic [1279:0] p``_obs_credits, \
  input  logic [3:0]   p``_r_here, \
  input  logic [3:0]   p``_r_dest, \
  input  logic [2:0]   p``_r_in_port, \
  input  logic [1:0]   p``_r_in_vc, \
  output logic [2:0]   p``_r_out_port, \
  output logic [3:0]   p``_r_vc_mask,
  `NOC_PORTS(a)
  `NOC_PORTS(b)
  `NOC_PORTS(c)
  `NOC_PORTS(d)
  input  logic         unused
);
`define NOC_NET(p, topo, nx, ny, routing, v, b, l) \
  noc_smoke_port #(.TOPO(topo), .NX(nx), .NY(ny), .ROUTING(routing), .V(v), .B(b), .L(l)) u_``p ( \
    .clk, .rst_n, .inj_valid(p``_inj_valid), .inj_flit(p``_inj_flit), .inj_accept(p``_inj_accept), \
    .ej_valid(p``_ej_valid), .ej_flit(p``_ej_flit), .ej_ready(p``_ej_ready), \
    .obs_fill(p``_obs_fill), .obs_credits(p``_obs_credits)); \
  noc_smoke_route #(.TOPO(topo), .NX(nx), .NY(ny), .ROUTING(routing), .V(v)) u_``p``_route ( \
    .here(p``_r_here), .dest(p``_r_dest), .in_port(p``_r_in_port), .in_vc(p``_r_in_vc), \
    .out_port(p``_r_out_port), .vc_mask(p``_r_vc_mask));
  // a: one-way ring of 4, one VC, minimal: its channel dependency graph is a cycle.
  `NOC_NET(a, 0, 4, 1, 0, 1, 2, 1)
  // b: the same ring with a dateline over two VCs: acyclic.
  `NOC_NET(b, 0, 4, 1, 1, 2, 2, 1)
  // c: a 3 x 3 mesh, dimension order, two VCs, 3 slots, links of 2 stages.
  `NOC_NET(c, 2, 3, 3, 0, 2, 3, 2)
  // d: a two-way ring of 6 with a dateline, 2 VCs, 3 slots.
  `NOC_NET(d, 1, 6, 1, 1, 2, 3, 1)
endmodule
/* verilator lint_on UNUSEDSIGNAL */
