#!/usr/bin/env bash
# Seed 002's testbench (tb_chi_credit_counter, copied verbatim into seeds/seed002/), run as the seed
# printed it: Verilator (--binary --timing) and, when installed, Icarus Verilog (-g2012), each with
# the seed's SystemVerilog counter and with its Verilog-2001 counter. The seed promises
# "ALL TESTS PASSED"; both simulators report failures, and different ones. Why is in
# docs/seed002_testbench.md; --experiments reruns the evidence.
#   scripts/seed002_testbench.sh [OUTDIR]                 the seed's runs (OUTDIR: build/seed002)
#   scripts/seed002_testbench.sh --experiments [OUTDIR]   also the lint, a comparison probe and the
#                                                         one-change variants of the testbench
# Each run prints the testbench's output, indented, then one summary line:
#   "<simulator> <run>: N FAILURE(S) reported (F FAIL lines printed)"  or  "... ALL TESTS PASSED ..."
# Exit 0 when every run reached its verdict (the failures are the finding, not an error); 2 when
# Verilator is missing or a build or simulation did not complete.
# The seed's files are never edited: they are copied to OUTDIR/src, and every variant is written
# there next to them, made by literal text replacement that must match.
# shellcheck disable=SC2016  # '$' in single quotes below is SystemVerilog text, not shell
set -euo pipefail
shopt -u patsub_replacement 2>/dev/null || true   # bash 5.2: keep '&' literal in ${v/old/new}

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }

experiments=0
outdir=
for arg in "$@"; do
  case "$arg" in
    --experiments) experiments=1 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "seed002_testbench.sh: unknown option '$arg'" >&2; usage >&2; exit 2 ;;
    *) if [ -n "$outdir" ]; then echo "seed002_testbench.sh: one OUTDIR only" >&2; exit 2; fi
       outdir=$arg ;;
  esac
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seed_dir=$root/seeds/seed002
outdir=${outdir:-$root/build/seed002}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
src=$outdir/src
# One run at a time in an OUTDIR (the docs test and the Catch2 test both use build/seed002):
# every run rebuilds $src, so a second one waits for the first.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$outdir/.lock"
  flock 9
fi

if ! command -v verilator >/dev/null 2>&1; then
  echo "verilator: not installed (scripts/install-deps.sh installs it)" >&2
  exit 2
fi
have_icarus=0
if command -v iverilog >/dev/null 2>&1 && command -v vvp >/dev/null 2>&1; then have_icarus=1; fi
# Verilator's generated makefile compiles through $OBJCACHE; ccache makes rebuilds cheap.
if [ -z "${OBJCACHE:-}" ] && command -v ccache >/dev/null 2>&1; then export OBJCACHE=ccache; fi

# Sources are compiled from $src by relative name, so messages (Verilator's "$finish" line) do
# not depend on where the checkout or OUTDIR is.
rm -rf "$src"
mkdir -p "$src"
for f in chi_credit_counter.sv chi_credit_counter_v2001.v tb_chi_credit_counter.sv; do
  cp "$seed_dir/$f" "$src/$f"
done

broken=0
declare -A verdict=()
verilator_flags=()   # the seed's runs: exactly --binary --timing

# summarize SIM LABEL OUTPUT_FILE EXIT_CODE: the output, indented, then the summary line.
summarize() {
  local sim=$1 label=$2 out=$3 rc=$4 v fails
  sed 's/^/  /' "$out"
  if grep -q '^ALL TESTS PASSED' "$out"; then
    v="ALL TESTS PASSED"
  elif v=$(grep -Eo '^[0-9]+ FAILURE\(S\)$' "$out" | head -n 1) && [ -n "$v" ]; then
    v="$v reported"
  else
    v="no verdict printed"
    broken=1
  fi
  fails=$(grep -c '^FAIL' "$out" || true)
  verdict[$sim/$label]=$v
  if [ "$rc" -ne 0 ]; then
    broken=1
    echo "$sim $label: $v ($fails FAIL lines printed; simulation exited $rc)"
  else
    echo "$sim $label: $v ($fails FAIL lines printed)"
  fi
}

# Compiler messages, if any, shown before the run's output (with Verilator's "will be executed
# as" explanation line).
show_messages() {
  grep -E '^(%(Warning|Error)|.*(warning|error|sorry):|.*This will be executed)' "$1" |
    sed -e 's/^ *: \.\.\. /    /' -e 's/^/  build: /' || true
}

