#!/usr/bin/env bash
# The tool under faults while it builds, each on a cache folder of its own (CREDITLOOP_BUILD):
#   1. SIGTERM to the creditloop process alone (as timeout, a CI runner or a scheduler sends it) at
#      each phase of a regression's bank build (configure, verilate, compile): every process it
#      started is gone within 2 s, it exits 143, its JUnit file lists every test as "not run
#      (interrupted while building)", and no bank a later run would load is left;
#   2. then at load, run and waves (signals at several times into a regression with waves): 143 or
#      a whole pass, a valid JUnit file, no half-written waves, no process left;
#   3. a compiler killed with kill -9 mid-build: one line naming the configuration and the cause,
#      exit 3; the next run builds it again and passes;
#   4. a truncated plugin and a foreign one in the cache: never loaded, built again;
#   5. a full disk during a build (a small tmpfs, where this may mount one): one line naming the
#      configuration and the cause; the next run, with room, builds it and passes.
# Usage: test_build_faults.sh BUILD_DIR
set -uo pipefail
build=$(cd "${1:?usage: test_build_faults.sh BUILD_DIR}" && pwd)
cl=$build/creditloop
tmp=$(mktemp -d /tmp/creditloop-faults.XXXXXX)
mounted=""
cleanup() {
  [ -n "$mounted" ] && umount "$mounted" 2> /dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# A cache folder of its own: the build tree's runtime beside an empty duts/.
cache() {
  mkdir -p "$1"
  ln -sf "$build/libcreditloop_vlrt.so" "$1/libcreditloop_vlrt.so"
}

# Every descendant of a process: pid and command line, one per line.
descendants() {
  ps -eo pid=,ppid=,args= | awk -v root="$1" '
    { parent[$1] = $2; line = $0; sub(/^ *[0-9]+ +[0-9]+ +/, "", line); args[$1] = line }
    END { for (p in parent) { q = p; while (q in parent && q != root && q > 1) q = parent[q]; if (q == root && p != root) print p, args[p] } }'
}

# Wait (up to 120 s) until a descendant of $1 has a command line matching $2 (an awk regular
# expression, on "PID ARGS"); its pid, or nothing.
wait_for_child() {
  local i
  for i in $(seq 1 2400); do
    local hit
    hit=$(descendants "$1" | awk -v re="$2" '$0 ~ re && $0 !~ /TryCompile/ { print $1; exit }')
    [ -n "$hit" ] && { echo "$hit"; return; }
    kill -0 "$1" 2> /dev/null || return
    sleep 0.05
  done
}

# The JUnit file $1 lists $2 tests, each one passed, interrupted or not run (no failure, no
# verdict from a half build); with $3, each skipped one's message contains it.
check_junit() {
  python3 - "$@" << 'EOF' || fail "JUnit $1"
import sys, xml.etree.ElementTree as ET
path, want = sys.argv[1], int(sys.argv[2])
reason = sys.argv[3] if len(sys.argv) > 3 else ""
cases = ET.parse(path).getroot().iter("testcase")
n = 0
for case in cases:
    n += 1
    failure = case.find("failure")
    if failure is not None:
        sys.exit("a test failed: %s: %s" % (case.get("name"), failure.get("message")))
    skipped = case.find("skipped")
    if reason and (skipped is None or reason not in skipped.get("message", "")):
        sys.exit("%s is not '%s': %s" % (case.get("name"), reason, ET.tostring(case)[:300]))
if n != want:
    sys.exit("%d tests listed, not %d" % (n, want))
EOF
}

filter='seed001/L1_B1*'
tests=$("$cl" regress --list --filter "$filter" | wc -l)
[ "$tests" -gt 0 ] || { echo "no tests match $filter"; exit 1; }

echo "== 1. SIGTERM while building: configure, verilate, compile"
# The phases, as the command lines of the processes that do them: CMake configuring the bank,
# Verilator, a compiler on the bank's generated C++ (CMake's own compiler checks are left out).
compiler='^[0-9]+ [^ ]*(cc1plus|clang\+\+|g\+\+|c\+\+) .* -c '
for phase in configure verilate compile; do
  case $phase in
    configure) pattern='^[0-9]+ cmake -S ' ;;
    verilate) pattern='^[0-9]+ [^ ]*verilator_bin' ;;
    compile) pattern=$compiler ;;
  esac
  dir=$tmp/build_$phase
  cache "$dir"
  CREDITLOOP_BUILD=$dir "$cl" regress --filter "$filter" --jobs 2 --junit "$dir/results.xml" --waves-dir "$dir/waves" \
    > "$dir/out.log" 2>&1 &
  pid=$!
  child=$(wait_for_child "$pid" "$pattern")
  if [ -z "$child" ]; then
    fail "$phase: no such process started (exit $(wait "$pid"; echo $?))"; cat "$dir/out.log"; continue
  fi
  started=$(descendants "$pid" | awk '{ print $1 }')
  kill -TERM "$pid"
  sleep 2
  left=""
  for p in $started; do kill -0 "$p" 2> /dev/null && left="$left $p($(cat /proc/$p/comm 2> /dev/null))"; done
  [ -z "$left" ] || fail "$phase: still running 2 s after SIGTERM:$left"
  wait "$pid"
  rc=$?
  [ $rc -eq 143 ] || { fail "$phase: exit $rc, not 143"; cat "$dir/out.log"; }
  check_junit "$dir/results.xml" "$tests" "not run (interrupted while building)"
  [ -z "$(find "$dir/duts" -name manifest.txt 2> /dev/null)" ] || fail "$phase: a bank with a manifest was left behind"
  echo "$phase: stopped, exit $rc"
