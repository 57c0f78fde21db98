// MUTANT of occupancy_credit_counter.sv (seed 004's if/else-if leak): a take and a give in the
// same cycle should cancel; here the take wins and the returned credit is lost. The credit
// counter leaks one credit each time it happens. Identical but for the line marked MUTANT.
// An occupancy-style credit counter, written the way open-source libraries publish them: _i/_o
// port names, take/give/init inputs, a NumCredits parameter, a register macro from an include
// file, and an `==` between the count register and an integer parameter (Verilator's WIDTH
// warning, which most published RTL triggers). It is not written to creditloop's contract: a
// map file (occupancy_counter.map.json) tells creditloop which port plays which role.
//
//   credit_take_i   one credit is spent this cycle
//   credit_give_i   one credit comes back this cycle
//   credit_init_i   soft re-initialise to the full count (NumCredits)
//   credit_o        credits held; credit_left_o: at least one
// A take and a give in the same cycle cancel. Reset (asynchronous, active low) fills the counter.
`include "cl_registers.svh"

module occupancy_credit_counter #(
  parameter int unsigned NumCredits = 8,
  parameter int unsigned CntWidth   = $clog2(NumCredits + 1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                credit_take_i,
  input  logic                credit_give_i,
  input  logic                credit_init_i,
  output logic [CntWidth-1:0] credit_o,
  output logic                credit_left_o,
  output logic                credit_full_o
);
  logic [CntWidth-1:0] credit_d, credit_q;

  always_comb begin
    credit_d = credit_q;
    if (credit_take_i) credit_d = credit_q - 1'b1;   // MUTANT: a give in the same cycle as a take is lost
    else if (credit_give_i) credit_d = credit_q + 1'b1;
    if (credit_init_i) credit_d = CntWidth'(NumCredits);
  end

  `CL_FFARN(credit_q, credit_d, CntWidth'(NumCredits), clk_i, rst_ni)

  assign credit_o      = credit_q;
  assign credit_left_o = credit_q != '0;
  assign credit_full_o = credit_q == NumCredits;   // a CntWidth-bit register against a 32-bit parameter
endmodule
