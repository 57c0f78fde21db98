// Seed 001's testbench (module tb in ../shared/seeds/001_3debfd967b78a3f4.txt), lengthened into
// a benchmark job for scripts/bench/peers.py. The sender, the two pipelines, the receiver and
// the checker (credit invariant and overflow check on every cycle) are the seed's lines,
// unchanged. Only these lines differ from the seed:
//   - L = 4, B = 12 (the bench configuration; K = 1 is the seed's one-flit-per-credit loop).
//     The seed's 4-bit `credits` and `occ` still hold 12, and `fwd`/`back` are [L-1:0].
//   - The run length: the seed stops at #400, i.e. 39 cycles after reset. Here the run stops
//     after CYCLES clock cycles after reset: the parameter CYCLES (default 10,000,000) or the
//     plusarg +CYCLES=N. The stop time #(10*CYCLES + 10) gives the seed's #400 for CYCLES = 39
//     and, like it, falls on a falling edge, away from the checker's rising edge.
//     CYCLES must be at least 6*RTT = 60 (the end of the checker's window) and below 2^31
//     (`t` is the seed's 32-bit integer).
//   - $dumpfile/$dumpvars are commented out: a benchmark measures simulation, not VCD writing.
//   - The PASS condition: the seed wants `sends == 4 * B` over its four-round-trip window,
//     which is right for its B = 3 < RTT = 6. With B = 12 > RTT = 10 the sender runs at one flit
//     per cycle, so the window holds 4 * RTT = 40 sends, not 48. The seed's intent is
//     "min(B, RTT) flits per round trip", so PASS needs sends == 4 * min(B, RTT). PASS also
//     needs t == CYCLES (every requested cycle was simulated), and both lines print t.
// Run by hand (peers.py does this with a build directory):
//   with Icarus 11:       iverilog -g2012 -o tb.vvp seed001_tb_long.sv && vvp -n tb.vvp +CYCLES=N
//   with Verilator 5.006: verilator --binary --timing -Wno-WIDTH seed001_tb_long.sv
//                         && obj_dir/Vseed001_tb_long +CYCLES=N
// -Wno-WIDTH: the seed's implicit width extensions (e.g. `credits + crd_in - send`) are
// warnings, which Verilator makes fatal; the seed's own tb needs the same flag. (No comment line
// here may start with the word "verilator": Verilator reads such a comment as a directive.)
module tb #(parameter longint CYCLES = 10_000_000);
  localparam int L = 4, B = 12, RTT = 2 * L + 2;
  localparam int RATE = (B < RTT) ? B : RTT;   // flits per round trip: min(B, RTT)
  reg clk = 0;
  always #5 clk = ~clk;
  reg rst_n = 0;
  initial begin
    // $dumpfile("wave.vcd");   // disabled for the benchmark (see the header)
    // $dumpvars(0, tb);
    #12 rst_n = 1;
  end

  // Sender: spends one credit per flit.
  reg  [3:0] credits = B;
  wire       send = (credits != 0);

  // Forward and return pipelines (one register per stage).
  reg  [L-1:0] fwd  = 0;
  reg  [L-1:0] back = 0;
  wire rx_vld = fwd[L-1];          // flit reaching the receiver this cycle
  wire crd_in = back[L-1];         // credit reaching the sender this cycle

  // Receiver: a B-slot buffer, drained one flit per cycle; each drained slot
  // sends one credit back.
  reg  [3:0] occ = 0;
  wire       pop = (occ != 0);

  always @(posedge clk) begin
    if (!rst_n) begin
      credits <= B; fwd <= 0; back <= 0; occ <= 0;
    end else begin
      credits <= credits + crd_in - send;
      fwd     <= {fwd[L-2:0], send};
      back    <= {back[L-2:0], pop};
      occ     <= occ + rx_vld - pop;
    end
  end

  // Checker
  integer t = 0, sends = 0, errors = 0;
  function automatic int ones(input [L-1:0] v);
    ones = 0;
    for (int i = 0; i < L; i++) ones += v[i];
  endfunction
  always @(posedge clk) if (rst_n) begin
    if (credits + ones(fwd) + occ + ones(back) != B) begin
      $display("ERROR: credit invariant broken at cycle %0d", t);
      errors++;
    end
    if (occ > B) begin
      $display("ERROR: receiver buffer overflow at cycle %0d", t);
      errors++;
    end
    if (t >= 2 * RTT && t < 6 * RTT) sends += send;  // four round trips in steady state
    t++;
  end

  longint cycles;
  initial begin
    if (!$value$plusargs("CYCLES=%d", cycles)) cycles = CYCLES;
    #(10 * cycles + 10);   // the seed: #400
    if (errors == 0 && sends == 4 * RATE && t == cycles)
      $display("PASS: %0d flits in %0d cycles (min(B, RTT) = %0d per RTT of %0d cycles, B = %0d), no overflow; %0d cycles simulated",
               sends, 4 * RTT, RATE, RTT, B, t);
    else
      $display("FAIL: %0d errors, %0d flits in %0d cycles; %0d cycles simulated", errors, sends, 4 * RTT, t);
    $finish;
  end
endmodule