done

echo "== 2. SIGTERM at load, run and waves"
dir=$tmp/build_compile
CREDITLOOP_BUILD=$dir "$cl" regress --filter "$filter" --jobs 2 --junit "$dir/results.xml" --waves-dir "$dir/waves" \
  > "$dir/out.log" 2>&1 || { fail "the regression after the interrupted builds: exit $?"; tail -5 "$dir/out.log"; }
check_junit "$dir/results.xml" "$tests"
for delay in 0.1 0.3 0.6 1.0 1.5; do
  rm -rf "$dir/waves"
  CREDITLOOP_BUILD=$dir "$cl" regress --filter "$filter" --jobs 2 --waves --junit "$dir/r.xml" --waves-dir "$dir/waves" \
    > "$dir/w.log" 2>&1 &
  pid=$!
  sleep "$delay"
  started=$(descendants "$pid" | awk '{ print $1 }')
  kill -TERM "$pid" 2> /dev/null
  wait "$pid"
  rc=$?
  [ $rc -eq 143 ] || [ $rc -eq 0 ] || { fail "signal at ${delay} s: exit $rc"; cat "$dir/w.log"; }
  check_junit "$dir/r.xml" "$tests"
  [ -z "$(find "$dir/waves" -name '*.part' 2> /dev/null)" ] || fail "signal at ${delay} s: half-written waves left"
  for p in $started; do kill -0 "$p" 2> /dev/null && fail "signal at ${delay} s: process $p left"; done
done

echo "== 3. a compiler killed mid-build"
dir=$tmp/killed
cache "$dir"
CREDITLOOP_BUILD=$dir "$cl" run --L 3 --B 5 --cycles 300 > "$dir/out.log" 2>&1 &
pid=$!
child=$(wait_for_child "$pid" "$compiler")
# A compile still running 0.3 s later: on a loaded machine a short one can end before the signal
# lands, and the bank is then built whole.
while [ -n "$child" ]; do
  sleep 0.3
  kill -0 "$child" 2> /dev/null && break
  child=$(wait_for_child "$pid" "$compiler")
done
[ -n "$child" ] && kill -9 "$child"
wait "$pid"
rc=$?
[ -n "$child" ] || fail "a killed compiler: no compiler of the bank was seen running"
[ $rc -eq 3 ] || { fail "a killed compiler: exit $rc, not 3"; cat "$dir/out.log"; }
grep -v '^ ' "$dir/out.log" | grep -q 'L3_B5.*\(Killed\|killed\|signal\)' ||
  { fail "a killed compiler: no line naming L3_B5 and the cause"; cat "$dir/out.log"; }
[ -z "$(find "$dir/duts" -name manifest.txt)" ] || fail "a killed compiler left a bank with a manifest"
CREDITLOOP_BUILD=$dir "$cl" run --L 3 --B 5 --cycles 300 > "$dir/again.log" 2>&1 ||
  { fail "the run after a killed compiler: exit $?"; cat "$dir/again.log"; }

echo "== 4. a truncated plugin, a foreign plugin"
plugin=$(find "$dir/duts" -name dut.so | head -1)
size=$(stat -c %s "$plugin")
truncate -s $((size / 2)) "$plugin"
CREDITLOOP_BUILD=$dir "$cl" run --L 3 --B 5 --cycles 300 > "$dir/truncated.log" 2>&1 ||
  { fail "a truncated plugin: exit $?"; cat "$dir/truncated.log"; }
plugin=$(find "$dir/duts" -name dut.so | head -1)
[ "$(stat -c %s "$plugin")" -gt $((size / 2)) ] || fail "a truncated plugin was not built again"
cp "$build/libcreditloop_vlrt.so" "$plugin"
CREDITLOOP_BUILD=$dir "$cl" run --L 3 --B 5 --cycles 300 > "$dir/foreign.log" 2>&1 ||
  { fail "a foreign plugin: exit $?"; cat "$dir/foreign.log"; }
plugin=$(find "$dir/duts" -name dut.so | head -1)
cmp -s "$plugin" "$build/libcreditloop_vlrt.so" && fail "a foreign plugin was kept"

echo "== 5. a full disk while building"
dir=$tmp/full
mkdir -p "$dir"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=8m tmpfs "$dir" 2> /dev/null; then
  mounted=$dir
  cache "$dir"
  CREDITLOOP_BUILD=$dir "$cl" run --L 2 --B 7 --cycles 300 > "$tmp/full.log" 2>&1
  rc=$?
  [ $rc -eq 3 ] || { fail "a full disk: exit $rc, not 3"; cat "$tmp/full.log"; }
  [ "$(grep -c . "$tmp/full.log")" -le 2 ] || { fail "a full disk: more than one line"; cat "$tmp/full.log"; }
  grep -q 'L2_B7.*\(space\|disk\)' "$tmp/full.log" || { fail "a full disk: no line naming L2_B7 and the cause"; cat "$tmp/full.log"; }
  [ -z "$(find "$dir/duts" -name manifest.txt)" ] || fail "a full disk left a bank with a manifest"
  mount -o remount,size=2g "$dir"
  CREDITLOOP_BUILD=$dir "$cl" run --L 2 --B 7 --cycles 300 > "$tmp/room.log" 2>&1 ||
    { fail "the run with room again: exit $?"; cat "$tmp/room.log"; }
else
  echo "not root, or no tmpfs mount here: the full disk is not tried"
fi

[ $failures -eq 0 ] && echo "build faults: every check passed"
exit $((failures > 0))
