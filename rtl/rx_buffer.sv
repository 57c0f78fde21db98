// rx_buffer: the receiver's B-slot buffer, FIFO order (link.rx).
//   push, push_data   a flit arrives in this cycle; it occupies a slot from the next cycle.
//   drain             the consumer takes the head flit in this cycle if there is one.
//   pop, pop_data     combinational: drain && occupancy != 0, and the head flit (0 when !pop).
//   occupancy         flits held at the start of this cycle.
//   overflow          combinational: a flit arrives while all B slots stay full; the flit is
//                     dropped (flagged, never wrapped over the head).
// Timing: a flit pushed in cycle t can be popped in cycle t + 1 at the earliest (no bypass),
// and the slot a pop frees counts as free from cycle t + 1.
// Invariant: 0 <= occupancy <= B; flits leave in the order they arrived.
// Assertions (Verilator --assert, checked at every rising edge out of reset):
//   a_occupancy_within_b  occupancy <= B.
//   a_no_pop_when_empty   pop only with occupancy != 0.
//   a_fifo_pointers       the ring's pointers stay below B and agree with the occupancy: tail is
//                         occupancy slots after head (mod B), so flits leave in the order they
//                         were written.
// (Whether a pop returns the flit that was pushed is the data scoreboard's check.)
// Covers (named for a --coverage-user report):
//   cover_buffer_full              all B slots hold a flit.
//   cover_buffer_full_to_one_free  a full buffer pops without a push: one slot free next cycle.
//   cover_buffer_empty_to_one      a flit arrives at an empty buffer.
module rx_buffer #(
  parameter int B     = 4,
  parameter int WIDTH = 32
) (
  input  logic                    clk,
  input  logic                    rst_n,
  input  logic                    push,
  input  logic [WIDTH-1:0]        push_data,
  input  logic                    drain,
  output logic                    pop,
  output logic [WIDTH-1:0]        pop_data,
  output logic [$clog2(B+1)-1:0]  occupancy,
  output logic                    overflow
);
  localparam int AW = (B > 1) ? $clog2(B) : 1;
  localparam int CW = $clog2(B + 1);
  localparam logic [AW-1:0] LAST = AW'(B - 1);

  logic [WIDTH-1:0] slots [B];
  logic [AW-1:0]    head, tail;
  logic             write;

  assign pop      = drain && (occupancy != '0);
  assign pop_data = pop ? slots[head] : '0;
  assign overflow = push && !pop && (occupancy == CW'(B));
  assign write    = push && !overflow;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      head      <= '0;
      tail      <= '0;
      occupancy <= '0;
    end else begin
      if (pop)   head <= (head == LAST) ? '0 : head + 1'b1;
      if (write) tail <= (tail == LAST) ? '0 : tail + 1'b1;
      occupancy <= occupancy + CW'(write) - CW'(pop);
    end
  end

  always_ff @(posedge clk) begin
    if (write) slots[tail] <= push_data;
  end

`ifndef SYNTHESIS
  // How far tail runs ahead of head around the ring of B slots (0 when empty or full).
  int ring_distance;
  assign ring_distance = (int'(tail) >= int'(head)) ? int'(tail) - int'(head) : int'(tail) + B - int'(head);

  // The checker samples rst_n on the clock; the lint note about mixing that with the async
  // reset above is about synthesis, not about this checker.
  /* verilator lint_off SYNCASYNCNET */
  a_occupancy_within_b: assert property (@(posedge clk) disable iff (!rst_n)
      int'(occupancy) <= B)
    else $error("rx_buffer: the buffer never holds more than B: occupancy %0d > B %0d", occupancy, B);
  a_no_pop_when_empty: assert property (@(posedge clk) disable iff (!rst_n)
      !(pop && occupancy == '0))
    else $error("rx_buffer: no pop from an empty buffer: pop %0d with occupancy %0d (drain %0d)",
                pop, occupancy, drain);
  a_fifo_pointers: assert property (@(posedge clk) disable iff (!rst_n)
      int'(head) < B && int'(tail) < B && ring_distance == int'(occupancy) % B)
    else $error("rx_buffer: pointers agree with the occupancy: head %0d, tail %0d (%0d apart), occupancy %0d, B %0d",
                head, tail, ring_distance, occupancy, B);

  cover_buffer_full: cover property (@(posedge clk) disable iff (!rst_n)
      occupancy == CW'(B));
  cover_buffer_full_to_one_free: cover property (@(posedge clk) disable iff (!rst_n)
      occupancy == CW'(B) && pop && !write);
  cover_buffer_empty_to_one: cover property (@(posedge clk) disable iff (!rst_n)
      occupancy == '0 && write);
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
