#!/usr/bin/env bash
# The sanitizer build (make sanitize, docs/fuzzing.md): the harness, model, scoreboards, CLI and
# tests under AddressSanitizer and UndefinedBehaviorSanitizer (clang), every report fatal, then
#   1. ctest -L fast in that tree (the tests that verilate nothing),
#   2. a slice of the regression, on the main build's verilated banks,
#   3. a short run of every fuzz target (scripts/fuzz.sh --seconds FUZZ_SECONDS, default 8).
# Exits non-zero on any sanitizer report, failing test or fuzz crash.
#
#   scripts/sanitize.sh            the whole of it (CI runs it after make test)
#   FUZZ_SECONDS=0 scripts/sanitize.sh    no fuzzing
#   SANITIZE_ONLY_BUILD=1 scripts/sanitize.sh   configure and build only (make fuzz)
#
# The slice loads the plugins (banks) the main build's harness built under build/duts, so it
# verilates nothing when make sim or make test ran first on the same sources. They are compiled
# without instrumentation: the verilated RTL is not checked, everything that drives and checks it
# is. The main build's cache is never written: build/sanitize/banks is a view of it, one symbolic
# link per bank; a bank that is missing or stale there (other sources) is built into the view
# (the harness's own cache logic), and only a link is ever pruned, never the main build's bank.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build/sanitize
main_build=${CREDITLOOP_MAIN_BUILD:-$root/build}
fuzz_seconds=${FUZZ_SECONDS:-8}
jobs=${JOBS:-2}
start=$SECONDS
step() { printf 'sanitize [%3ds]: %s\n' $((SECONDS - start)) "$*"; }

# Every report fatal, leaks included. LeakSanitizer attaches to the process's threads with ptrace
# at exit; where a container forbids that, run with ASAN_OPTIONS=...:detect_leaks=0.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# The leaks that are not ours (Verilator's per-thread scratch buffer), each with its reason.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/lsan.supp:print_suppressions=0}

command -v clang++ >/dev/null || { echo "sanitize: clang++ not found: apt-get install clang (Debian's clang-14 has libFuzzer and the sanitizers)" >&2; exit 2; }
if [[ ! -f $build/CMakeCache.txt ]]; then
  step "configure $build (clang, ASan + UBSan, libFuzzer targets)"
  # -O1 with line tables only: what the sanitizers' documentation advises, stack traces with file
  # and line, and asserts on (no NDEBUG); it builds in about 60 % of the time -O2 -g takes here.
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
    -DCREDITLOOP_SANITIZE=ON -DCREDITLOOP_FUZZ=ON -DCREDITLOOP_LTO=OFF > "$build.configure.log" 2>&1 ||
    { cat "$build.configure.log" >&2; exit 3; }
fi

step "build creditloop, creditloop_tests and the fuzz targets (-j$jobs)"
cmake --build "$build" -j"$jobs" --target creditloop creditloop_tests fuzz_targets > "$build/build.log" 2>&1 ||
  { grep -E 'error|Error' "$build/build.log" | head -20 >&2; echo "sanitize: the build failed: $build/build.log" >&2; exit 3; }
step "built"
# make fuzz only needs the targets built.
if [[ ${SANITIZE_ONLY_BUILD:-0} == 1 ]]; then exit 0; fi

step "ctest -L fast"
(cd "$build" && ctest -L fast -j"$jobs" --output-on-failure > "$build/ctest_fast.log" 2>&1) ||
  { grep -E 'Failed|\*\*\*|ERROR|runtime error|SUMMARY' "$build/ctest_fast.log" | head -20 >&2
    echo "sanitize: ctest -L fast failed: $build/ctest_fast.log" >&2; exit 1; }
step "$(grep -E 'tests passed' "$build/ctest_fast.log")"

# The view of the main build's banks (see the header): the sanitized runtime, and a link to each
# bank and channel bank of the main build.
view=$build/banks
mkdir -p "$view/duts"
ln -sfn "$build/libcreditloop_vlrt.so" "$view/libcreditloop_vlrt.so"
find "$view/duts" -maxdepth 1 -type l -delete
shared=0
if [[ -d $main_build/duts ]]; then
  for bank in "$main_build"/duts/bank_* "$main_build"/duts/channels_*; do
    [[ -d $bank ]] || continue
    ln -sfn "$bank" "$view/duts/$(basename "$bank")"
    shared=$((shared + 1))
  done
fi
mkdir -p "$build/slice"
step "regression slice on $shared banks of $main_build/duts (CREDITLOOP_BUILD=$view)"
# Seed 000's table, seed 001's knee at L = 4, one random link under every stimulus, lost and
# corrupted credit messages with and without recovery, and the multi-channel link: one channel
# to seed 000's digits, and PCIe's preset losing messages. None is a SystemC case (that harness is
# a separate g++ executable).
slice=("seed000/K*" "seed001/L4_B1?" "random/L3_B7_K3_*" "faults/drop_one_K12*" "faults/corrupt*"
       "channels/seed000_K*" "channels/pcie_drop*")
for pattern in "${slice[@]}"; do
  log=$build/slice_$(echo "$pattern" | tr -c 'A-Za-z0-9_\n' '_').log
  if ! CREDITLOOP_BUILD=$view "$build/creditloop" regress --filter "$pattern" --jobs "$jobs" \
       --junit "$build/slice/results.xml" --waves-dir "$build/slice/waves" > "$log" 2>&1; then
    grep -E 'FAIL|ERROR|runtime error|SUMMARY|creditloop' "$log" | head -20 >&2
    echo "sanitize: the regression slice '$pattern' failed: $log" >&2
    exit 1
  fi
  step "  $pattern: $(grep -Eo '[0-9]+ of [0-9]+ passed|[0-9]+ passed' "$log" | tail -1)"
done

if [[ $fuzz_seconds -gt 0 ]]; then
  step "fuzz every target for ${fuzz_seconds} s"
  "$root/scripts/fuzz.sh" --build "$build" --seconds "$fuzz_seconds"
fi
step "clean: no sanitizer report, every test passed, no fuzz crash"
