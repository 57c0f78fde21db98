// noc_route: the routing function of a credit network's router, combinational.
//
// One function for every topology, chosen by parameters, so that the channel dependency graph
// is built by evaluating this block (every node, destination, input port and input VC) and not
// a second copy of it in C++.
//
// Ports of a router: 0 is the local one (injection in, ejection out). On a ring, port 1 carries
// flits towards node + 1 and port 2 (two-way ring) towards node - 1. On a mesh (node = y * NX + x),
// ports 1, 2, 3 and 4 carry flits east (+x), west (-x), north (+y) and south (-y). A router's
// input port k receives the flits travelling in direction k: output 1 of node i feeds input 1 of
// node i + 1, and the credits of that input go back to output 1 of node i.
//
//   TOPO     0: one-way ring of NX nodes; 1: two-way ring of NX nodes; 2: NX x NY mesh.
//   ROUTING  0: minimal on a ring (the shorter way, ties towards node + 1), every VC allowed;
//            1: minimal with a dateline: the VCs are two classes, [0, V/2) and [V/2, V); a packet
//               enters in class 0 and moves to class 1 on the hop that crosses the dateline
//               (from node NX - 1 to node 0 going +, from node 0 to node NX - 1 going -);
//            on a mesh, 0 is dimension order (x first, then y), every VC allowed;
//            1: minimal adaptive with an escape VC (Duato), V >= 2: VC 0 is the escape VC, taken
//               only on the dimension-order port; VCs 1 .. V - 1 are adaptive, taken on either
//               productive port (one that brings the packet closer in x or in y). The rule does
//               not depend on the VC the packet is in: from any VC a packet may take the escape VC
//               or an adaptive VC of the dimension-order port, or an adaptive VC of the other
//               productive port. The escape VCs alone are dimension order, and their extended
//               dependency graph (directly or through any run of adaptive VCs, every hop minimal)
//               is acyclic: an escape x channel waits only for escape x channels further on in its
//               direction and for escape y channels; an escape y channel (its packet is then in
//               its destination's column and stays there) only for escape y channels further on.
//   here, dest   this node and the packet's destination.
//   in_port      the input port the packet's head flit is in; in_vc its VC there.
//   out_port     the output port the packet takes (0: it has arrived); under adaptive routing,
//                the dimension-order port.
//   vc_mask      the output VCs it may be given on out_port (bit w: VC w).
//   alt_port     under adaptive routing, the other productive port (0: there is none);
//   alt_mask     the output VCs it may be given there (0 when there is no other port).
module noc_route #(
  parameter int TOPO    = 0,
  parameter int NX      = 4,
  parameter int NY      = 1,
  parameter int V       = 2,
  parameter int ROUTING = 0,
  parameter int NW      = (NX * NY > 1) ? $clog2(NX * NY) : 1,
  parameter int PW      = 3,
  parameter int VW      = (V > 1) ? $clog2(V) : 1
) (
  input  logic [NW-1:0] here,
  input  logic [NW-1:0] dest,
  input  logic [PW-1:0] in_port,
  input  logic [VW-1:0] in_vc,
  output logic [PW-1:0] out_port,
  output logic [V-1:0]  vc_mask,
  output logic [PW-1:0] alt_port,
  output logic [V-1:0]  alt_mask
);
  localparam int N = NX * NY;
  localparam logic [V-1:0] ALL = {V{1'b1}};
  // The dateline's classes: the lower half of the VCs and the upper half.
  localparam logic [V-1:0] LOW  = ALL >> (V - V / 2);
  localparam logic [V-1:0] HIGH = ALL & ~LOW;
  // Adaptive routing's classes: the escape VC 0 and the others.
  localparam logic [V-1:0] ADAPTIVE = ALL & ~V'(1);

  // Distance going + around the ring.
  int forward;
  logic go_plus;
  logic crosses;
  logic in_high;
  int hx, hy, dx, dy;
  logic [PW-1:0] x_port, y_port;   // the productive port in x and in y (0: none)

  always_comb begin
    forward  = (int'(dest) - int'(here) + N) % N;
    go_plus  = 1'b1;
    crosses  = 1'b0;
    in_high  = (in_port != '0) && (int'(in_vc) >= V / 2);
    hx = int'(here) % NX;
    hy = int'(here) / NX;
    dx = int'(dest) % NX;
    dy = int'(dest) / NX;
    x_port   = (dx > hx) ? PW'(1) : (dx < hx) ? PW'(2) : '0;
    y_port   = (dy > hy) ? PW'(3) : (dy < hy) ? PW'(4) : '0;
    out_port = '0;
    vc_mask  = ALL;
    alt_port = '0;
    alt_mask = '0;
    if (dest == here) begin
      out_port = '0;
    end else if (TOPO == 2) begin
      out_port = (x_port != '0) ? x_port : y_port;
      if (ROUTING == 1 && x_port != '0 && y_port != '0) begin
        alt_port = y_port;
        alt_mask = ADAPTIVE;
      end
    end else begin
      go_plus  = (TOPO == 0) || (forward <= N - forward);
      out_port = go_plus ? PW'(1) : PW'(2);
      crosses  = go_plus ? (int'(here) == N - 1) : (int'(here) == 0);
      if (ROUTING == 1) vc_mask = (in_high || crosses) ? HIGH : LOW;
    end
  end

`ifndef SYNTHESIS
  initial begin
    if (TOPO < 0 || TOPO > 2) $error("noc_route: TOPO %0d is not 0 (one-way ring), 1 (two-way ring) or 2 (mesh)", TOPO);
    if (ROUTING < 0 || ROUTING > 1) $error("noc_route: ROUTING %0d is not 0 or 1", ROUTING);
    if (ROUTING == 1 && TOPO != 2 && (V < 2 || V % 2 != 0))
      $error("noc_route: a dateline needs an even number of VCs (V = %0d)", V);
    if (ROUTING == 1 && TOPO == 2 && V < 2)
      $error("noc_route: adaptive routing needs an escape VC and an adaptive one (V = %0d)", V);
  end
`endif
endmodule
