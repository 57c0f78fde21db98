#!/usr/bin/env bash
# The regression on a Slurm cluster (docs/slurm.md): N shards as one job array, then one merge.
#   scripts/slurm/regress.sh [--shards N] [--filter P] [--seed S] [--jobs J] [--out DIR]
#                            [--partition P] [--time LIMIT] [--force] [-- REGRESS_ARGS...]
# Array task I runs `build/creditloop regress --shard I/N` (the tests at positions k with
# k % N == I-1 of `creditloop regress --list`) into OUT/shard_I.xml, its coverage JSON and
# OUT/waves_I; when every task has finished, `build/creditloop merge` writes OUT/merged.xml (the
# testcases in the unsharded order) and OUT/merged.coverage.json, then `build/creditloop report`
# the HTML report OUT/report/index.html (docs/report.md). Exits with merge's code: 0 all
# passed, 1 a test failed, 2 bad input; 3 when a shard could not run (its log is named).
#   --shards N     array tasks (default 4)                 --jobs J   per task: creditloop's --jobs
#   --filter P     creditloop's --filter (default: all)    and the CPUs asked of Slurm (default 2)
#   --seed S       creditloop's --seed (default 1)         --partition P   sbatch --partition
#   --out DIR      results (default build/slurm-regress); never overwritten without --force
#   --time LIMIT   sbatch --time for each task (default: the partition's)
#   -- ARGS        passed to every `creditloop regress` as is (--return FILE, --rtl DIR, ...);
#                  relative paths are taken from the checkout's top, where the tasks run.
# The checkout (with build/creditloop) and OUT must be on a file system every node sees. The
# environment's Slurm is used: on the local test cluster, export the SLURM_CONF that
# scripts/slurm/local-cluster.sh start prints. CREDITLOOP=path picks another build's CLI.
# After an RTL or harness change, build the banks once before submitting (make sim, or make sim
# TESTS=P): shards on a cold cache each verilate their own slice, one after another, under the
# cache's lock (correct, but 2.7 times slower than one build here; docs/slurm.md).
set -euo pipefail

me="regress.sh"
die() { echo "$me: $*" >&2; exit 2; }
usage="usage: scripts/slurm/regress.sh [--shards N] [--filter P] [--seed S] [--jobs J] [--out DIR] [--partition P] [--time LIMIT] [--force] [-- ARGS]"

# Everything runs from the checkout's top: the tasks use the same relative paths as make sim.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
creditloop="${CREDITLOOP:-$root/build/creditloop}"

shards=4
filter=""
seed=1
jobs=2
out=""
partition=""
time_limit=""
force=0
extra=()
need_value() { [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value; $usage"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --shards) need_value "$@"; shards="$2"; shift 2 ;;
    --filter) need_value "$@"; filter="$2"; shift 2 ;;
    --seed) need_value "$@"; seed="$2"; shift 2 ;;
    --jobs) need_value "$@"; jobs="$2"; shift 2 ;;
    --out) need_value "$@"; out="$2"; shift 2 ;;
    --partition) need_value "$@"; partition="$2"; shift 2 ;;
    --time) need_value "$@"; time_limit="$2"; shift 2 ;;
    --force) force=1; shift ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) die "unknown option '$1'; $usage" ;;
  esac
done
[[ "$shards" =~ ^[0-9]+$ ]] && [ "$shards" -ge 1 ] && [ "$shards" -le 1000 ] \
  || die "--shards must be 1..1000 (Slurm's default MaxArraySize is 1001), not '$shards'"
[[ "$seed" =~ ^[0-9]+$ ]] || die "--seed must be a non-negative integer, not '$seed'"
[[ "$jobs" =~ ^[0-9]+$ ]] && [ "$jobs" -ge 1 ] && [ "$jobs" -le 64 ] || die "--jobs must be 1..64, not '$jobs'"

# OUT is made absolute before the cd below, so it means what the caller typed.
[ -n "$out" ] || out="$root/build/slurm-regress"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
cd "$root"

[ -x "$creditloop" ] || { echo "$me: $creditloop not found; build it first: make build-cli" >&2; exit 3; }
"$creditloop" regress --help 2>/dev/null | grep -q -- '--shard' \
  || { echo "$me: $creditloop has no 'regress --shard'; rebuild it: make build-cli" >&2; exit 3; }
for cmd in sbatch squeue sinfo scancel; do
  command -v "$cmd" >/dev/null 2>&1 || {
    echo "$me: '$cmd' not found: run this on a Slurm login node, or install the clients (apt-get install -y slurm-client); a local test cluster: scripts/slurm/local-cluster.sh start" >&2
    exit 3
  }
