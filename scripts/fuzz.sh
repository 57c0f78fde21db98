#!/usr/bin/env bash
# Runs the libFuzzer targets of the sanitizer build (fuzz/, docs/fuzzing.md) one after the other,
# each for --seconds (default 60), and prints per target its executions per second, the corpus it
# ends with and whether it crashed. make fuzz runs it for FUZZ_SECONDS (600) a target; make sanitize
# for a few seconds.
#
#   scripts/fuzz.sh [--seconds N] [--target NAME] [--build DIR]
#
# Each target runs over its own working corpus, build/sanitize/fuzz_corpus/<target>: the seeds of
# fuzz/corpus/<target> are copied in (what earlier runs found stays), and fuzz/regressions/<target>
# (every input that once crashed it) is read too; nothing is written into the source tree. A crash
# leaves its input in build/sanitize/fuzz_artifacts/<target>/ and the log beside it; the script
# then exits 1. The targets must be built (scripts/sanitize.sh builds them).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build/sanitize
seconds=60
only=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --target) only=${2:?--target needs a name (fuzz_targets.txt lists them)}; shift 2 ;;
    --build) build=${2:?--build needs a directory}; shift 2 ;;
    -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1' (--seconds N, --target NAME, --build DIR)" >&2; exit 2 ;;
  esac
done
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --seconds $seconds is not a whole number of seconds" >&2; exit 2; }
list=$build/fuzz_targets.txt
[[ -f $list ]] || { echo "fuzz.sh: no $list: configure and build the sanitizer tree first (scripts/sanitize.sh)" >&2; exit 2; }
mapfile -t targets < "$list"
if [[ -n $only ]]; then
  printf '%s\n' "${targets[@]}" | grep -qx -- "$only" ||
    { echo "fuzz.sh: no target '$only' (targets: ${targets[*]})" >&2; exit 2; }
  targets=("$only")
fi

# Every report fatal; leaks count (libFuzzer checks each input that allocates more than it frees).
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# The leaks that are not ours (Verilator's per-thread scratch buffer), each with its reason.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/lsan.supp:print_suppressions=0}

failed=0
printf '%-26s %8s %10s %10s %12s  %s\n' target seconds "exec/s" files bytes verdict
for name in "${targets[@]}"; do
  exe=$build/fuzz/fuzz_$name
  [[ -x $exe ]] || { echo "fuzz.sh: $exe is not built (cmake --build $build --target fuzz_targets)" >&2; exit 2; }
  corpus=$build/fuzz_corpus/$name
  artifacts=$build/fuzz_artifacts/$name
  mkdir -p "$corpus" "$artifacts"
  cp -n "$root/fuzz/corpus/$name/"* "$corpus/" 2>/dev/null || true
  # The SystemVerilog target also starts from the project's own RTL, mutants and examples, as
  # they are in the tree (not copies kept in fuzz/corpus/).
  if [[ $name == rtl_text ]]; then
    find "$root/rtl" "$root/examples" -name '*.sv' -size -8k -print0 |
      while IFS= read -r -d '' sv; do cp -n "$sv" "$corpus/tree_$(basename "$sv")"; done
  fi
  inputs=("$corpus")
  [[ -d $root/fuzz/regressions/$name ]] && inputs+=("$root/fuzz/regressions/$name")
  options=(-max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 -max_len=8192
           -artifact_prefix="$artifacts/")
  [[ -f $root/fuzz/dict/$name.dict ]] && options+=(-dict="$root/fuzz/dict/$name.dict")
  log=$artifacts/fuzz.log
  status=0
  "$exe" "${options[@]}" "${inputs[@]}" > "$log" 2>&1 || status=$?
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  files=$(find "$corpus" -type f | wc -l)
  bytes=$(find "$corpus" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
  if [[ $status -eq 0 ]]; then
    verdict="no crash"
  else
    verdict="CRASH (exit $status): $(ls -t "$artifacts" | grep -v '^fuzz.log$' | head -1), log $log"
    failed=1
  fi
  printf '%-26s %8s %10s %10s %12s  %s\n' "fuzz_$name" "$seconds" "${rate:-?}" "$files" "$bytes" "$verdict"
  if [[ $status -ne 0 ]]; then
    grep -aE '^(==[0-9]+==ERROR|SUMMARY|creditloop fuzz:|.*runtime error:)' "$log" | head -5 | sed 's/^/    /'
  fi
done
exit $failed
