// noc_router: a virtual-channel router built from the credit link's blocks.
//
//   per input port and VC   rx_buffer (B - 1 slots) and a head register in front of it: the
//                           router decides on the head flit before it pops it, so a VC holds B
//                           flits, B - 1 in the buffer and one at its head; credit_return (K = 1)
//                           sends a credit back upstream the cycle a flit leaves the head.
//   per output port and VC  credit_counter (MAXC = B): the credits of the next router's buffer;
//                           the local output (ejection) takes a flit whenever eject_ready is high.
//   route computation       noc_route on each head flit.
//   VC allocation           a packet's head flit is given a free output VC its route allows whose
//                           downstream buffer is empty (all B credits back: one packet per buffer),
//                           the input VCs served in a round-robin order; it holds the VC until its
//                           tail flit leaves. A head tries the VCs of its route's out_port in
//                           increasing order, then (adaptive routing) those of its alt_port: the
//                           first that is free is its.
//   switch allocation       separable, input first: each input port offers one of its VCs that
//                           holds an output VC with a credit (round robin per input), then each
//                           output takes one of the inputs offering to it (round robin per output).
//
// A flit (FW bits, LSB first): seq (SW) | id (IDW) | src (NW) | dest (NW) | vc (VW) | tail | head.
// A head flit is given its output VC and crosses the switch in the same cycle, the first it spends
// in the head register: a flit that arrives in cycle t is in the buffer in t + 1, at the head in
// t + 2, and leaves then if nothing stands in its way (a router costs 2 cycles at zero load).
//
//   clk, rst_n          rising-edge clock, asynchronous active-low reset.
//   here                this router's node id.
//   in_valid, in_flit   per port p (slice p): a flit arriving, on the VC its vc field names.
//   credit_out          per port p and VC v (slice p * V + v, CW bits): credits returned upstream.
//   out_valid, out_flit per port p: a flit leaving, its vc field the output VC it was given.
//   credit_in           per port p and VC v: credits arriving from downstream (port 0: unused).
//   eject_ready         the local sink takes a flit this cycle.
//   obs_fill            per input VC (slice q = port * V + vc, CW bits): the flits it holds
//                       (its buffer and its head), for the model's lockstep.
//   obs_credits         per output VC: its credits (port 0, the sink: 0).
//   obs_wait            per input VC q (slice q, P * V bits): the output VCs (bit port * V + vc)
//                       its head flit waits for this cycle: the one it holds (or was just given)
//                       when that has no credit, or every VC its route allows (on both of its
//                       ports, under adaptive routing) when it was refused one. A head that
//                       leaves, or waits only for the switch or the sink, waits for none. The
//                       deadlock detector's wait-for graph.
module noc_router #(
  parameter int TOPO    = 0,
  parameter int NX      = 4,
  parameter int NY      = 1,
  parameter int ROUTING = 0,
  parameter int P       = 2,
  parameter int V       = 2,
  parameter int B       = 4,
  parameter int IDW     = 8,
  parameter int SW      = 4,
  parameter int NW      = (NX * NY > 1) ? $clog2(NX * NY) : 1,
  parameter int VW      = (V > 1) ? $clog2(V) : 1,
  parameter int FW      = 2 + VW + 2 * NW + IDW + SW,
  parameter int CW      = $clog2(B + 1)
) (
  input  logic                clk,
  input  logic                rst_n,
  input  logic [NW-1:0]       here,
  input  logic [P-1:0]        in_valid,
  input  logic [P*FW-1:0]     in_flit,
  output logic [P*V*CW-1:0]   credit_out,
  output logic [P-1:0]        out_valid,
  output logic [P*FW-1:0]     out_flit,
  input  logic [P*V*CW-1:0]   credit_in,
  input  logic                eject_ready,
  output logic [P*V*CW-1:0]   obs_fill,
  output logic [P*V*CW-1:0]   obs_credits,
  output logic [P*V*P*V-1:0]  obs_wait
);
  localparam int PW    = 3;
  localparam int Q     = P * V;                 // input VCs (and output VCs)
  localparam int QW    = (Q > 1) ? $clog2(Q) : 1;
  localparam int O_SRC = SW + IDW;
  localparam int O_DST = O_SRC + NW;
  localparam int O_VC  = O_DST + NW;
  localparam int O_TL  = O_VC + VW;
  localparam int O_HD  = O_TL + 1;
  // The output VCs a head may be offered: its route's port's, and under adaptive routing on a mesh
  // its second port's too (the other routings have no second port, and no loop over it).
  localparam int CANDIDATES = (TOPO == 2 && ROUTING == 1) ? 2 * V : V;

  // ---- per input VC: buffer, head register, route
  logic [Q-1:0]        push, fill, leave;
  logic [Q-1:0]        buf_pop;
  logic [FW-1:0]       buf_data [Q];
  logic [Q-1:0]        head_valid;
  logic [FW-1:0]       head_flit [Q];
  logic [PW-1:0]       route_port [Q];
  logic [V-1:0]        route_mask [Q];
  logic [PW-1:0]       route_alt_port [Q];      // adaptive routing's second port and its VCs
  logic [V-1:0]        route_alt_mask [Q];
  logic [Q-1:0]        held;                    // holds an output VC (its packet is under way)
  logic [PW-1:0]       held_port [Q];
  logic [VW-1:0]       held_vc [Q];

  // ---- per output VC: credits, owner
  logic [Q-1:0]        out_busy;                // given to a packet whose tail has not left
  logic [CW-1:0]       out_credits [Q];
  logic [Q-1:0]        out_take;                // a flit leaves on this output VC

  genvar gq;
  for (gq = 0; gq < Q; gq++) begin : g_in
    localparam int GP = gq / V;
    localparam int GV = gq % V;
    assign push[gq] = in_valid[GP] && int'(in_flit[GP*FW + O_VC +: VW]) == GV;
    // The head register takes the buffer's next flit when it is empty or its flit leaves.
    assign fill[gq] = !head_valid[gq] || leave[gq];

    // The buffer's overflow is its own checks' business (its assertions).
    logic [$clog2(B)-1:0] buf_occupancy;
    /* verilator lint_off UNUSEDSIGNAL */
    logic                 buf_overflow;
    logic [CW-1:0]        pending;
    /* verilator lint_on UNUSEDSIGNAL */
    rx_buffer #(.B(B - 1), .WIDTH(FW)) u_buffer (
      .clk, .rst_n,
      .push(push[gq]), .push_data(in_flit[GP*FW +: FW]),
      .drain(fill[gq]),
      .pop(buf_pop[gq]), .pop_data(buf_data[gq]),
      .occupancy(buf_occupancy), .overflow(buf_overflow));

    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n) begin
        head_valid[gq] <= 1'b0;
        head_flit[gq]  <= '0;
      end else if (fill[gq]) begin
        head_valid[gq] <= buf_pop[gq];
        head_flit[gq]  <= buf_data[gq];
      end
    end

    noc_route #(.TOPO(TOPO), .NX(NX), .NY(NY), .V(V), .ROUTING(ROUTING), .NW(NW), .PW(PW), .VW(VW)) u_route (
      .here, .dest(head_flit[gq][O_DST +: NW]), .in_port(PW'(GP)), .in_vc(VW'(GV)),
      .out_port(route_port[gq]), .vc_mask(route_mask[gq]),
      .alt_port(route_alt_port[gq]), .alt_mask(route_alt_mask[gq]));

    assign obs_fill[gq*CW +: CW] = CW'(buf_occupancy) + CW'(head_valid[gq]);

    logic [CW-1:0] returned;
    credit_return #(.B(B), .K(1)) u_return (
      .clk, .rst_n, .freed(leave[gq]), .flush(1'b0), .returned(returned), .pending(pending));
    assign credit_out[gq*CW +: CW] = returned;

    if (GP == 0) begin : g_eject
      // The sink is not credited: it takes a flit whenever it is ready (credit_in's slices of
      // port 0 are not read).
      /* verilator lint_off UNUSEDSIGNAL */
      logic [CW-1:0] no_credits;
      /* verilator lint_on UNUSEDSIGNAL */
      assign no_credits = credit_in[gq*CW +: CW];
      assign out_credits[gq] = eject_ready ? CW'(1) : '0;
      assign obs_credits[gq*CW +: CW] = '0;
    end else begin : g_credit
      logic can_send_unused, do_send_unused;
      credit_counter #(.MAXC(B), .RETURN_WIDTH(CW)) u_credits (
        .clk, .rst_n, .credit_return(credit_in[gq*CW +: CW]), .want_send(out_take[gq]),
        .init_credits(CW'(B)), .can_send(can_send_unused), .do_send(do_send_unused),
        .credits(out_credits[gq]));
      assign obs_credits[gq*CW +: CW] = out_credits[gq];
    end
  end

  // ---- VC allocation: round robin over the input VCs from va_next
  logic [QW-1:0] va_next;
  logic [Q-1:0]  va_grant;
  logic [PW-1:0] va_port [Q];
  logic [VW-1:0] va_vc [Q];
  logic [Q-1:0]  claimed;
  logic [QW-1:0] va_first;
  logic          va_any;

  // The loops' indices are ints (the round robin wraps modulo Q); their high bits are unused.
  /* verilator lint_off UNUSEDSIGNAL */
  always_comb begin
    int q, o;
    logic [PW-1:0] port;
    logic          allowed;
    claimed  = out_busy;
    va_grant = '0;
    va_any   = 1'b0;
    va_first = va_next;
    for (int i = 0; i < Q; i++) begin
      va_port[i] = '0;
      va_vc[i]   = '0;
    end
    q = 0;
    o = 0;
    port    = '0;
    allowed = 1'b0;
    for (int k = 0; k < Q; k++) begin
      q = (int'(va_next) + k) % Q;
      if (head_valid[q] && head_flit[q][O_HD] && !held[q]) begin
        // The candidates in order: out_port's VCs, then alt_port's.
        for (int c = 0; c < CANDIDATES; c++) begin
          port    = (c < V) ? route_port[q] : route_alt_port[q];
          allowed = (c < V) ? route_mask[q][c % V] : route_alt_mask[q][c % V];
          o = int'(port) * V + c % V;
          if (!va_grant[q] && allowed && !claimed[o] && (port == '0 || int'(out_credits[o]) == B)) begin
            va_grant[q] = 1'b1;
            va_port[q]  = port;
            va_vc[q]    = VW'(c % V);
            claimed[o]  = 1'b1;
            if (!va_any) va_first = QW'(q);
            va_any = 1'b1;
          end
        end
      end
    end
  end

  /* verilator lint_on UNUSEDSIGNAL */

  // ---- switch allocation
  logic [PW-1:0] want_port [Q];
  logic [VW-1:0] want_vc [Q];
  logic [Q-1:0]  eligible;
  logic [VW-1:0] in_next [P];       // round-robin pointer per input port (over its VCs)
  logic [P-1:0]  in_offers;
  logic [VW-1:0] in_choice [P];
  logic [$clog2(P+1)-1:0] out_next [P];   // round-robin pointer per output port (over inputs)
  logic [P-1:0]  out_grant_valid;
  logic [$clog2(P+1)-1:0] out_grant [P];

  /* verilator lint_off UNUSEDSIGNAL */
  always_comb begin
    int v, p;
    v = 0;
    p = 0;
    for (int q = 0; q < Q; q++) begin
      want_port[q] = held[q] ? held_port[q] : va_grant[q] ? va_port[q] : route_port[q];
      want_vc[q]   = held[q] ? held_vc[q] : va_vc[q];
      eligible[q]  = head_valid[q] && (held[q] || va_grant[q]) &&
                     out_credits[int'(want_port[q]) * V + int'(want_vc[q])] != '0;
    end
    for (int i = 0; i < P; i++) begin
      in_offers[i] = 1'b0;
      in_choice[i] = '0;
      for (int k = 0; k < V; k++) begin
        v = (int'(in_next[i]) + k) % V;
        if (!in_offers[i] && eligible[i * V + v]) begin
          in_offers[i] = 1'b1;
          in_choice[i] = VW'(v);
        end
      end
    end
    for (int o = 0; o < P; o++) begin
      out_grant_valid[o] = 1'b0;
      out_grant[o]       = '0;
      for (int k = 0; k < P; k++) begin
        p = (int'(out_next[o]) + k) % P;
        if (!out_grant_valid[o] && in_offers[p] && int'(want_port[p * V + int'(in_choice[p])]) == o) begin
          out_grant_valid[o] = 1'b1;
          out_grant[o]       = ($clog2(P+1))'(p);
        end
      end
    end
  end

  // ---- traversal: the granted head flits leave
  always_comb begin
    int q;
    q        = 0;
    leave    = '0;
    out_take = '0;
    for (int o = 0; o < P; o++) begin
      q = int'(out_grant[o]) * V + int'(in_choice[int'(out_grant[o])]);
      out_valid[o]         = out_grant_valid[o];
      out_flit[o*FW +: FW] = '0;
      if (out_grant_valid[o]) begin
        leave[q] = 1'b1;
        out_take[o * V + int'(want_vc[q])] = (o != 0);
        out_flit[o*FW +: FW] = head_flit[q];
        out_flit[o*FW + O_VC +: VW] = want_vc[q];
      end
    end
  end
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- what each head flit waits for (obs_wait)
  always_comb begin
    obs_wait = '0;
    for (int q = 0; q < Q; q++)
      if (head_valid[q] && !leave[q] && want_port[q] != '0) begin
        if (held[q] || va_grant[q]) begin
          if (out_credits[int'(want_port[q]) * V + int'(want_vc[q])] == '0)
            obs_wait[q * Q + int'(want_port[q]) * V + int'(want_vc[q])] = 1'b1;
        end else if (head_flit[q][O_HD]) begin
          for (int w = 0; w < V; w++) begin
            if (route_mask[q][w])     obs_wait[q * Q + int'(route_port[q]) * V + w] = 1'b1;
            if (CANDIDATES > V && route_alt_mask[q][w])
              obs_wait[q * Q + int'(route_alt_port[q]) * V + w] = 1'b1;
          end
        end
      end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      va_next  <= '0;
      held     <= '0;
      out_busy <= '0;
      for (int q = 0; q < Q; q++) begin
        held_port[q] <= '0;
        held_vc[q]   <= '0;
      end
      for (int p = 0; p < P; p++) begin
        in_next[p]  <= '0;
        out_next[p] <= '0;
      end
    end else begin
      if (va_any) va_next <= QW'((int'(va_first) + 1) % Q);
      for (int q = 0; q < Q; q++) begin
        if (va_grant[q]) begin
          held[q]      <= 1'b1;
          held_port[q] <= va_port[q];
          held_vc[q]   <= va_vc[q];
          out_busy[int'(va_port[q]) * V + int'(va_vc[q])] <= 1'b1;
        end
        // The tail leaves: its input VC and its output VC are free again (a one-flit packet is
        // given its output VC and frees it in the same cycle).
        if (leave[q] && head_flit[q][O_TL]) begin
          held[q] <= 1'b0;
          out_busy[int'(want_port[q]) * V + int'(want_vc[q])] <= 1'b0;
        end
      end
      for (int p = 0; p < P; p++)
        if (in_offers[p] && leave[p * V + int'(in_choice[p])]) in_next[p] <= VW'((int'(in_choice[p]) + 1) % V);
      for (int o = 0; o < P; o++)
        if (out_grant_valid[o]) out_next[o] <= ($clog2(P+1))'((int'(out_grant[o]) + 1) % P);
    end
  end

`ifndef SYNTHESIS
  /* verilator lint_off SYNCASYNCNET */
  for (gq = 0; gq < Q; gq++) begin : g_check
    logic          is_head;
    logic [CW-1:0] credits;
    assign is_head = head_flit[gq][O_HD];
    assign credits = out_credits[gq];
    // A flit leaves towards a router only on a credit (the counter's own checks see it too).
    a_no_send_at_zero: assert property (@(posedge clk) disable iff (!rst_n)
        !(out_take[gq] && credits == '0))
      else $error("noc_router %0d: output VC %0d of port %0d sent with no credit", here, gq % V, gq / V);
    // Only a packet's head flit is given an output VC; a body flit follows its head's.
    a_body_follows_head: assert property (@(posedge clk) disable iff (!rst_n)
        !(leave[gq] && !held[gq] && !is_head))
      else $error("noc_router %0d: a body flit left input VC %0d of port %0d without its packet's VC", here, gq % V, gq / V);
  end
  /* verilator lint_on SYNCASYNCNET */
  initial begin
    if (B < 2) $error("noc_router: B = %0d: a VC needs at least 2 slots (one at its head)", B);
    if (P > 5) $error("noc_router: P = %0d: at most 5 ports (local and four directions)", P);
  end
`endif
endmodule
