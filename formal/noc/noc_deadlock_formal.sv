// noc_deadlock_formal: the formal top of the network's deadlock check (scripts/noc_formal.py,
// docs/network-proof.md). One noc_network, a one-way ring (TOPO = 0) of NX routers, with every
// input free but for the environment's assumptions below, and the property, read from the
// routers' observation ports only (obs_fill, obs_wait).
//
// Environment:
//   reset      rst_n low in the first cycle (the solver's initial state) and high ever after.
//   sources    inj_valid free; an offered flit is a legal one of its node: src is the node, dest
//              another node, vc one a packet may enter on (any of the V without a dateline; with
//              one, class 0, VC 0 .. V/2 - 1, as noc_route expects: it moves a packet to class 1
//              at the dateline), and per VC the flits taken form packets: a head flit opens a
//              packet, the flits after it up to its tail are body flits to the same destination
//              (any length, any gaps; a one-flit packet has head and tail set).
//   sinks      ej_ready free in every cycle: a sink may stall, for ever. The property is one of
//              safety, so leaving the sinks free makes the proof cover every sink, and a stalled
//              sink blocks a head that waits for it alone (obs_wait shows no buffer for it).
//
// Property (every cycle after the reset):
//   p_no_full_wait_cycle  no cycle of full, waiting ring buffers. A ring buffer is the input
//       (port 1, VC v) of node n, fed by output (port 1, VC v) of node n - 1. It waits for the
//       next node's buffer (port 1, VC w) when it holds B flits (obs_fill == B) and its head flit
//       waits for node n's output (port 1, VC w) (obs_wait). A cycle is an assignment of one VC
//       v_n to every node with buffer (n, v_n) waiting for (n + 1, v_{n+1}) all the way round
//       (the V^NX assignments), or a longer one that goes round several times on different VCs.
//       Computed as a product of boolean V x V matrices: E_n[v][w] is buffer (n, v) waiting for
//       (n + 1, w); around = E_0 E_1 ... E_{NX-1} relates a VC of node 0 to the VCs of node 0 it
//       comes back to after one round, and the ring has a cycle exactly when `around`, a graph
//       on the V VCs of node 0, has one (every cycle passes node 0: the edges go n -> n + 1).
//       Its diagonal is the one-round assignments; its longer cycles the several-round ones.
// Covers (yosys-smtbmc -c), that the proof is not of a ring where nothing fills:
//   c_every_node_waits    every node holds a full ring buffer that waits for the next node's
//                         (each E_n has an edge): all a cycle needs but closing it.
module noc_deadlock_formal #(
  parameter int ROUTING = 1,
  parameter int V       = 2,
  parameter int NX      = 4,
  parameter int B       = 2,
  parameter int L       = 1,
  // The packet id and sequence number are data the routers carry but never read: one bit each.
  parameter int IDW     = 1,
  parameter int SW      = 1,
  localparam int N      = NX,
  localparam int P      = 2,
  localparam int Q      = P * V,
  localparam int NW     = (N > 1) ? $clog2(N) : 1,
  localparam int VW     = (V > 1) ? $clog2(V) : 1,
  localparam int FW     = 2 + VW + 2 * NW + IDW + SW,
  localparam int CW     = $clog2(B + 1)
) (
  input  logic            clk,
  input  logic            rst_n,
  input  logic [N-1:0]    inj_valid,
  input  logic [N*FW-1:0] inj_flit,
  input  logic [N-1:0]    ej_ready
);
  // The flit's fields (noc_router's header: seq | id | src | dest | vc | tail | head, LSB first).
  localparam int O_SRC = SW + IDW;
  localparam int O_DST = O_SRC + NW;
  localparam int O_VC  = O_DST + NW;
  localparam int O_TL  = O_VC + VW;
  localparam int O_HD  = O_TL + 1;
  // The VCs a packet may enter on: class 0 with a dateline, every VC without.
  localparam int ENTRY_VCS = (ROUTING == 1) ? V / 2 : V;

  /* verilator lint_off UNUSEDSIGNAL */
  logic [N-1:0]          inj_accept;
  logic [N-1:0]          ej_valid;
  logic [N*FW-1:0]       ej_flit;
  logic [N*P*V*CW-1:0]   obs_credits;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [N*P*V*CW-1:0]   obs_fill;
  logic [N*P*V*P*V-1:0]  obs_wait;

  noc_network #(.TOPO(0), .NX(NX), .NY(1), .ROUTING(ROUTING), .V(V), .B(B), .L(L), .IDW(IDW), .SW(SW)) dut (
    .clk, .rst_n, .inj_valid, .inj_flit, .inj_accept, .ej_valid, .ej_flit, .ej_ready,
    .obs_fill, .obs_credits, .obs_wait);

  // ---- the environment
  genvar n;
  for (n = 0; n < N; n++) begin : g_source
    // Per VC: a packet is open (its head taken, its tail not yet), and its destination.
    logic [V-1:0]    open_q;
    logic [V*NW-1:0] open_dest_q;
    logic [FW-1:0] flit;
    logic [VW-1:0] vc;
    logic [NW-1:0] dest;
    assign flit = inj_flit[n*FW +: FW];
    assign vc   = flit[O_VC +: VW];
    assign dest = flit[O_DST +: NW];

    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n) begin
        open_q      <= '0;
        open_dest_q <= '0;
      end else if (inj_accept[n]) begin
        open_q[vc]                <= !flit[O_TL];
        open_dest_q[vc*NW +: NW]  <= dest;
      end
    end

    always @* begin
      if (!$initstate && inj_valid[n]) begin
        assume (32'(vc) < ENTRY_VCS);
        assume (32'(dest) < N && 32'(dest) != n);
        assume (32'(flit[O_SRC +: NW]) == n);
        if (open_q[vc]) begin
          assume (!flit[O_HD]);
          assume (dest == open_dest_q[vc*NW +: NW]);
        end else begin
          assume (flit[O_HD]);
        end
      end
    end
  end

  always @* begin
    if ($initstate) begin
      assume (!rst_n);
    end else begin
      assume (rst_n);
    end
  end

  // ---- the property, from the observation ports
  // waits[(n*V + v)*V + w]: node n's ring buffer (port 1, VC v) is full and its head waits for
  // output (port 1, VC w), the buffer (port 1, VC w) of node n + 1.
  logic [N*V*V-1:0] waits;
  for (n = 0; n < N; n++) begin : g_waits
    genvar v, w;
    for (v = 0; v < V; v++) begin : g_v
      localparam int QIN = 1 * V + v;
      logic full;
      assign full = obs_fill[(n*Q + QIN)*CW +: CW] == CW'(B);
      for (w = 0; w < V; w++) begin : g_w
        assign waits[(n*V + v)*V + w] = full && obs_wait[n*Q*Q + QIN*Q + 1*V + w];
      end
    end
  end

  logic [V*V-1:0] around, reach;
  logic           full_wait_cycle;
  logic [N-1:0]   node_waits;
  always_comb begin
    logic [V*V-1:0] next;
    // around = E_0 E_1 ... E_{N-1} (boolean product).
    around = '0;
    for (int v = 0; v < V; v++) around[v*V + v] = 1'b1;
    for (int m = 0; m < N; m++) begin
      next = '0;
      for (int a = 0; a < V; a++)
        for (int b = 0; b < V; b++)
          for (int c = 0; c < V; c++)
            if (around[a*V + b] && waits[(m*V + b)*V + c]) next[a*V + c] = 1'b1;
      around = next;
    end
    // reach: the VCs of node 0 reached from each in 1 .. V rounds; a cycle comes back.
    reach = around;
    for (int r = 1; r < V; r++) begin
      next = reach;
      for (int a = 0; a < V; a++)
        for (int b = 0; b < V; b++)
          for (int c = 0; c < V; c++)
            if (reach[a*V + b] && around[b*V + c]) next[a*V + c] = 1'b1;
      reach = next;
    end
    full_wait_cycle = 1'b0;
    for (int v = 0; v < V; v++) if (reach[v*V + v]) full_wait_cycle = 1'b1;
    for (int m = 0; m < N; m++) node_waits[m] = waits[m*V*V +: V*V] != '0;
  end

  always @* begin
    if (!$initstate) begin
      p_no_full_wait_cycle: assert (!full_wait_cycle);
      c_every_node_waits: cover (&node_waits);
    end
  end
endmodule