done

# The arguments every creditloop regress gets: the shards and the unsharded run must agree on
# them, or merge refuses the shards (and the comparison with a local run means nothing).
regress_args=(--seed "$seed")
[ -z "$filter" ] || regress_args+=(--filter "$filter")
regress_args+=("${extra[@]}")

# Fail fast, before anything is queued: a filter that matches nothing or a bad option is exit 2
# here, not N identical failures in the queue. --list builds nothing.
list_file="$(mktemp)"
trap 'rm -f "$list_file" "$list_file.err"' EXIT
rc=0
"$creditloop" regress "${regress_args[@]}" --list > "$list_file" 2> "$list_file.err" || rc=$?
if [ "$rc" -ne 0 ]; then
  echo "$me: creditloop regress --list refused the arguments:" >&2
  cat "$list_file.err" >&2; rm -f "$list_file.err"
  exit "$rc"
fi
rm -f "$list_file.err"
# A test's line starts with its name, group/case; any note (tests your RTL cannot take) does not.
total="$(grep -cE '^[^[:space:]]+/[^[:space:]]+' "$list_file" || true)"
[ "$total" -gt 0 ] || die "no test matches --filter '$filter' (see build/creditloop regress --list)"
if [ "$shards" -gt "$total" ]; then
  # A shard with no test would still run and write an empty suite; it is only queue noise.
  echo "$me: $total tests for $shards shards: using $total shards"
  shards="$total"
fi

# Slurm must answer before anything is written.
if ! sinfo_err="$(sinfo -h -o '%P' 2>&1 >/dev/null)"; then
  echo "$me: no Slurm controller answers (${sinfo_err%%$'\n'*}); start the local one: scripts/slurm/local-cluster.sh start, then export the SLURM_CONF it prints" >&2
  exit 3
fi

# Never mix two runs' shards: merge would refuse them anyway, but a clear line is better.
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  [ "$force" -eq 1 ] || die "$out already holds results; pass --force to replace them, or --out another directory"
  # Only what this script writes; anything else the user keeps there stays.
  rm -rf "$out"/shard_* "$out"/waves_* "$out"/merged.xml "$out"/merged.coverage.json "$out"/slurm-*.out "$out"/shards.sbatch
fi
mkdir -p "$out"

# The batch script, written out so that a task can be rerun by hand (sbatch --array=I ...).
# Each task records its own exit code: Slurm forgets finished jobs after MinJobAge, and without
# accounting there is nothing else to ask.
script="$out/shards.sbatch"
{
  echo "#!/usr/bin/env bash"
  echo "# Written by scripts/slurm/regress.sh: one shard of the regression per array task."
  echo "set -uo pipefail"
  echo "i=\"\$SLURM_ARRAY_TASK_ID\""
  printf 'cd %q\n' "$root"
  printf '%q regress --shard "$i/%s" --junit %q/shard_"$i".xml --waves-dir %q/waves_"$i" --jobs %s' \
    "$creditloop" "$shards" "$out" "$out" "$jobs"
  printf ' %q' "${regress_args[@]}"
  echo
  echo "rc=\$?"
  printf 'echo "$rc" > %q/shard_"$i".rc\n' "$out"
  echo "exit \"\$rc\""
} > "$script"
chmod +x "$script"

task_args=(--cpus-per-task="$jobs" --job-name=creditloop-regress --chdir="$root" --output="$out/slurm-%A_%a.out")
[ -z "$partition" ] || task_args+=(--partition="$partition")
[ -z "$time_limit" ] || task_args+=(--time="$time_limit")
sbatch_args=(--parsable --array="1-$shards" "${task_args[@]}")
echo "$me: $total tests in $shards shards (seed $seed${filter:+, filter '$filter'}), $jobs CPUs each; results in $out"
start_s=$SECONDS
if ! job="$(sbatch "${sbatch_args[@]}" "$script" 2>&1)"; then
  echo "$me: sbatch refused the job array: ${job//$'\n'/ }" >&2
  exit 2
fi
job="${job%%;*}"   # --parsable prints "id" or "id;cluster"
echo "$me: submitted job array $job (sbatch ${sbatch_args[*]} $script)"

# Ctrl-C or a kill cancels the queued and running shards instead of leaving them behind.
cancel() {
  echo "$me: interrupted: cancelling job $job" >&2
  scancel "$job" 2>/dev/null || true
  rm -f "$list_file"
  exit 130
}
trap cancel INT TERM

