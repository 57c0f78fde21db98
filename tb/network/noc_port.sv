// noc_port: a credit network (rtl/noc/noc_network.sv) and its routing function (noc_route) in
// one fixed shape for C++, whatever the network's own widths: buses of 16 nodes, a node's flit
// in 32 bits (LSB first: seq 4, id 8, src 4, dest 4, vc 2, tail 1, head 1), and the routers'
// observed state at fixed places. The network banks' generated tops (tb/dut/network_bank.cpp)
// and the smoke test's top instantiate it; tb/network/noc_io.h reads the same layout.
//
//   obs_fill, obs_credits  node n, port p, VC v: the 4 bits at ((n * 5 + p) * 4 + v) * 4
//   obs_wait               node n, input VC (p, v): 20 bits at ((n * 5 + p) * 4 + v) * 20, bit
//                          p' * 4 + v' for output VC (p', v')
//   obs_sent, obs_freed    node n, VC (p, v): bit (n * 5 + p) * 4 + v (noc_network's)
//   r_*                    the routing function alone (combinational): the channel dependency
//                          graph is built by evaluating it on every input (r_alt_port and
//                          r_alt_mask: adaptive routing's second port and its VCs, else 0).
/* verilator lint_off UNUSEDSIGNAL */
module noc_port #(
  parameter int TOPO = 0, NX = 4, NY = 1, ROUTING = 0, V = 2, B = 4, L = 1
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic [15:0]   inj_valid,
  input  logic [511:0]  inj_flit,
  output logic [15:0]   inj_accept,
  output logic [15:0]   ej_valid,
  output logic [511:0]  ej_flit,
  input  logic [15:0]   ej_ready,
  output logic [1279:0] obs_fill,
  output logic [1279:0] obs_credits,
  output logic [6399:0] obs_wait,
  output logic [319:0]  obs_sent,
  output logic [319:0]  obs_freed,
  input  logic [3:0]    r_here,
  input  logic [3:0]    r_dest,
  input  logic [2:0]    r_in_port,
  input  logic [1:0]    r_in_vc,
  output logic [2:0]    r_out_port,
  output logic [3:0]    r_vc_mask,
  output logic [2:0]    r_alt_port,
  output logic [3:0]    r_alt_mask
);
  localparam int N  = NX * NY;
  localparam int NW = (N > 1) ? $clog2(N) : 1;
  localparam int VW = (V > 1) ? $clog2(V) : 1;
  localparam int FW = 2 + VW + 2 * NW + 8 + 4;
  localparam int P  = (TOPO == 0) ? 2 : (TOPO == 1) ? 3 : 5;
  localparam int CW = $clog2(B + 1);
  localparam int Q  = P * V;

  logic [N*FW-1:0]  net_inj, net_ej;
  logic [N*Q*CW-1:0] fill, credits;
  logic [N*Q*Q-1:0]  wait_for;
  logic [N*Q-1:0]    sent, freed;
  logic [N-1:0]      accept, valid;

  always_comb begin
    obs_fill    = '0;
    obs_credits = '0;
    obs_wait    = '0;
    obs_sent    = '0;
    obs_freed   = '0;
    for (int n = 0; n < N; n++)
      for (int q = 0; q < Q; q++) begin
        obs_fill[((n * 5 + q / V) * 4 + q % V) * 4 +: 4]    = 4'(fill[(n * Q + q) * CW +: CW]);
        obs_credits[((n * 5 + q / V) * 4 + q % V) * 4 +: 4] = 4'(credits[(n * Q + q) * CW +: CW]);
        obs_sent[(n * 5 + q / V) * 4 + q % V]  = sent[n * Q + q];
        obs_freed[(n * 5 + q / V) * 4 + q % V] = freed[n * Q + q];
        for (int o = 0; o < Q; o++)
          obs_wait[((n * 5 + q / V) * 4 + q % V) * 20 + (o / V) * 4 + o % V] = wait_for[(n * Q + q) * Q + o];
      end
  end

  for (genvar n = 0; n < N; n++) begin : g_node
    logic [31:0]   in32;
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
  assign inj_accept = 16'(accept);
  assign ej_valid   = 16'(valid);

  noc_network #(.TOPO(TOPO), .NX(NX), .NY(NY), .ROUTING(ROUTING), .V(V), .B(B), .L(L), .IDW(8), .SW(4)) u_net (
    .clk, .rst_n, .inj_valid(inj_valid[N-1:0]), .inj_flit(net_inj), .inj_accept(accept),
    .ej_valid(valid), .ej_flit(net_ej), .ej_ready(ej_ready[N-1:0]), .obs_fill(fill), .obs_credits(credits),
    .obs_wait(wait_for), .obs_sent(sent), .obs_freed(freed));

  logic [V-1:0] mask, alt_mask;
  noc_route #(.TOPO(TOPO), .NX(NX), .NY(NY), .V(V), .ROUTING(ROUTING), .NW(NW), .PW(3), .VW(VW)) u_route (
    .here(r_here[NW-1:0]), .dest(r_dest[NW-1:0]), .in_port(r_in_port), .in_vc(r_in_vc[VW-1:0]),
    .out_port(r_out_port), .vc_mask(mask), .alt_port(r_alt_port), .alt_mask(alt_mask));
  assign r_vc_mask  = 4'(mask);
  assign r_alt_mask = 4'(alt_mask);
endmodule
/* verilator lint_on UNUSEDSIGNAL */
