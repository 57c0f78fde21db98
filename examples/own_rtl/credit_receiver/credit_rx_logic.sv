// A credit receiver of credit logic only, in the shape published credit libraries give theirs
// (push_* from the link, pop_* on, pop_credit back from a buffer it does not own): no storage.
// Flits from the link pass straight on to a buffer downstream; each time that buffer frees a
// slot (pop_credit), one credit goes back to the sender a cycle later (push_credit, registered).
// It counts the slots taken downstream and asserts that the sender never overruns them.
module credit_rx_logic #(
  parameter  int NumCredits = 8,
  parameter  int Width      = 32,
  localparam int CountWidth = $clog2(NumCredits + 1)
) (
  input  logic                  clk,
  input  logic                  rst,           // synchronous, active high
  input  logic                  push_valid,    // a flit from the link
  input  logic [Width-1:0]      push_data,
  output logic                  push_credit,   // one credit back to the sender
  output logic                  pop_valid,     // the flit, passed on to the buffer
  output logic [Width-1:0]      pop_data,
  input  logic                  pop_credit,    // the buffer freed a slot
  output logic [CountWidth-1:0] slots_taken    // flits held downstream
);
  assign pop_valid = push_valid;
  assign pop_data  = push_data;

  always_ff @(posedge clk) begin
    if (rst) begin
      push_credit <= 1'b0;
      slots_taken <= '0;
    end else begin
      push_credit <= pop_credit;
      slots_taken <= slots_taken + CountWidth'(push_valid) - CountWidth'(pop_credit);
    end
  end

  // The sender never sends into a full buffer.
  always_ff @(posedge clk) begin
    if (!rst) begin
      a_no_overrun: assert (!push_valid || pop_credit || slots_taken < CountWidth'(NumCredits))
        else $error("credit_rx_logic: a flit arrived with all %0d slots taken", NumCredits);
    end
  end
endmodule