# Wait by polling squeue every second, not with sbatch --wait: that one sleeps 2, 8, then 32 s
# between its own polls, which would add up to half a minute to a short regression.
active_states='^(PENDING|CONFIGURING|RUNNING|COMPLETING|SUSPENDED|REQUEUED|REQUEUE_FED|REQUEUE_HOLD|RESIZING|SIGNALING|STAGE_OUT|STOPPED)$'
last_line="" last_print=0 failed_polls=0
while :; do
  if states="$(squeue -h -j "$job" -t all -o '%T' 2>&1)"; then
    failed_polls=0
  else
    # A job already purged from the controller is finished; anything else is the controller.
    if grep -qi 'invalid job id' <<<"$states"; then states=""; else
      failed_polls=$((failed_polls + 1))
      if [ "$failed_polls" -ge 30 ]; then
        echo "$me: squeue has failed for 30 s (${states%%$'\n'*}); job $job may still be running (scancel $job)" >&2
        exit 3
      fi
      sleep 1; continue
    fi
  fi
  running="$(grep -c '^RUNNING$' <<<"$states" || true)"
  pending="$(grep -cE '^(PENDING|CONFIGURING|REQUEUED|REQUEUE_HOLD|REQUEUE_FED)$' <<<"$states" || true)"
  active="$(grep -cE "$active_states" <<<"$states" || true)"
  done_count="$(compgen -G "$out/shard_*.rc" | wc -l || true)"
  line="$done_count/$shards shards done, $running running, $pending pending"
  if [ "$active" -eq 0 ]; then break; fi
  # A line when something changes, and every 15 s otherwise, so a log never goes silent long.
  if [ "$line" != "$last_line" ] || [ $((SECONDS - last_print)) -ge 15 ]; then
    echo "$me: job $job: $line, $((SECONDS - start_s)) s"
    last_line="$line"; last_print=$SECONDS
  fi
  sleep 1
done
echo "$me: job $job finished after $((SECONDS - start_s)) s"

# What each shard said. 0 and 1 are verdicts; 2 (bad input) and 3 (a build failed), or no exit
# code at all (the task was killed, cancelled or never started), make the merge meaningless.
worst=0
shard_files=()
missing=()
for i in $(seq 1 "$shards"); do
  rc_file="$out/shard_$i.rc"
  log="$out/slurm-${job}_$i.out"
  if [ ! -s "$rc_file" ]; then
    echo "$me: shard $i/$shards left no exit code (killed, cancelled or not started); see $log" >&2
    worst=3; missing+=("$i"); continue
  fi
  rc="$(cat "$rc_file")"
  case "$rc" in
    0|1) ;;
    2) echo "$me: shard $i/$shards: bad input (exit 2); see $log" >&2; [ "$worst" -ge 2 ] || worst=2 ;;
    *) echo "$me: shard $i/$shards: exit $rc (a build or file problem); see $log" >&2; worst=3 ;;
  esac
  if [ -s "$out/shard_$i.xml" ]; then
    shard_files+=("$out/shard_$i.xml")
  else
    # After exit 2 or 3 the line above said why; a verdict without its file is worth a line.
    case "$rc" in 0|1) echo "$me: shard $i/$shards exited $rc but wrote no $out/shard_$i.xml; see $log" >&2 ;; esac
    worst=3; missing+=("$i")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  list="$(IFS=,; echo "${missing[*]}")"
  echo "$me: only ${#shard_files[@]} of $shards shards have results; once the cause is fixed, rerun the others with: sbatch --array=$list --wait ${task_args[*]} $script && $creditloop merge --junit $out/merged.xml $out/shard_{1..$shards}.xml" >&2
  exit 3
fi

echo "$me: merging $shards shards"
set +e
"$creditloop" merge --junit "$out/merged.xml" "${shard_files[@]}"
merge_rc=$?
set -e
if [ "$merge_rc" -le 1 ]; then
  echo "$me: merged JUnit: $out/merged.xml (coverage: $out/merged.coverage.json), $total tests in $((SECONDS - start_s)) s"
  "$creditloop" report --junit "$out/merged.xml" --out "$out/report" || echo "$me: no HTML report (above)" >&2
fi
# A shard's own bad input or build failure outranks a merged verdict made without its tests.
if [ "$worst" -gt "$merge_rc" ]; then exit "$worst"; fi
exit "$merge_rc"
