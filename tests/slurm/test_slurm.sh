#!/usr/bin/env bash
# The sharded regression through a real Slurm equals the unsharded one (docs/slurm.md).
# Starts a single-node Slurm on 127.0.0.1 in a temporary directory
# (scripts/slurm/local-cluster.sh), then for two cases runs the same filter and seed twice:
# unsharded with build/creditloop regress, and in 3 shards through scripts/slurm/regress.sh (a
# job array, then creditloop merge). The merged JUnit must list the same testcases in the same
# order, with the same verdict, failure message and rerun line each, the same suite counts, and
# coverage JSON with the same bins and counts.
#   A  --filter K4: 18 tests over the link's bank, the channel bank and a SystemC harness; all pass.
#   B  --filter 'random/L4_B12_K4_*' with the return logic of rtl/mutants/credit_return_flush_drops_batch.mutant
#      (--return): the flush tests fail by design and the others pass, so failing verdicts are
#      compared too.
# Exit 0 equal, 1 a difference (printed), 77 skipped (slurm-wlm or munge missing: CTest's
# SKIP_RETURN_CODE). Always stops the cluster it started. The banks are built by the unsharded
# runs, so the shards only run (under 2 minutes here once the banks exist).
set -euo pipefail

me="test_slurm.sh"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
creditloop="${CREDITLOOP:-$root/build/creditloop}"
cluster_script="$root/scripts/slurm/local-cluster.sh"
regress_script="$root/scripts/slurm/regress.sh"
shards=3
t0=$SECONDS

PATH="$PATH:/usr/sbin:/sbin"
for cmd in slurmctld slurmd munged mungekey sbatch squeue sinfo; do
  if ! command -v "$cmd" >/dev/null 2>&1; then
    echo "$me: SKIPPED: '$cmd' is not installed; to run this test: apt-get install -y slurm-wlm munge"
    exit 77
  fi
done
[ -x "$creditloop" ] || { echo "$me: FAILED: $creditloop not found; build it first (make build-cli)" >&2; exit 1; }
"$creditloop" merge --help >/dev/null 2>&1 \
  || { echo "$me: FAILED: $creditloop has no 'merge' command; rebuild it (make build-cli)" >&2; exit 1; }