# run_verilator LABEL TB COUNTER: verilate, build and run in OUTDIR/verilator/LABEL.
run_verilator() {
  local label=$1 tb=$2 counter=$3 dir=$outdir/verilator/$1 rc=0
  mkdir -p "$dir"
  rm -f "$dir/output.txt"
  echo "== verilator $label: $tb + $counter"
  if ! (cd "$src" && timeout 600 verilator --binary --timing ${verilator_flags[@]+"${verilator_flags[@]}"} \
          --top-module tb_chi_credit_counter --Mdir "$dir" -o sim "$tb" "$counter") >"$dir/build.log" 2>&1; then
    show_messages "$dir/build.log"
    echo "verilator $label: build failed (log: $dir/build.log)"
    verdict[verilator/$label]="build failed"
    broken=1
    return 0
  fi
  show_messages "$dir/build.log"
  (cd "$src" && timeout 60 "$dir/sim") >"$dir/output.txt" 2>&1 || rc=$?
  summarize verilator "$label" "$dir/output.txt" "$rc"
}

# run_icarus LABEL TB COUNTER: compile and run in OUTDIR/icarus/LABEL.
run_icarus() {
  local label=$1 tb=$2 counter=$3 dir=$outdir/icarus/$1 rc=0
  mkdir -p "$dir"
  rm -f "$dir/output.txt"
  echo "== icarus $label: $tb + $counter"
  if ! (cd "$src" && timeout 120 iverilog -g2012 -s tb_chi_credit_counter -o "$dir/sim.vvp" \
          "$tb" "$counter") >"$dir/build.log" 2>&1; then
    show_messages "$dir/build.log"
    echo "icarus $label: build failed (log: $dir/build.log)"
    verdict[icarus/$label]="build failed"
    broken=1
    return 0
  fi
  show_messages "$dir/build.log"
  (cd "$src" && timeout 60 vvp -n "$dir/sim.vvp") >"$dir/output.txt" 2>&1 || rc=$?
  summarize icarus "$label" "$dir/output.txt" "$rc"
}

run_both() {
  run_verilator "$@"
  if [ "$have_icarus" = 1 ]; then run_icarus "$@"; fi
}

# The testbench's own lines (Verilator adds "- file:line: Verilog $finish"; Icarus adds nothing).
tb_lines() { grep -v -- '^- .*Verilog \$finish' "$1" || true; }

compare() {
  local label=$1
  if [ "$have_icarus" != 1 ]; then return 0; fi
  if [ ! -f "$outdir/verilator/$label/output.txt" ] || [ ! -f "$outdir/icarus/$label/output.txt" ]; then
    return 0
  fi
  if diff -q <(tb_lines "$outdir/verilator/$label/output.txt") \
             <(tb_lines "$outdir/icarus/$label/output.txt") >/dev/null; then
    echo "$label: verilator and icarus outputs agree (${verdict[verilator/$label]})"
  else
    echo "$label: verilator and icarus outputs differ (verilator ${verdict[verilator/$label]}, icarus ${verdict[icarus/$label]})"
  fi
}

echo "seed 002 testbench as printed: seeds/seed002/ (build in $outdir)"
echo
echo "--- verilator $(verilator --version | awk '{print $2}'): verilator --binary --timing"
run_verilator sv-counter tb_chi_credit_counter.sv chi_credit_counter.sv
run_verilator v2001-counter tb_chi_credit_counter.sv chi_credit_counter_v2001.v
echo
if [ "$have_icarus" = 1 ]; then
  echo "--- icarus $(iverilog -V 2>/dev/null | head -n 1 | awk '{print $4}'): iverilog -g2012, vvp"
  run_icarus sv-counter tb_chi_credit_counter.sv chi_credit_counter.sv
  run_icarus v2001-counter tb_chi_credit_counter.sv chi_credit_counter_v2001.v
  echo
  compare sv-counter
  compare v2001-counter
else
  echo "icarus: not installed, skipped (apt-get install -y iverilog)"
fi

