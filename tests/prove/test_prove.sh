#!/usr/bin/env bash
# creditloop prove on the example designs (docs/prove.md), each against an independent reference:
#   - each correct example is proved on its grid (every configuration "proved");
#   - each one-line leak is refuted: the property named is the one the bug breaks (conservation for
#     a lost credit, no send at zero for a sender that ignores its count), and the replay command
#     prove prints, run here as written, shows that check failing at the cycle the proof names;
#   - RTL yosys cannot read (a package import, ports of two packed dimensions) is one error line
#     naming the file, the line and the construct, exit 2, and no output folder is left behind;
#   - every channel's counters in one module are proved on the multi-channel link, and their leak
#     refuted and replayed (tests/prove/flat_counter_array.sv, a design of this test's own).
# Usage: test_prove.sh BUILD_DIR   (run from the checkout's root, as the README's commands are)
set -uo pipefail
build=$(cd "${1:?usage: test_prove.sh BUILD_DIR}" && pwd)
cl=$build/creditloop
ex=examples/own_rtl
tmp=$(mktemp -d /tmp/creditloop-prove.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# proved NAME EXPECTED ARGS...: every configuration proved, and as many as the grid has.
proved() {
  local name=$1 expected=$2
  shift 2
  "$cl" prove "$@" --out "$tmp/$name" > "$tmp/$name.log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || { fail "$name: exit $rc, not 0"; tail -20 "$tmp/$name.log"; return; }
  grep -q "creditloop prove: $expected proved, 0 refuted, 0 unknown of $expected" "$tmp/$name.log" ||
    { fail "$name: not $expected of $expected proved"; tail -5 "$tmp/$name.log"; }
  grep -c '<testcase' "$tmp/$name/prove.xml" | grep -qx "$expected" || fail "$name: the JUnit file does not hold $expected testcases"
  echo "ok   $name: $expected proved"
}

# refuted NAME PROPERTY CHECK ARGS...: a counterexample to PROPERTY; its replay, as printed, fails CHECK at that cycle.
refuted() {
  local name=$1 property=$2 check=$3
  shift 3
  "$cl" prove "$@" --out "$tmp/$name" > "$tmp/$name.log" 2>&1
  local rc=$?
  [ $rc -eq 1 ] || { fail "$name: exit $rc, not 1"; tail -20 "$tmp/$name.log"; return; }
  local line cycle rerun
  line=$(grep -m1 '^REFUTED' "$tmp/$name.log")
  [[ "$line" == *": $property fails at cycle "* ]] || { fail "$name: not refuted on $property: $line"; return; }
  cycle=${line##* at cycle }
  rerun=$(grep -m1 '^  replay: ' "$tmp/$name.log" | sed 's/^  replay: //')
  [ -n "$rerun" ] || { fail "$name: no replay command"; return; }
  grep -q "replayed in simulation: $check at cycle $cycle, the same" "$tmp/$name.log" ||
    fail "$name: prove does not report the replay agreeing"
  local vcd=${line#REFUTED }
  vcd=$tmp/$name/${vcd%%:*}.vcd
  [ -s "$vcd" ] && [ -s "${vcd%.vcd}.gtkw" ] || fail "$name: no waves and save file ($vcd)"
  # The replay as printed: the simulation shows the same check at the same cycle.
  (eval "$rerun" --json) > "$tmp/$name.replay.json" 2> "$tmp/$name.replay.err"
  python3 - "$tmp/$name.replay.json" "$check" "$cycle" <<'PY' || fail "$name: the replay does not show $check at cycle $cycle"
import json, sys
report = json.load(open(sys.argv[1]))
seen = sorted(v["cycle"] for v in report["violations"] if v["check"] == sys.argv[2])
print(f"     replay: {sys.argv[2]} at cycles {seen[:3]}")
sys.exit(0 if seen and seen[0] == int(sys.argv[3]) else 1)
PY
  echo "ok   $name: $property fails at cycle $cycle, replayed"
}

proved vr_counter 16 --counter $ex/vr_counter/vr_counter.map.json --L 1-2 --B 2-3 --K 1-2 --policy batch,hybrid
refuted vr_counter_drop conservation conservation.total --counter $ex/vr_counter/vr_counter.map.json \
  --mutant $ex/vr_counter/mutants/vr_credit_counter_drop.mutant --L 2 --B 3 --K 2 --policy batch
proved occupancy_counter 4 --counter $ex/occupancy_counter/occupancy_counter.map.json --L 1-2 --B 2-3
refuted occupancy_counter_leak conservation conservation.total --counter $ex/occupancy_counter/occupancy_counter.map.json \
  --mutant $ex/occupancy_counter/mutants/occupancy_credit_counter_leak.mutant --L 2 --B 3
proved seed002_counter 4 --counter seeds/seed002/chi_credit_counter.sv --L 1-2 --B 2-3
proved link 4 --link $ex/link/link.map.json --L 1-2 --B 2-3
refuted link_tx_leak conservation conservation.total --link $ex/link/link.map.json \
  --mutant $ex/link/mutants/cbfc_tx_leak.mutant --L 2 --B 3
refuted link_tx_overflow "no send at zero" conservation.send_at_zero --link $ex/link/link.map.json \
  --mutant $ex/link/mutants/cbfc_tx_overflow.mutant --L 2 --B 3
proved credit_receiver 4 --link $ex/credit_receiver/credit_receiver.map.json --L 1-2 --B 2-3
proved fifo_sender 4 --link $ex/fifo_sender/fifo_sender.map.json --L 1-2 --B 2-3
refuted fifo_sender_leak conservation conservation.total --link $ex/fifo_sender/fifo_sender.map.json \
  --mutant $ex/fifo_sender/mutants/fifo_tx_leak.mutant --L 2 --B 3
proved bypass_link 4 --link $ex/bypass_link/bypass_link.map.json --L 1-2 --B 2-3

# The counterexample is the mutant's: the same inputs on the correct counter pass every check.
("$cl" run --counter $ex/vr_counter/vr_counter.map.json --L 2 --B 3 --K 2 --W 2 \
   --replay "$tmp/vr_counter_drop/L2_B3_K2_W2.replay") > "$tmp/correct_replay.log" 2>&1 ||
  { fail "the drop's counterexample fails on the correct counter too"; tail -5 "$tmp/correct_replay.log"; }
grep -q '^PASS' "$tmp/correct_replay.log" && echo "ok   the drop's inputs on the correct counter: PASS" || fail "no PASS on the correct counter"

# A replay file that is not one: one line naming the file, the line and the fix, exit 2.
printf 'cycle want_send payload\n0 1 2\n2 1 1\n' > "$tmp/gap.replay"
printf 'cycle want_send colour\n0 1 2\n' > "$tmp/column.replay"
for f in gap column missing; do
  "$cl" run --L 2 --B 3 --replay "$tmp/$f.replay" > "$tmp/$f.log" 2>&1
  rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/$f.log")" -eq 1 ] && grep -q "^creditloop: --replay $tmp/$f.replay" "$tmp/$f.log" ||
    fail "a bad replay ($f): exit $rc: $(cat "$tmp/$f.log")"
done
grep -q ':3: cycle 2 where cycle 1 comes next' "$tmp/gap.log" || fail "the gap is not named: $(cat "$tmp/gap.log")"
grep -q ":1: unknown column 'colour'" "$tmp/column.log" || fail "the column is not named: $(cat "$tmp/column.log")"

# RTL the proof cannot read: one line, the user's file and line, exit 2, nothing left behind.
"$cl" prove --counter tests/prove/pkg_counter.sv --L 1 --B 2 --out "$tmp/unreadable" > "$tmp/unreadable.log" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "unreadable: exit $rc, not 2"
[ "$(wc -l < "$tmp/unreadable.log")" -eq 1 ] || { fail "unreadable: not one line"; cat "$tmp/unreadable.log"; }
grep -q "tests/prove/pkg_counter.sv:7: 'import'" "$tmp/unreadable.log" || { fail "unreadable: the file, line and construct are not named"; cat "$tmp/unreadable.log"; }
[ ! -e "$tmp/unreadable" ] || fail "unreadable: the output folder was left behind: $(ls "$tmp/unreadable")"
echo "ok   unreadable RTL: $(cat "$tmp/unreadable.log")"

# Every channel's counters in one module, on the multi-channel link: the example's packed ports of
# two dimensions are beyond yosys 0.23 (one line naming them); the same counters with flat ports,
# a design of the test's own, are proved, and a leak of theirs is refuted and replayed.
"$cl" prove --counter $ex/counter_array/counter_array.map.json --L 1 --B 2 --out "$tmp/array" > "$tmp/array.log" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'lcrd_counter_array.sv:20: a packed array of two dimensions' "$tmp/array.log" ||
  fail "a module of 2-D packed ports: exit $rc: $(cat "$tmp/array.log")"
proved flat_counter_array 4 --counter tests/prove/flat_counter_array.map.json --L 1-2 --B 2-3 --K 1 --policy batch
refuted flat_counter_array_leak conservation conservation.pool --counter tests/prove/flat_counter_array.map.json \
  --mutant tests/prove/flat_counter_array_return_lost.mutant --L 2 --B 3 --K 1 --policy batch

[ $failures -eq 0 ] && echo "prove: every example proved, every leak refuted and replayed" || echo "prove: $failures failed"
exit $((failures > 0))
