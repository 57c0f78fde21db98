#!/usr/bin/env python3
"""The RTL-change loop, timed on fresh clones (make timing).

Clones the checkout's HEAD into a temporary directory and measures, with the Debian packages
already installed and a ccache of its own that starts empty (your ~/.cache/ccache is not
touched):

  make sim, cold          a fresh clone: the project build, every verilated configuration, the
                          regression (target: 150 s)
  make sim, one-line edit an internal signal of rtl/credit_counter.sv renamed (target: 30 s)
  make sim, no change     (target: 3 s)
  make test-fast          on a second fresh clone with an empty ccache: the build of the tests
                          that verilate nothing, and those tests (target: 60 s)
  bash .ci/run            on another fresh clone with an empty ccache (target: 8 minutes);
                          --skip-ci leaves it out

and, for every make sim, the longest time its output stood still (progress from the first
second to the verdict). Prints a Markdown table and writes it to BUILD/timing/timing.md with
the raw figures in timing.json, and, when every step ran, into docs/speed.md with its commit,
date and command (--no-docs: not there). Standard library only. Exits 1 when a command fails (its log
is named), 0 otherwise; a target missed is reported in the table, not as a failure.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import speed_doc

ROOT = Path(__file__).resolve().parent.parent


def say(msg):
    print(f"timing: {msg}", file=sys.stderr, flush=True)


def run(argv, cwd, env, log):
    """Run argv, its output to `log`; (seconds, longest silence in seconds, exit code)."""
    start = time.perf_counter()
    last = start
    silence = 0.0
    with open(log, "w") as out:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
        for raw in proc.stdout:
            now = time.perf_counter()
            silence = max(silence, now - last)
            last = now
            out.write(raw.decode(errors="replace"))
        code = proc.wait()
    end = time.perf_counter()
    return end - start, max(silence, end - last), code


def clone(into):
    subprocess.run(["git", "clone", "-q", str(ROOT), str(into)], check=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", type=Path, default=ROOT / "build", help="where timing.md and timing.json go")
    ap.add_argument("--skip-ci", action="store_true", help="leave out the .ci/run measurement")
    ap.add_argument("--keep", action="store_true", help="keep the temporary clones (their logs)")
    ap.add_argument("--no-docs", action="store_true", help="do not write the table into docs/speed.md")
    args = ap.parse_args(argv)
    out_dir = Path(os.path.abspath(args.build)) / "timing"
    out_dir.mkdir(parents=True, exist_ok=True)
    if subprocess.run(["bash", str(ROOT / "scripts" / "install-deps.sh"), "--check"]).returncode != 0:
        raise SystemExit("timing: install the Debian packages first (make deps): the targets assume them installed")

    tmp = Path(tempfile.mkdtemp(prefix="creditloop-timing-"))
    rows, failed = [], []
    env = dict(os.environ, CCACHE_DIR=str(tmp / "ccache"), TERM="dumb")
    env.pop("MAKEFLAGS", None)

    def step(name, argv, cwd, target, log_name, what):
        say(f"{name} ...")
        log = tmp / log_name
        seconds, silence, code = run(argv, cwd, env, log)
        say(f"{name}: {seconds:.1f} s (exit {code})")
        if code != 0:
            failed.append(f"{name} exited {code}: see {log}")
        rows.append({"step": name, "what": what, "seconds": seconds, "silence": silence, "target": target,
                     "exit": code, "log": str(log)})
        return code

    try:
        work = tmp / "clone"
        clone(work)
        step("make sim, cold", ["make", "sim"], work, 150, "sim_cold.log",
             "fresh clone, empty ccache: project build, verilation, the regression")
        counter = work / "rtl" / "credit_counter.sv"
        text = counter.read_text()
        if "next_credits" not in text:
            raise SystemExit("timing: rtl/credit_counter.sv has no signal next_credits to rename: update the edit step")
        counter.write_text(re.sub(r"\bnext_credits\b", "next_credit_count", text))
        step("make sim, one-line RTL edit", ["make", "sim"], work, 30, "sim_edit.log",
             "an internal signal of credit_counter.sv renamed")
        step("make sim, nothing changed", ["make", "sim"], work, 3, "sim_again.log", "")
        counter.write_text(text)
        fast = tmp / "fast"
        clone(fast)
        shutil.rmtree(tmp / "ccache", ignore_errors=True)
        step("make test-fast", ["make", "test-fast"], fast, 60, "test_fast.log",
             "second fresh clone, empty ccache: the build of the tests that verilate nothing, and those tests")
        if not args.skip_ci:
            ci = tmp / "ci"
            clone(ci)
            shutil.rmtree(tmp / "ccache", ignore_errors=True)
            ci_env = dict(env, CI="true")
            say("bash .ci/run ...")
            seconds, silence, code = run(["bash", ".ci/run"], ci, ci_env, tmp / "ci.log")
            say(f"bash .ci/run: {seconds:.1f} s (exit {code})")
            if code != 0:
                failed.append(f"bash .ci/run exited {code}: see {tmp / 'ci.log'}")
            rows.append({"step": "bash .ci/run", "what": "fresh clone, empty ccache (make test: every test)",
                         "seconds": seconds, "silence": silence, "target": 480, "exit": code,
                         "log": str(tmp / "ci.log")})
    finally:
        if not args.keep and not failed:
            shutil.rmtree(tmp, ignore_errors=True)

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    lines = [f"creditloop timing, {datetime.date.today().isoformat()}, commit {commit} (scripts/timing.py, "
             f"{os.cpu_count()} cores)", "",
             "| step | what | wall time | target | longest silence | verdict |", "|---|---|---:|---:|---:|---|"]
    for r in rows:
        verdict = "FAILED" if r["exit"] else ("met" if r["seconds"] <= r["target"] else "MISSED")
        lines.append(f"| {r['step']} | {r['what']} | {r['seconds']:.1f} s | {r['target']} s | {r['silence']:.1f} s | {verdict} |")
    table = "\n".join(lines) + "\n"
    table_rows = "\n".join(lines[2:]) + "\n"
    print(table)
    (out_dir / "timing.md").write_text(table)
    (out_dir / "timing.json").write_text(json.dumps({"commit": commit, "rows": rows}, indent=1) + "\n")
    if not failed and not args.no_docs:
        command = "python3 scripts/timing.py" + (" --skip-ci" if args.skip_ci else "")
        say(f"table written into {speed_doc.publish('timing', command, [table_rows])}")
    for f in failed:
        print(f"timing: FAILED: {f}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
