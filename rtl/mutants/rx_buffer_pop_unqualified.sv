// MUTANT (bug class: more credits returned than flits removed; a level treated as a pulse),
// seed 004: "the receiver never returns more credits than words it has removed". The consumer's
// drain is a level (ready: "I would take a flit"), but the buffer uses it as the pop event
// without qualifying it by occupancy, the classic read-when-empty FIFO bug. Every cycle drain is
// high on an empty buffer frees a slot that holds nothing: credit_return returns a credit for
// it (credits created), the read pointer runs past the write pointer and occupancy wraps below
// zero. Chosen over "credit_return counts drain" because credit_return never sees drain: in this
// link the freed strobe IS rx_buffer's pop, so the pop qualifier is where a designer writes it.
// Caught in the first cycle drain is high on an empty buffer (cycle 0 with --drain-every 1):
// lockstep on link.rx.pop and data.corrupt (a spurious flit) in that cycle, conservation.total
// ("created": occupancy wraps to 2^CW - 1) in the next. conservation.receiver_returns does NOT
// fire: it counts pops on the pop port, and here the pop port itself is what is wrong.
// Identical to rtl/rx_buffer.sv except for the marked line.
// creditloop-mutant: replaces=rx_buffer.sv
// creditloop-mutant: class=more credits returned than flits removed
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

  assign pop      = drain;   // BUG: the consumer's ready taken as a pop; empty not checked
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
