// A counter to seed 002's contract that Verilator reads and yosys 0.23 does not: the module
// imports a package in its header (line 7). creditloop prove must refuse it in one line naming
// this file, the line and the construct, exit 2, and leave nothing behind.
package credit_pkg;
  typedef struct packed { logic take; logic give; } ev_t;
endpackage
module pkg_counter import credit_pkg::*; #(parameter int MAXC = 4) (input logic clk, rst_n, credit_return, want_send,
  input logic [$clog2(MAXC+1)-1:0] init_credits, output logic can_send, do_send, output logic [$clog2(MAXC+1)-1:0] credits);
  ev_t ev;
  logic [$clog2(MAXC+1)-1:0] hist [4];
  assign ev = '{take: do_send, give: credit_return};
  assign can_send = credits != 0; assign do_send = want_send && can_send;
  always_ff @(posedge clk or negedge rst_n) if (!rst_n) credits <= init_credits; else credits <= credits - ev.take + ev.give;
  always_ff @(posedge clk) foreach (hist[i]) hist[i] <= credits;
endmodule
