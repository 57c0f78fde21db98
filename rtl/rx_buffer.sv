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
endmodule
