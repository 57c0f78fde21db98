// noc_network: routers (noc_router) joined by L-stage credit links: a ring of NX nodes (one-way
// or two-way) or an NX x NY mesh, V VCs per port and B slots per VC.
//
// Each link is the credit link's pipeline both ways: a flit (valid and FW bits) takes L cycles
// from router n's output k to router m's input k, and the credits of that input's VCs take L
// cycles back. The ports of node n (slice n):
//   inj_valid, inj_flit  a flit offered to node n's router, on the VC its vc field names;
//   inj_accept           it is taken this cycle (the VC has a credit): offer it until then.
//   ej_valid, ej_flit    a flit delivered to node n's sink (its vc field: the VC it came on);
//   ej_ready             node n's sink takes a flit this cycle.
//   obs_fill, obs_credits  per node n (slice n, P * V * CW bits): its router's observed state
//                        (noc_router's obs_fill and obs_credits), for the model's lockstep.
//   obs_wait             per node n (slice n, P * V * P * V bits): noc_router's obs_wait, the
//                        output VCs each input VC's head flit waits for (the wait-for graph).
//   obs_sent             per node n, output VC q = port * V + vc (bit n * P * V + q): a flit
//                        leaves on it this cycle (towards the next router; port 0: to the sink).
//   obs_freed            per node n, input VC q: a flit leaves its head this cycle, freeing a
//                        slot whose credit goes back upstream (port 0: to the injection counter).
//                        With obs_fill and obs_credits, the per-link conservation of credits.
// The injection port has a credit counter per VC, like any sender; the sink is not credited.
module noc_network #(
  parameter int TOPO    = 0,
  parameter int NX      = 4,
  parameter int NY      = 1,
  parameter int ROUTING = 0,
  parameter int V       = 2,
  parameter int B       = 4,
  parameter int L       = 1,
  parameter int IDW     = 8,
  parameter int SW      = 4,
  parameter int N       = NX * NY,
  parameter int NW      = (N > 1) ? $clog2(N) : 1,
  parameter int VW      = (V > 1) ? $clog2(V) : 1,
  parameter int FW      = 2 + VW + 2 * NW + IDW + SW,
  parameter int CW      = $clog2(B + 1),
  parameter int P       = (TOPO == 0) ? 2 : (TOPO == 1) ? 3 : 5
) (
  input  logic            clk,
  input  logic            rst_n,
  input  logic [N-1:0]    inj_valid,
  input  logic [N*FW-1:0] inj_flit,
  output logic [N-1:0]    inj_accept,
  output logic [N-1:0]    ej_valid,
  output logic [N*FW-1:0] ej_flit,
  input  logic [N-1:0]    ej_ready,
  output logic [N*P*V*CW-1:0] obs_fill,
  output logic [N*P*V*CW-1:0] obs_credits,
  output logic [N*P*V*P*V-1:0] obs_wait,
  output logic [N*P*V-1:0]    obs_sent,
  output logic [N*P*V-1:0]    obs_freed
);
  localparam int O_VC = SW + IDW + 2 * NW;

  logic [P-1:0]      in_valid   [N];
  logic [P*FW-1:0]   in_flit    [N];
  logic [P*V*CW-1:0] credit_out [N];
  logic [P-1:0]      out_valid  [N];
  logic [P*FW-1:0]   out_flit   [N];
  logic [P*V*CW-1:0] credit_in  [N];

  genvar n, k;
  for (n = 0; n < N; n++) begin : g_node
    // ---- injection: a credit counter per VC of the router's local input
    logic [VW-1:0] inj_vc;
    logic [V-1:0]  inj_can;
    assign inj_vc        = inj_flit[n*FW + O_VC +: VW];
    assign inj_accept[n] = inj_valid[n] && inj_can[inj_vc];
    for (k = 0; k < V; k++) begin : g_inject
      /* verilator lint_off UNUSEDSIGNAL */
      logic          do_send;
      logic [CW-1:0] credits;
      /* verilator lint_on UNUSEDSIGNAL */
      credit_counter #(.MAXC(B), .RETURN_WIDTH(CW)) u_credits (
        .clk, .rst_n, .credit_return(credit_out[n][k*CW +: CW]),
        .want_send(inj_accept[n] && int'(inj_vc) == k), .init_credits(CW'(B)),
        .can_send(inj_can[k]), .do_send(do_send), .credits(credits));
    end
    assign in_valid[n][0]       = inj_accept[n];
    assign in_flit[n][0 +: FW]  = inj_flit[n*FW +: FW];
    assign credit_in[n][0 +: V*CW] = '0;
    assign ej_valid[n]          = out_valid[n][0];
    assign ej_flit[n*FW +: FW]  = out_flit[n][0 +: FW];

    noc_router #(.TOPO(TOPO), .NX(NX), .NY(NY), .ROUTING(ROUTING), .P(P), .V(V), .B(B), .IDW(IDW), .SW(SW))
      u_router (
        .clk, .rst_n, .here(NW'(n)),
        .in_valid(in_valid[n]), .in_flit(in_flit[n]), .credit_out(credit_out[n]),
        .out_valid(out_valid[n]), .out_flit(out_flit[n]), .credit_in(credit_in[n]),
        .eject_ready(ej_ready[n]), .obs_fill(obs_fill[n*P*V*CW +: P*V*CW]),
        .obs_credits(obs_credits[n*P*V*CW +: P*V*CW]),
        .obs_wait(obs_wait[n*P*V*P*V +: P*V*P*V]));

    // ---- what moved this cycle: the flits leaving each output VC, the slots each input VC frees
    for (k = 0; k < P * V; k++) begin : g_moved
      assign obs_sent[n*P*V + k]  = out_valid[n][k / V] && int'(out_flit[n][(k / V)*FW + O_VC +: VW]) == k % V;
      assign obs_freed[n*P*V + k] = credit_out[n][k*CW +: CW] != '0;
    end

    // ---- the links leaving node n: output k to the neighbour in direction k, whose input k
    // takes the flits and sends its credits back.
    for (k = 1; k < P; k++) begin : g_link
      localparam int X  = n % NX;
      localparam int Y  = n / NX;
      localparam bit HAS = (TOPO != 2) ? 1'b1 :
                           (k == 1) ? (X < NX - 1) : (k == 2) ? (X > 0) : (k == 3) ? (Y < NY - 1) : (Y > 0);
      localparam int M  = (TOPO != 2) ? ((k == 1) ? (n + 1) % N : (n + N - 1) % N) :
                          (k == 1) ? n + 1 : (k == 2) ? n - 1 : (k == 3) ? n + NX : n - NX;
      if (HAS) begin : g_wire
        logic [FW:0] flit_end;
        /* verilator lint_off UNUSEDSIGNAL */
        logic [L*(FW+1)-1:0]  flit_stages;
        logic [L*V*CW-1:0]    credit_stages;
        /* verilator lint_on UNUSEDSIGNAL */
        pipeline #(.STAGES(L), .WIDTH(FW + 1)) u_flits (
          .clk, .rst_n, .in({out_valid[n][k], out_flit[n][k*FW +: FW]}), .out(flit_end), .stages(flit_stages));
        assign in_valid[M][k]          = flit_end[FW];
        assign in_flit[M][k*FW +: FW]  = flit_end[FW-1:0];
        pipeline #(.STAGES(L), .WIDTH(V * CW)) u_credits (
          .clk, .rst_n, .in(credit_out[M][k*V*CW +: V*CW]), .out(credit_in[n][k*V*CW +: V*CW]),
          .stages(credit_stages));
      end else begin : g_edge
        // A mesh's edge: nothing leaves (the route never points off the mesh), and no credit
        // comes back; the output's counter keeps its grant.
        assign credit_in[n][k*V*CW +: V*CW] = '0;
      end
    end
  end

  // Inputs that no link drives: a mesh's edge inputs (the node on the far side does not exist).
  for (n = 0; n < N; n++) begin : g_edges
    for (k = 1; k < P; k++) begin : g_in
      localparam int X = n % NX;
      localparam int Y = n / NX;
      // Input k of node n is driven by the node in the direction opposite k.
      localparam bit FED = (TOPO != 2) ? 1'b1 :
                           (k == 1) ? (X > 0) : (k == 2) ? (X < NX - 1) : (k == 3) ? (Y > 0) : (Y < NY - 1);
      if (!FED) begin : g_tie
        assign in_valid[n][k]         = 1'b0;
        assign in_flit[n][k*FW +: FW] = '0;
      end
    end
  end
endmodule
