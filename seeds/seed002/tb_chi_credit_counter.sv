// Copied verbatim from ../shared/seeds/002_e8024006d7a6805e.txt (section 13, lines 232-268, testbench); unchanged apart from this line.
module tb_chi_credit_counter;
  localparam MAXC = 8, CW = 4;
  logic clk = 0, rst_n = 0, credit_return, want_send;
  logic [CW-1:0] init_credits;
  logic can_send, do_send;
  logic [CW-1:0] credits;
  int errors = 0, inflight = 0;
 
  chi_credit_counter #(.MAXC(MAXC)) dut (.*);
  always #5 clk = ~clk;
 
  // Track in-flight flits: +1 on send, -1 on return. Must never exceed the grant.
  always @(posedge clk) if (rst_n) begin
    if (do_send)       inflight++;
    if (credit_return) inflight--;
    if (inflight > init_credits) begin errors++; $display("FAIL overflow: inflight=%0d > grant=%0d", inflight, init_credits); end
    if (do_send && credits == 0) begin errors++; $display("FAIL sent with 0 credits"); end
  end
 
  initial begin
    init_credits = 4'd2; credit_return = 0; want_send = 0;
    @(posedge clk) rst_n = 1;
 
    // Try to send continuously; receiver returns a credit only every 3rd cycle.
    want_send = 1;
    repeat (20) begin
      @(posedge clk);
      credit_return = ($time % 30 == 15);   // sparse returns
    end
    want_send = 0; credit_return = 0;
    repeat (3) @(posedge clk);
 
    if (errors == 0) $display("ALL TESTS PASSED (no overflow, no credit-less send)");
    else             $display("%0d FAILURE(S)", errors);
    $finish;
  end
endmodule