if [ "$experiments" = 1 ]; then
  # ---- variants: the seed's files with literal edits; each edit must match exactly once.
  # variant BASE_FILE OUT_FILE OLD NEW [OLD NEW ...]
  variant() {
    local base=$1 out=$2 text old new
    shift 2
    text=$(<"$src/$base")
    while [ $# -gt 0 ]; do
      old=$1 new=$2
      shift 2
      case "$text" in
        *"$old"*"$old"*) echo "seed002_testbench.sh: $out: edit matches twice: $old" >&2; exit 2 ;;
        *"$old"*) text=${text/"$old"/"$new"} ;;
        *) echo "seed002_testbench.sh: $out: edit does not match $base: $old" >&2; exit 2 ;;
      esac
    done
    printf '%s\n' "$text" >"$src/$out"
  }
  nl=$'\n'
  check_open='  always @(posedge clk) if (rst_n) begin'
  overflow='if (inflight > init_credits)'
  zero_check='$display("FAIL sent with 0 credits"); end'
  reset_drive='    @(posedge clk) rst_n = 1;'
  want_drive='    want_send = 1;'
  return_drive='      credit_return = ($time % 30 == 15);   // sparse returns'
  loop_edge_and_return="      @(posedge clk);$nl$return_drive"
  stop_drive='    want_send = 0; credit_return = 0;'

  # trace: observation only. At every rising edge the checker prints what it samples, before it
  # counts; the initial block prints after each drive. Within one time step the order of the
  # lines is the order in which the simulator ran the two processes.
  variant tb_chi_credit_counter.sv tb_trace.sv \
    "$check_open" '  always @(posedge clk) begin $display("t=%0t checker sees: rst_n=%b want_send=%b credit_return=%b do_send=%b credits=%0d inflight=%0d", $time, rst_n, want_send, credit_return, do_send, credits, inflight); if (rst_n) begin' \
    "$zero_check$nl  end$nl" "$zero_check$nl  end end$nl" \
    "$reset_drive" '    @(posedge clk) rst_n = 1; $display("t=%0t initial drives: rst_n=1 want_send=1", $time);' \
    "$return_drive" '      credit_return = ($time % 30 == 15); $display("t=%0t initial drives: credit_return=%b", $time, credit_return);' \
    "$stop_drive" '    want_send = 0; credit_return = 0; $display("t=%0t initial drives: want_send=0 credit_return=0", $time);'
  # (a) alone: compare as signed 32-bit integers.
  variant tb_chi_credit_counter.sv tb_signed_compare.sv \
    "$overflow" "if (inflight > int'(init_credits))"
  # (c) the reset release alone, nonblocking; and the same with the trace.
  variant tb_chi_credit_counter.sv tb_reset_nba.sv \
    "$reset_drive" '    @(posedge clk) rst_n <= 1;'
  variant tb_trace.sv tb_trace_reset_nba.sv \
    '    @(posedge clk) rst_n = 1; $display(' '    @(posedge clk) rst_n <= 1; $display('
  # (c) every drive after time 0 nonblocking.
  variant tb_chi_credit_counter.sv tb_nba_drive.sv \
    "$reset_drive" '    @(posedge clk) rst_n <= 1;' \
    "$want_drive" '    want_send <= 1;' \
    "$return_drive" '      credit_return <= ($time % 30 == 15);   // sparse returns' \
    "$stop_drive" '    want_send <= 0; credit_return <= 0;'
  # (c) drive 1 time unit after the edge (the right-hand side is still computed at the edge).
  variant tb_chi_credit_counter.sv tb_delay_drive.sv \
    "$reset_drive" '    @(posedge clk) rst_n = #1 1;' \
    "$return_drive" '      credit_return = #1 ($time % 30 == 15);   // sparse returns'
  # (c) drive on the falling edge. Returns are raised at t = 20, 50, ... so that each is sampled
  # at the same rising edge (25, 55, ...) as a race-free reading of the seed's stimulus.
  variant tb_chi_credit_counter.sv tb_negedge_drive.sv \
    "$reset_drive" '    @(negedge clk) rst_n = 1;' \
    "$loop_edge_and_return" "      @(negedge clk);$nl      credit_return = (\$time % 30 == 20);   // sparse returns"
  # (b) alone: the receiver returns a credit only for a flit it holds (sent, not yet returned).
  variant tb_chi_credit_counter.sv tb_tied_returns.sv \
    "$return_drive" '      credit_return = ($time % 30 == 15) && (inflight > 0);   // only for a held flit'
  variant tb_trace.sv tb_trace_tied_returns.sv \
    '      credit_return = ($time % 30 == 15); $display(' \
    '      credit_return = ($time % 30 == 15) && (inflight > 0); $display('
  # (b): returns that no send earned, with the sender idle, on a race-free drive and a signed
  # compare: the counter climbs past its grant and the seed's checks still pass.
  variant tb_negedge_drive.sv tb_untied_idle.sv \
    "$overflow" "if (inflight > int'(init_credits))" \
    "$want_drive" '    want_send = 0;   // the sender stays idle: no return below is earned' \
    '    if (errors == 0) $display(' "    \$display(\"credits at the end: %0d, grant %0d\", credits, init_credits);$nl    if (errors == 0) \$display("
  # (a)+(b)+(c), plus what the seed's testbench lacks: checks for returns with nothing
  # outstanding, credits above the grant, unknown values and a run that sent nothing, a line
  # that says how much traffic there was, and a verdict printed after the last checked edge.
  # The X check is ^{...} === 1'bx because Icarus 11's $isunknown answers 1 for a
  # concatenation of known bits (the probe shows it).
  variant tb_negedge_drive.sv tb_fixed.sv \
    'int errors = 0, inflight = 0;' 'int errors = 0, inflight = 0, sends = 0, returns = 0;' \
    'if (do_send)       inflight++;' 'if (do_send)       begin inflight++; sends++; end' \
    'if (credit_return) inflight--;' 'if (credit_return) begin inflight--; returns++; end' \
    '      credit_return = ($time % 30 == 20);   // sparse returns' \
    '      credit_return = ($time % 30 == 20) && (inflight > 0);   // only for a held flit' \
    "$overflow" "if (inflight > int'(init_credits))" \
    "$zero_check" "$zero_check$nl    if (inflight < 0) begin errors++; \$display(\"FAIL credit returned with nothing outstanding: inflight=%0d\", inflight); end$nl    if (credits > init_credits) begin errors++; \$display(\"FAIL credits=%0d above grant=%0d\", credits, init_credits); end$nl    if (^{do_send, credits} === 1'bx) begin errors++; \$display(\"FAIL unknown: do_send=%b credits=%b\", do_send, credits); end" \
    '    repeat (3) @(posedge clk);' '    repeat (3) @(negedge clk);   // the verdict after the last checked edge, not racing it' \
    '    if (errors == 0) $display(' "    \$display(\"%0d flits sent, %0d credits returned, %0d in flight at the end\", sends, returns, inflight);$nl    if (sends == 0) begin errors++; \$display(\"FAIL no flit was sent\"); end$nl    if (errors == 0) \$display("
  # The seed's DebugLab bug (no decrement on send), to show the fixed testbench is not vacuous.
  variant chi_credit_counter.sv chi_credit_counter_debuglab.sv \
    "2'b01:   cr_q <= cr_q - 1'b1;   // send only  (MUST decrement)" \
    "2'b01:   cr_q <= cr_q;          // DebugLab bug: no decrement on send"

  cat >"$src/probe_compare.sv" <<'EOF'
