#!/usr/bin/env bash
# creditloop network from the command line, against numbers worked by hand (docs/network.md):
#   - the credit bound where it is tight: every node of a one-way ring of 4 (1 VC, B = 4, L = 1)
#     sends to the next; a VC is given to one packet at a time, with all its credits back, so a
#     link carries F flits per F - 1 + RTT cycles, RTT = 2L + 3 = 5: 1/5 = 0.200 for one-flit
#     packets, 2/6 = 0.333 for two-flit ones; zero-load latency 1 x (L + 2) + 2 = 5 (+1 for F = 2);
#   - the one-VC ring's deadlock caught (expected) and, not expected, failing the run with its
#     buffers named, waves and a save file written, the rerun line printed;
#   - bad input: one line naming the problem, exit 2.
set -uo pipefail
cl=${1:-build/creditloop}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
expect_line() {   # file, extended regex
  grep -Eq "$2" "$1" || { fail "no line matching '$2' in:"; cat "$1"; }
}

"$cl" network --topology ring:4 --vcs 1 --buffer 4 --pattern neighbor --rate 1 --cycles 4000 > "$out/f1" 2>&1 || fail "neighbor F=1 exit $?"
expect_line "$out/f1" 'credit bound 0\.200'
expect_line "$out/f1" 'zero-load latency 5\.00 cycles'
expect_line "$out/f1" 'accepted 0\.200 flits'
"$cl" network --topology ring:4 --vcs 1 --buffer 4 --pattern neighbor --rate 1 --flits 2 --cycles 4000 > "$out/f2" 2>&1 || fail "neighbor F=2 exit $?"
expect_line "$out/f2" 'credit bound 0\.333'
expect_line "$out/f2" 'zero-load latency 6\.00 cycles'
expect_line "$out/f2" 'accepted 0\.33[34] flits'

"$cl" network --topology ring:4 --vcs 1 --routing minimal --buffer 2 --pattern hops:3 --rate 1 --expect-deadlock > "$out/d1" 2>&1 || fail "expected deadlock: exit $?"
expect_line "$out/d1" 'a cycle: 0\.1\.0 -> 1\.1\.0 -> 2\.1\.0 -> 3\.1\.0 -> 0\.1\.0'
expect_line "$out/d1" '^deadlock from cycle [0-9]+ .*1\.1\.0 -> 2\.1\.0 -> 3\.1\.0 -> 0\.1\.0 -> 1\.1\.0'
"$cl" network --topology ring:4 --vcs 1 --routing minimal --buffer 2 --pattern hops:3 --rate 1 --waves-dir "$out/w" > "$out/d2" 2>&1
[ $? -eq 1 ] || fail "an unexpected deadlock must exit 1"
expect_line "$out/d2" '^FAIL cycle [0-9]+: deadlock: buffers 1\.1\.0 -> 2\.1\.0'
expect_line "$out/d2" '^rerun: .*network --topology ring:4'
[ -s "$out/w/network_ring4_v1_b2_l1_minimal_seed1.vcd" ] || fail "no waves of the deadlock"
grep -q 'g_node\[1\].u_router.obs_fill' "$out/w/network_ring4_v1_b2_l1_minimal_seed1.gtkw" 2>/dev/null || fail "no save file naming the deadlock's first buffer's router"

# Random traffic in lockstep on networks whose graph is acyclic: every packet delivered once, in
# order, the zero-load latency of every pair exact; and a dateline ring under the load that
# deadlocks the one-VC ring (every node three hops ahead) drains.
acyclic() {   # name, then the arguments
  local name=$1; shift
  "$cl" network "$@" > "$out/$name" 2>&1 || { fail "$name: exit $?"; cat "$out/$name"; return; }
  expect_line "$out/$name" 'channel dependency graph \(the RTL.s route block\): [0-9]+ edges, acyclic'
  expect_line "$out/$name" '^zero-load latency: [0-9]+ pairs, .*model in lockstep'
  expect_line "$out/$name" '^checks: lockstep [0-9]+ cycles'
  grep -q '^deadlock' "$out/$name" && fail "$name: a deadlock was reported"
}
acyclic ring4_dateline --topology ring:4 --vcs 2 --routing dateline --buffer 2 --pattern hops:3 --rate 1 --cycles 3000
acyclic ring2_6 --topology ring2:6 --vcs 2 --routing dateline --buffer 3 --rate 0.2 --flits 2 --cycles 5000
acyclic mesh3x3 --topology mesh:3x3 --vcs 2 --routing dor --buffer 3 --L 2 --rate 0.3 --flits 3 --cycles 5000
# Adaptive routing on a mesh: its whole graph has cycles (the adaptive VCs), its escape VC's
# extended graph must not; under transposes at full load it must not deadlock.
"$cl" network --topology mesh:3x3 --vcs 2 --routing adaptive --buffer 3 --pattern transpose --rate 1 --cycles 3000 > "$out/ad" 2>&1 ||
  { fail "adaptive mesh: exit $?"; cat "$out/ad"; }
expect_line "$out/ad" '^channel dependency graph .*a cycle: '
expect_line "$out/ad" "^escape VC 0's extended dependency graph .*: [0-9]+ edges, acyclic"
expect_line "$out/ad" '^adaptive: [1-9][0-9]* heads given a VC on their route.s second port'
grep -q '^deadlock' "$out/ad" && fail "adaptive mesh: a deadlock was reported"

bad() {   # expected message part, then the arguments
  local want=$1; shift
  "$cl" network "$@" > "$out/bad" 2>&1
  local rc=$?
  [ $rc -eq 2 ] || fail "network $*: exit $rc, want 2"
  [ "$(wc -l < "$out/bad")" -eq 1 ] || { fail "network $*: not one line:"; cat "$out/bad"; }
  grep -q -- "$want" "$out/bad" || { fail "network $*: no '$want' in:"; cat "$out/bad"; }
}
bad 'a mesh is 2 to 4' --topology mesh:5x5
bad 'a ring has 2 to 16' --topology ring:17
bad 'use ring:N' --topology torus:4
bad '--vcs' --vcs 5
bad '--rate' --rate 1.5
bad '--rate 0' --rate 0
bad 'transpose needs a square mesh' --topology ring:8 --pattern transpose
bad 'transpose needs a square mesh' --topology mesh:4x2 --pattern transpose
bad 'even number of VCs' --topology ring:4 --vcs 3 --routing dateline
bad 'dor (dimension order)' --topology mesh:2x2 --routing dateline
bad 'hops:9 needs' --topology ring:4 --pattern hops:9
bad 'no such file' --mutant /nonexistent.mutant

[ $failures -eq 0 ] && echo "PASS: creditloop network against the hand-worked numbers" || echo "FAIL: $failures checks"
exit $((failures > 0))
