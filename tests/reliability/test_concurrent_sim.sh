#!/usr/bin/env bash
# make sim run several times at once, as people and CI runners do: two fresh clones of this
# checkout (sharing the user's one ccache), and two make sim at once in one of them, all three
# started together and cold. Each must pass with the same verdict for every test as a lone make
# sim run afterwards, and neither the build tree nor the cache of verilated banks may be corrupted
# (the lone run after them builds nothing). Prints the wall times: the three at once, and the lone
# run. The clones are of the committed HEAD.
# Usage: test_concurrent_sim.sh CHECKOUT [TESTS pattern]
set -uo pipefail
src=$(cd "${1:?usage: test_concurrent_sim.sh CHECKOUT [TESTS]}" && pwd)
pattern=${2:-seed000/K[12]*}
git -C "$src" rev-parse HEAD > /dev/null 2>&1 || { echo "$src is not a git checkout: nothing to clone"; exit 77; }
tmp=$(mktemp -d /tmp/creditloop-concurrent.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

git clone -q "$src" "$tmp/a" && git clone -q "$src" "$tmp/b" || { echo "cannot clone $src"; exit 1; }

# The verdict of every test in a make sim log, sorted: "pass seed000/K1".
verdicts() { sed -nE 's/^\[[0-9]+\/[0-9]+\] (.*)$/\1/p' "$1" | sort; }

start=$SECONDS
(cd "$tmp/a" && make sim TESTS="$pattern" > "$tmp/a1.log" 2>&1) &
a1=$!
(cd "$tmp/a" && make sim TESTS="$pattern" > "$tmp/a2.log" 2>&1) &
a2=$!
(cd "$tmp/b" && make sim TESTS="$pattern" > "$tmp/b.log" 2>&1) &
b=$!
for job in a1:$a1 a2:$a2 b:$b; do
  wait "${job#*:}" || { fail "make sim (${job%%:*}) at once: exit $?"; tail -20 "$tmp/${job%%:*}.log"; }
done
together=$((SECONDS - start))

start=$SECONDS
(cd "$tmp/a" && make sim TESTS="$pattern" > "$tmp/lone.log" 2>&1) || { fail "the lone make sim: exit $?"; tail -20 "$tmp/lone.log"; }
lone=$((SECONDS - start))

verdicts "$tmp/lone.log" > "$tmp/lone.verdicts"
[ -s "$tmp/lone.verdicts" ] || fail "the lone run printed no verdicts"
for log in a1 a2 b; do
  verdicts "$tmp/$log.log" > "$tmp/$log.verdicts"
  cmp -s "$tmp/lone.verdicts" "$tmp/$log.verdicts" ||
    { fail "make sim ($log) at once gave other verdicts than a lone run:"; diff "$tmp/lone.verdicts" "$tmp/$log.verdicts"; }
done
grep -q 'verilating\|compiling' "$tmp/lone.log" && fail "the lone run after them built again (a bank or the build was left broken)"
for clone in a b; do
  python3 -c "import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])" "$tmp/$clone/build/results.xml" ||
    fail "clone $clone: build/results.xml is not whole"
done
printf 'concurrent make sim (%s): three at once, cold, in two clones: %d s; a lone one after them: %d s\n' \
  "$pattern" "$together" "$lone"
[ $failures -eq 0 ] && echo "concurrent make sim: every check passed"
exit $((failures > 0))
