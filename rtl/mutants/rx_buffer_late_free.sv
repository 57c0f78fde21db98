// MUTANT (bug class: credit returned before its slot is free), seed 004: every credit is
// "attached to a word in flight, as an occupied slot in the buffer, or on its way back", never
// two at once. The designer retimed the occupancy update: the consumer's drain arrives late in
// the cycle, so the decrement was moved behind a register (pop_q) to take drain out of the
// occupancy adder. The pointers and the pop strobe stay combinational, so credit_return still
// returns the credit in the pop cycle, but the slot is only counted free one cycle later: for
// that cycle the credit is both on its way back and an occupied slot. Worse, the empty check
// (pop = drain && occupancy != 0) now reads the stale count, so a drain in the next cycle pops
// a buffer that is really empty (a stale flit out, one more credit created).
// The free strobe of this link is rx_buffer's pop (credit_link wires freed = pop), so "return on
// arrival instead of pop" cannot be written by replacing one block; this is the form the bug
// takes inside rx_buffer with the same ports.
// Caught in the cycle after the first pop: conservation.total ("created") and lockstep on
// link.rx.occupancy; any traffic.
// Identical to rtl/rx_buffer.sv except for the marked lines (and pop_q's reset).
// creditloop-mutant: replaces=rx_buffer.sv
// creditloop-mutant: class=credit returned before its slot is free
// creditloop-mutant: source=seed 004
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
  logic             pop_q;   // BUG: the pop, a cycle late, for the occupancy update

  assign pop      = drain && (occupancy != '0);
  assign pop_data = pop ? slots[head] : '0;
  assign overflow = push && !pop && (occupancy == CW'(B));
  assign write    = push && !overflow;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      head      <= '0;
      tail      <= '0;
      occupancy <= '0;
      pop_q     <= 1'b0;
    end else begin
      if (pop)   head <= (head == LAST) ? '0 : head + 1'b1;
      if (write) tail <= (tail == LAST) ? '0 : tail + 1'b1;
      pop_q     <= pop;
      occupancy <= occupancy + CW'(write) - CW'(pop_q);   // BUG: slot freed a cycle after its credit
    end
  end

  always_ff @(posedge clk) begin
    if (write) slots[tail] <= push_data;
  end
endmodule
