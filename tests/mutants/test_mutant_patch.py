#!/usr/bin/env python3
"""The mutant patches cannot drift: scripts/mutant_patch.py --check fails, naming the mutant, when
a patch no longer applies to its block (the block changed under it), when a patch adds a line it
does not mark, and when a hunk's lines are found twice; a good patch applies to a hand-written
block and gives the hand-worked result. The example designs' mutants (examples/own_rtl/*/mutants/)
are checked against their live files the same way. Runs on a scratch copy of rtl/ and examples/
(never the checkout's)."""
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "scripts" / "mutant_patch.py"

BLOCK = """module counter (
  input  logic clk,
  output logic [3:0] count
);
  always_ff @(posedge clk) begin
    count <= count + 1'b1;
  end
endmodule
"""
GOOD = """// MUTANT: a counter that never moves
// creditloop-mutant: replaces=counter.sv
@ always_ff @(posedge clk) begin
- count <= count + 1'b1;
+     count <= count;   // MUTANT: no increment
"""
# What GOOD makes of BLOCK, worked by hand.
GOOD_RESULT = BLOCK.replace("    count <= count + 1'b1;\n", "    count <= count;   // MUTANT: no increment\n")

failures = []


def check(rtl, *extra):
    run = subprocess.run([sys.executable, str(SCRIPT), "--check", "--rtl", str(rtl), *extra], capture_output=True, text=True)
    return run.returncode, run.stdout + run.stderr


def expect(what, condition, output=""):
    if not condition:
        failures.append(f"{what}\n{output}")


with tempfile.TemporaryDirectory() as tmp:
    rtl = Path(tmp) / "rtl"
    (rtl / "mutants").mkdir(parents=True)
    (rtl / "counter.sv").write_text(BLOCK)
    mutant = rtl / "mutants" / "counter_stuck.mutant"
    mutant.write_text(GOOD)
    code, out = check(rtl)
    expect("a good patch passes", code == 0, out)
    emitted = subprocess.run([sys.executable, str(SCRIPT), "--emit", "counter_stuck", "--rtl", str(rtl)],
                             capture_output=True, text=True).stdout
    expect("the patch gives the hand-worked block", emitted == GOOD_RESULT, emitted)

    # The block changes under the patch: the line it takes out is gone.
    (rtl / "counter.sv").write_text(BLOCK.replace("count + 1'b1", "count + 4'd1"))
    code, out = check(rtl)
    expect("a patch that no longer applies fails, naming the mutant and its hunk",
           code == 1 and "counter_stuck.mutant:3" in out and "found 0 times" in out, out)
    (rtl / "counter.sv").write_text(BLOCK)

    # An added line without the mark: the change is more than the marked lines.
    mutant.write_text(GOOD.replace("   // MUTANT: no increment", ""))
    code, out = check(rtl)
    expect("an unmarked added line fails", code == 1 and "must say MUTANT" in out, out)

    # A hunk whose lines are found twice cannot say where it goes.
    (rtl / "counter.sv").write_text(BLOCK.replace("  end\n", "  end\n  always_ff @(posedge clk) begin\n    count <= count + 1'b1;\n  end\n"))
    mutant.write_text(GOOD)
    code, out = check(rtl)
    expect("an ambiguous hunk fails", code == 1 and "found 2 times" in out, out)

    # The checkout's own mutants, and its examples', all pass on a scratch copy of rtl/ and examples/.
    copy = Path(tmp) / "checkout" / "rtl"
    shutil.copytree(ROOT / "rtl", copy)
    shutil.copytree(ROOT / "examples", copy.parent / "examples")
    examples = sorted((ROOT / "examples" / "own_rtl").glob("*/mutants/*.mutant")) + \
        sorted((ROOT / "examples" / "own_rtl").glob("*/variants/*.mutant"))
    code, out = check(copy, *(sys.argv[1:2] and ["--cli", sys.argv[1]]))
    expect("every mutant of the checkout applies and changes only its marked lines", code == 0, out)
    expect("the examples' mutants and variants are among those checked", examples and f"({len(examples)} of the examples)" in out, out)

    # Break one live block under the checkout's mutants: the check names the mutant.
    counter = copy / "credit_counter.sv"
    live_counter = counter.read_text()
    counter.write_text(live_counter.replace("if (!rst_n) credits <= init_credits;", "if (!rst_n) credits <= init_credits;  // edited"))
    code, out = check(copy)
    expect("an edited block whose mutants no longer apply fails, naming them",
           code == 1 and "credit_counter_over_grant.mutant" in out, out)
    counter.write_text(live_counter)

    # Edit an example design's file under its mutant: the check names the mutant and the file.
    sender = copy.parent / "examples" / "own_rtl" / "link" / "cbfc_tx.sv"
    sender.write_text(sender.read_text().replace("avail_q - CW'(m_valid) + (crd_valid ? crd_cnt : '0)",
                                                 "avail_q + (crd_valid ? crd_cnt : '0) - CW'(m_valid)"))
    code, out = check(copy)
    expect("an edited example file whose mutant no longer applies fails, naming it and the file",
           code == 1 and "cbfc_tx_leak.mutant:" in out and "found 0 times in link/cbfc_tx.sv" in out
           and "cbfc_tx_overflow.mutant" not in out, out)

for f in failures:
    print("FAILED:", f)
print(f"test_mutant_patch: {len(failures)} failure{'' if len(failures) == 1 else 's'}")
sys.exit(1 if failures else 0)