work="$(mktemp -d /tmp/creditloop-slurm-test.XXXXXX)"
cluster="$work/cluster"
# A port base of our own, so a local cluster someone already runs on the default ports (or
# another copy of this test) is not disturbed.
export CREDITLOOP_SLURM_PORT=$((20000 + ($$ % 5000) * 2))
verdict=1
finish() {
  local rc=$?
  "$cluster_script" stop --dir "$cluster" >/dev/null 2>&1 || true
  if [ "$verdict" -eq 0 ]; then
    rm -rf "$work"
  else
    echo "$me: kept $work for a look (the cluster's logs are in $cluster/log)" >&2
  fi
  exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT TERM

echo "$me: starting a single-node Slurm in $cluster"
"$cluster_script" start --dir "$cluster"
export SLURM_CONF="$cluster/etc/slurm.conf"

# compare UNSHARDED.xml MERGED.xml: prints the differences, exits 1 if there are any. Python's
# standard library reads the XML and the JSON, so nothing is compared as text by accident.
compare() {
  python3 - "$1" "$2" <<'EOF'
import json, os, sys
import xml.etree.ElementTree as ET

def load(path):
    suite = ET.parse(path).getroot()
    if suite.tag == "testsuites":
        suites = suite.findall("testsuite")
        assert len(suites) == 1, f"{path}: {len(suites)} testsuites, expected 1"
        suite = suites[0]
    props = {p.get("name"): p.get("value") for p in suite.findall("properties/property")}
    cases = []
    for tc in suite.findall("testcase"):
        tprops = {p.get("name"): p.get("value") for p in tc.findall("properties/property")}
        failure = tc.find("failure")
        error = tc.find("error")
        skipped = tc.find("skipped")
        verdict = ("failure" if failure is not None else "error" if error is not None
                   else "skipped" if skipped is not None else "passed")
        bad = failure if failure is not None else error
        lines = []
        for line in ((bad.text or "").splitlines() if bad is not None else []):
            # The waves live in each run's own --waves-dir: compare the file names only.
            if line.startswith("waves: "):
                line = "waves: " + " ".join(os.path.basename(w) for w in line.split()[1:])
            lines.append(line)
        cases.append({
            "name": f'{tc.get("classname")}.{tc.get("name")}',
            "verdict": verdict,
            "message": bad.get("message") if bad is not None else None,
            "text": lines,
            "seed": tprops.get("seed"),
            "config": tprops.get("config"),
        })
    counts = {k: suite.get(k) for k in ("tests", "failures", "errors", "skipped")}
    cov_name = props.get("coverage.file")
    coverage = None
    if cov_name:
        with open(os.path.join(os.path.dirname(path), cov_name)) as f:
            coverage = json.load(f)
    return counts, props, cases, coverage

a_path, b_path = sys.argv[1], sys.argv[2]
a_counts, a_props, a_cases, a_cov = load(a_path)
b_counts, b_props, b_cases, b_cov = load(b_path)
problems = []
if a_counts != b_counts:
    problems.append(f"suite counts differ: unsharded {a_counts}, merged {b_counts}")
for key in ("seed", "coverage.bins_hit", "coverage.bins_total", "coverage.bins_unhit"):
    if a_props.get(key) != b_props.get(key):
        problems.append(f"suite property {key}: unsharded {a_props.get(key)!r}, merged {b_props.get(key)!r}")
a_names = [c["name"] for c in a_cases]
b_names = [c["name"] for c in b_cases]
if a_names != b_names:
    problems.append(f"testcases differ: unsharded {len(a_names)}, merged {len(b_names)}; "
                    f"only unsharded {sorted(set(a_names) - set(b_names))}, "
                    f"only merged {sorted(set(b_names) - set(a_names))}, "
                    f"same set in another order: {set(a_names) == set(b_names)}")
else:
    for a, b in zip(a_cases, b_cases):
        for field in ("verdict", "message", "text", "seed", "config"):
            if a[field] != b[field]:
                problems.append(f"{a['name']}: {field}: unsharded {a[field]!r}, merged {b[field]!r}")
if a_cov is None or b_cov is None:
    problems.append(f"coverage JSON missing: unsharded {a_cov is not None}, merged {b_cov is not None}")
else:
    a_bins = [(x["name"], x["count"]) for x in a_cov.get("bins", [])]
    b_bins = [(x["name"], x["count"]) for x in b_cov.get("bins", [])]
    if a_bins != b_bins:
        diff = [(n, c, dict(b_bins).get(n)) for n, c in a_bins if dict(b_bins).get(n) != c]
        problems.append(f"coverage bins differ (name, unsharded, merged): {diff[:10]}"
                        + ("" if len(a_bins) == len(b_bins) else f"; {len(a_bins)} bins against {len(b_bins)}"))
    for key in ("hit", "total", "runs", "unhit"):
        if a_cov.get(key) != b_cov.get(key):
            problems.append(f"coverage {key}: unsharded {a_cov.get(key)!r}, merged {b_cov.get(key)!r}")
for p in problems:
    print(f"  DIFFERENT: {p}")
failed = sum(c["verdict"] != "passed" for c in a_cases)
if not problems:
    print(f"  equal: {len(a_cases)} testcases in the same order, {failed} failing, "
          f"same messages, {len(a_cov['bins'])} coverage bins with the same counts")
sys.exit(1 if problems else 0)
EOF
}

# run_case NAME EXPECTED_RC FILTER [-- REGRESS_ARGS]: both runs, their exit codes, the comparison.
run_case() {
  local name="$1" expected="$2" filter="$3"; shift 3
  [ "${1:-}" != "--" ] || shift
  local dir="$work/$name" rc_unsharded=0 rc_sharded=0 s
  mkdir -p "$dir/unsharded"
  echo "$me: case $name: unsharded: creditloop regress --filter '$filter'${*:+ $*}"
  s=$SECONDS
  (cd "$root" && "$creditloop" regress --filter "$filter" --seed 1 --jobs 2 "$@" \
      --junit "$dir/unsharded/results.xml" --waves-dir "$dir/unsharded/waves") \
    > "$dir/unsharded.log" 2>&1 || rc_unsharded=$?
  echo "$me: case $name: unsharded exit $rc_unsharded in $((SECONDS - s)) s (log $dir/unsharded.log)"
  echo "$me: case $name: $shards shards through Slurm: scripts/slurm/regress.sh --shards $shards --filter '$filter' --jobs 1"
  s=$SECONDS
  "$regress_script" --shards "$shards" --filter "$filter" --seed 1 --jobs 1 --out "$dir/sharded" -- "$@" \
    > "$dir/sharded.log" 2>&1 || rc_sharded=$?
  echo "$me: case $name: sharded exit $rc_sharded in $((SECONDS - s)) s (log $dir/sharded.log)"
  if [ "$rc_unsharded" -ne "$expected" ] || [ "$rc_sharded" -ne "$expected" ]; then
    echo "$me: case $name: exit codes unsharded $rc_unsharded, sharded $rc_sharded; expected $expected for both" >&2
    tail -n 20 "$dir/unsharded.log" "$dir/sharded.log" >&2
    return 1
  fi
  compare "$dir/unsharded/results.xml" "$dir/sharded/merged.xml" || return 1
  # The comparison must fire: the merged file with its last testcase's verdict flipped (a passing
  # one failed, a failing one passed), beside the merged coverage, has to be reported as different.
  python3 - "$dir/sharded/merged.xml" "$dir/sharded/flipped.xml" <<'EOF'
import sys
import xml.etree.ElementTree as ET
tree = ET.parse(sys.argv[1])
case = tree.getroot().findall(".//testcase")[-1]
bad = case.find("failure")
if bad is not None:
    case.remove(bad)
else:
    ET.SubElement(case, "failure", message="flipped by test_slurm.sh").text = "flipped"
tree.write(sys.argv[2])
EOF
  if compare "$dir/unsharded/results.xml" "$dir/sharded/flipped.xml" > "$dir/flipped.log"; then
    echo "$me: case $name: the comparison missed a flipped verdict (see $dir/sharded/flipped.xml)" >&2
    return 1
  fi
  echo "  the comparison fires on a flipped verdict: $(grep -c 'DIFFERENT' "$dir/flipped.log") difference(s) reported"
  grep 'DIFFERENT' "$dir/flipped.log" | head -2
}

# Case B's return logic: the mutant with its module renamed (--return refuses the name
# credit_return, the wrapper's). It is written next to the binary, at a path that does not
# change, because the cache of verilated configurations keys on the file's path and contents:
# a new temporary path each time would verilate a new bank on every run.
fixtures="${CREDITLOOP_SLURM_FIXTURES:-$(dirname "$creditloop")/slurm-test}"
mutant="$fixtures/credit_return_flush_drops_batch_renamed.sv"
mkdir -p "$fixtures"
python3 "$root/scripts/mutant_patch.py" --emit credit_return_flush_drops_batch |
  sed 's/^module credit_return\b/module credit_return_flush_drops_batch/' > "$mutant.new"
if cmp -s "$mutant.new" "$mutant"; then rm -f "$mutant.new"; else mv "$mutant.new" "$mutant"; fi

ok=0
run_case all_pass 0 K4 || ok=1
run_case failing 1 'random/L4_B12_K4_*' -- --return "$mutant" || ok=1
if [ "$ok" -eq 0 ]; then
  verdict=0
  echo "$me: PASSED: the merged JUnit and coverage of $shards Slurm shards equal the unsharded run's, for passing and failing tests ($((SECONDS - t0)) s)"
  exit 0
fi
echo "$me: FAILED: the sharded regression through Slurm differs from the unsharded one (above)" >&2
exit 1
