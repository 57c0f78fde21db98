// vc_credit_sender: one physical channel shared by NumVcs virtual channels, each with its own
// credit counter and its own credit return; the flits of the VCs that hold a credit go to an
// external arbiter, and the winner's flit leaves with its VC id.
//
//   request[v]           VC v has a flit and a credit: it asks the arbiter
//   can_grant[v]         no VC of higher priority is asking (request & can_grant == grant)
//   grant[v]             VC v wins this cycle; its flit leaves and its counter is charged
//   enable_priority_update   a flit left: the arbiter may move its priority on
//   push_valid/ready/data[v] VC v's ready/valid input
//   pop_valid, pop_data, pop_vc   the flit on the channel this cycle and its VC
//   pop_credit[v]        credits the receiver returns to VC v this cycle (a count)
//   credit_initial[v]    VC v's credits, loaded while in reset
//   credit_withhold[v]   credits of VC v kept out of use
//   credit_count[v]      VC v's credits at the start of this cycle; credit_available[v] of them usable
// Reset is synchronous and active high, from either end (rst, pop_receiver_in_reset).
module vc_credit_sender #(
  parameter int NumVcs = 2,
  parameter int Width = 8,
  parameter int MaxCredit = 4,
  parameter int PopCreditMaxChange = 1,
  localparam int VcWidth = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  localparam int CounterWidth = $clog2(MaxCredit + 1),
  localparam int PopCreditWidth = $clog2(PopCreditMaxChange + 1)
) (
  input  logic clk,
  input  logic rst,

  output logic [NumVcs-1:0] request,
  input  logic [NumVcs-1:0] can_grant,
  input  logic [NumVcs-1:0] grant,
  output logic              enable_priority_update,

  output logic [NumVcs-1:0]            push_ready,
  input  logic [NumVcs-1:0]            push_valid,
  input  logic [NumVcs-1:0][Width-1:0] push_data,

  output logic                                  pop_sender_in_reset,
  input  logic                                  pop_receiver_in_reset,
  input  logic [NumVcs-1:0][PopCreditWidth-1:0] pop_credit,
  output logic                                  pop_valid,
  output logic [Width-1:0]                      pop_data,
  output logic [VcWidth-1:0]                    pop_vc,

  input  logic [NumVcs-1:0][CounterWidth-1:0] credit_initial,
  input  logic [NumVcs-1:0][CounterWidth-1:0] credit_withhold,
  output logic [NumVcs-1:0][CounterWidth-1:0] credit_count,
  output logic [NumVcs-1:0][CounterWidth-1:0] credit_available
);
  logic either_rst;
  assign either_rst = rst || pop_receiver_in_reset;

  logic [NumVcs-1:0] taken;
  for (genvar v = 0; v < NumVcs; v++) begin : g_vc
    logic [CounterWidth:0] next;
    assign credit_available[v] = (credit_count[v] > credit_withhold[v]) ? credit_count[v] - credit_withhold[v] : '0;
    assign request[v]    = push_valid[v] && credit_available[v] != '0;
    assign push_ready[v] = grant[v];
    assign taken[v]      = push_valid[v] && push_ready[v];
    always_comb begin
      next = {1'b0, credit_count[v]};
      if (taken[v]) next = next - 1'b1;
      next = next + (CounterWidth + 1)'(pop_credit[v]);
    end
    always_ff @(posedge clk) begin
      if (either_rst) credit_count[v] <= credit_initial[v];
      else            credit_count[v] <= next[CounterWidth-1:0];
    end
`ifndef SYNTHESIS
    a_granted_asked: assert property (@(posedge clk) disable iff (either_rst) grant[v] |-> request[v])
      else $error("VC %0d granted without asking", v);
    a_within_max: assert property (@(posedge clk) disable iff (either_rst) next <= (CounterWidth + 1)'(MaxCredit))
      else $error("VC %0d would hold %0d credits, more than %0d", v, next, MaxCredit);
`endif
  end

  // The winner's flit and its VC.
  always_comb begin
    pop_vc   = '0;
    pop_data = '0;
    for (int v = 0; v < NumVcs; v++)
      if (taken[v]) begin
        pop_vc   = VcWidth'(v);
        pop_data = push_data[v];
      end
  end
  assign pop_valid              = |taken;
  assign enable_priority_update = pop_valid;
  assign pop_sender_in_reset    = rst;
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = |can_grant;   // the arbiter's view; the grant already carries it
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