// (a) in isolation: the seed's comparison, with the seed's types and values.
module probe_compare;
  int         inflight     = -1;
  logic [3:0] init_credits = 4'd2;
  initial begin
    #1;
    $display("inflight > init_credits       = %0d  (inflight=%0d, init_credits=%0d)", inflight > init_credits, inflight, init_credits);
    $display("inflight as 32-bit unsigned   = %0d", $unsigned(inflight));
    $display("inflight > int'(init_credits) = %0d", inflight > int'(init_credits));
    // Not (a): why the fixed testbench checks X with ^{...} === 1'bx rather than $isunknown.
    $display("$isunknown({1'b1, init_credits}) = %0d  (known bits: 0 expected)", $isunknown({1'b1, init_credits}));
    $finish;
  end
endmodule
EOF

  echo
  echo "=== experiments (sources in $src)"
  echo
  echo "--- lint: verilator --lint-only -Wall, the seed's testbench with its SV counter"
  (cd "$src" && verilator --lint-only -Wall --timing --top-module tb_chi_credit_counter \
     tb_chi_credit_counter.sv chi_credit_counter.sv 2>&1 || true) | grep -E '^%(Warning|Error)' | sed 's/^/  /' || true

  echo
  echo "--- probe: 'inflight > init_credits' with int inflight = -1 and logic [3:0] init_credits = 2"
  probe_dir=$outdir/verilator/probe
  mkdir -p "$probe_dir"
  if (cd "$src" && timeout 600 verilator --binary --timing --top-module probe_compare --Mdir "$probe_dir" \
        -o sim probe_compare.sv) >"$probe_dir/build.log" 2>&1; then
    (cd "$src" && timeout 60 "$probe_dir/sim") 2>&1 | sed 's/^/  verilator: /'
  else
    echo "verilator probe: build failed (log: $probe_dir/build.log)"
    broken=1
  fi
  if [ "$have_icarus" = 1 ]; then
    mkdir -p "$outdir/icarus/probe"
    if (cd "$src" && iverilog -g2012 -s probe_compare -o "$outdir/icarus/probe/sim.vvp" probe_compare.sv) \
         >"$outdir/icarus/probe/build.log" 2>&1; then
      (cd "$src" && timeout 60 vvp -n "$outdir/icarus/probe/sim.vvp") 2>&1 | sed 's/^/  icarus:    /'
    else
      echo "icarus probe: build failed (log: $outdir/icarus/probe/build.log)"
      broken=1
    fi
  fi

  # Verilator 5.006 refuses '<=' in an initial block (INITIALDLY) unless warnings are not fatal;
  # the variants keep the warning visible and build anyway.
  verilator_flags=(-Wno-fatal)
  # experiment NAME TB COUNTER WHAT
  experiment() {
    local name=$1 tb=$2 counter=$3 what=$4
    echo
    echo "--- exp-$name: $what"
    if [ "$tb" != tb_chi_credit_counter.sv ]; then
      (cd "$src" && { diff tb_chi_credit_counter.sv "$tb" || true; }) | grep -E '^[<>]' | sed 's/^/  tb /'
    fi
    if [ "$counter" = chi_credit_counter_debuglab.sv ]; then
      (cd "$src" && { diff chi_credit_counter.sv "$counter" || true; }) | grep -E '^[<>]' | sed 's/^/  counter /'
    fi
    run_both "exp-$name" "$tb" "$counter"
    compare "exp-$name"
  }
  experiment trace tb_trace.sv chi_credit_counter.sv \
    "\$display only: what the checker samples at each edge, and which process ran first"
  experiment signed-compare tb_signed_compare.sv chi_credit_counter.sv \
    "(a) only: compare inflight with int'(init_credits)"
  experiment reset-nba tb_reset_nba.sv chi_credit_counter.sv \
    "(c) only the reset release nonblocking"
  experiment trace-reset-nba tb_trace_reset_nba.sv chi_credit_counter.sv \
    "the trace, with the reset release nonblocking"
  experiment nba-drive tb_nba_drive.sv chi_credit_counter.sv \
    "(c) every drive after time 0 nonblocking"
  experiment delay-drive tb_delay_drive.sv chi_credit_counter.sv \
    "(c) reset release and returns driven #1 after the rising edge"
  experiment negedge-drive tb_negedge_drive.sv chi_credit_counter.sv \
    "(c) reset release and returns driven on the falling edge"
  experiment tied-returns tb_tied_returns.sv chi_credit_counter.sv \
    "(b) only: a credit returns only while a sent flit is outstanding"
  experiment trace-tied-returns tb_trace_tied_returns.sv chi_credit_counter.sv \
    "the trace, with returns tied to outstanding flits"
  experiment untied-idle tb_untied_idle.sv chi_credit_counter.sv \
    "(b) returns with the sender idle (falling-edge drive, signed compare): credits pass the grant unchecked"
  experiment fixed tb_fixed.sv chi_credit_counter.sv \
    "(a)+(b)+(c): falling-edge drive, tied returns, signed compare, and checks for early returns, credits above the grant and X"
  experiment fixed-v2001 tb_fixed.sv chi_credit_counter_v2001.v \
    "the fixed testbench on the seed's Verilog-2001 counter"
  experiment fixed-debuglab tb_fixed.sv chi_credit_counter_debuglab.sv \
    "the fixed testbench on the seed's DebugLab counter (no decrement on send): must fail"

  echo
  echo "--- summary: the verdict of every run"
  printf '  %-22s %-34s %s\n' run verilator icarus
  for name in sv-counter v2001-counter exp-trace exp-signed-compare exp-reset-nba exp-trace-reset-nba \
              exp-nba-drive exp-delay-drive exp-negedge-drive exp-tied-returns exp-trace-tied-returns \
              exp-untied-idle exp-fixed exp-fixed-v2001 exp-fixed-debuglab; do
    if [ "$have_icarus" = 1 ]; then icarus_verdict=${verdict[icarus/$name]:-}; else icarus_verdict="not installed"; fi
    printf '  %-22s %-34s %s\n' "$name" "${verdict[verilator/$name]:-}" "$icarus_verdict"
  done
fi

if [ "$broken" != 0 ]; then
  echo "seed002_testbench.sh: a build or simulation did not complete (see above)" >&2
  exit 2
fi
exit 0
