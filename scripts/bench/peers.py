#!/usr/bin/env python3
"""The bench's peers: what a user would run instead of creditloop, timed on the same job.

The job is seed 001's credit loop with L = 4, B = 12 (K = 1), for N clock cycles:
  icarus            seed001_tb_long.sv under Icarus Verilog (iverilog -g2012, then vvp)
  verilator-timing  seed001_tb_long.sv under Verilator (--binary --timing)
  python            seed 001's Python cycle model (seed001_model.py)
Each peer is built once (timed and reported apart, never counted in the rate), then run R
times. A run's time is the wall time of its process (time.perf_counter around the subprocess,
so process start-up is included); the rate is N / time. A peer passes when every run exits 0
and prints its own PASS line for the N cycles asked for.

    peers.py [--cycles N] [--runs R] [--build-dir DIR] [--only icarus,verilator-timing,python]
             [--icarus-cycles N] [--icarus-runs R] (same for --verilator-timing-*, --python-*)
             [--timeout S] [--json]

--json prints one JSON object on stdout: {"peers": {"icarus": {"cycles": N, "runs": [s, ...],
"median_cycles_per_s": x, "pass": true, "build_s": y, ...}, ...}}; a peer that could not run
is {"error": "...", "log": "DIR/<peer>/..."} ("log" when there is one), and a peer whose run
failed its own check has "pass": false and "log" naming that run's log. Otherwise a table.
Progress goes to stderr. Exit 0 only when every requested peer ran and passed, 1 otherwise,
2 for bad options.
Build products go under DIR/<peer>/ only (default /tmp/creditloop-bench-peers). DIR may be
relative (to the current directory): it is made absolute before anything runs, since the builds
and runs happen inside DIR/<peer>/, so every path handed to a tool is absolute.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TB = HERE / "seed001_tb_long.sv"
MODEL = HERE / "seed001_model.py"
PEERS = ("icarus", "verilator-timing", "python")
MIN_CYCLES = 60          # the tb's checker window ends at cycle 6 * RTT = 60
MAX_CYCLES = 2**31 - 1   # the tb counts cycles in the seed's 32-bit `integer t`
MARKER = ".bench-peer"   # written into DIR/<peer>/ so that only our own dirs are ever cleared


class PeerError(Exception):
    """A peer that cannot be measured: missing tool, failed build, run that hung."""

    def __init__(self, message, log=None):
        super().__init__(message)
        self.log = log   # the log that tells why, when there is one


def progress(msg):
    print(f"peers: {msg}", file=sys.stderr, flush=True)


def need(*tools, package):
    for tool in tools:
        if shutil.which(tool) is None:
            raise PeerError(f"{tool} not found: install the {package} package")


def first_line(argv):
    """The first line a tool prints about itself (its version), for the report."""
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=30)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def fresh_dir(build_dir, peer):
    """An empty DIR/<peer>, as an absolute path: builds and runs use it as their working
    directory, where a relative DIR would no longer lead to DIR. A build time means
    something only for a build from scratch."""
    d = Path(os.path.abspath(build_dir / peer))
    if d.exists():
        if not (d / MARKER).exists():
            raise PeerError(f"{d} exists and was not made by peers.py; "
                            "remove it or pick another --build-dir")
        shutil.rmtree(d)
    d.mkdir(parents=True)
    (d / MARKER).write_text("made by scripts/bench/peers.py; cleared on every run\n")
    return d


def timed_build(argv, d, env=None):
    """Run one build command in d, log it to d/build.log; return its wall time."""
    progress(f"build: {' '.join(map(str, argv))}")
    start = time.perf_counter()
    with open(d / "build.log", "w") as log:
        rc = subprocess.run([str(a) for a in argv], cwd=d, env=env, stdout=log,
                            stderr=subprocess.STDOUT).returncode
    elapsed = time.perf_counter() - start
    if rc != 0:
        tail = (d / "build.log").read_text(errors="replace").strip().splitlines()[-5:]
        for line in tail:
            progress(f"  {line}")
        raise PeerError(f"build failed (exit {rc}); log: {d / 'build.log'}", d / "build.log")
    return elapsed


# Each builder returns (build seconds, run(N) -> argv, version string, extra report fields).

def build_icarus(d, jobs):
    need("iverilog", "vvp", package="iverilog")
    build_s = timed_build(["iverilog", "-g2012", "-o", d / "tb.vvp", TB], d)
    # -n: a $stop would otherwise drop vvp into its interactive prompt and hang the bench.
    run = lambda n: ["vvp", "-n", d / "tb.vvp", f"+CYCLES={n}"]
    return build_s, run, first_line(["iverilog", "-V"]), {}


def build_verilator(d, jobs):
    need("verilator", package="verilator")
    env = dict(os.environ)
    ccache = shutil.which("ccache") is not None
    if ccache:
        env["OBJCACHE"] = "ccache"   # verilated.mk prefixes every compile with $(OBJCACHE)
    # -Wno-WIDTH: the seed's tb extends widths implicitly; Verilator makes that warning fatal.
    # Verilator's default C++ optimization (-Os) is kept: it is what a user gets.
    build_s = timed_build(["verilator", "--binary", "--timing", "-Wno-WIDTH", "-j", str(jobs),
                           "--Mdir", d, "-o", "sim", TB], d, env)
    run = lambda n: [d / "sim", f"+CYCLES={n}"]
    return build_s, run, first_line(["verilator", "--version"]), {"ccache": ccache}


def build_python(d, jobs):
    # Nothing to build. -I ignores PYTHON* variables: PYTHONOPTIMIZE would strip the asserts.
    run = lambda n: [sys.executable, "-I", MODEL, str(n)]
    return 0.0, run, f"Python {sys.version.split()[0]}", {}


BUILDERS = {"icarus": build_icarus, "verilator-timing": build_verilator, "python": build_python}


def passed(rc, out, n):
    """The peer's own verdict: exit 0, no FAIL line, a PASS line naming the cycles asked for."""
    lines = out.splitlines()
    count = re.compile(rf"\b{n} cycles simulated")   # \b: 10 must not match "110 cycles"
    return (rc == 0 and not any(l.startswith("FAIL") for l in lines)
            and any(l.startswith("PASS") and count.search(l) for l in lines))


def cycle_count(text):
    n = int(text.replace("_", ""))
    if not MIN_CYCLES <= n <= MAX_CYCLES:
        raise argparse.ArgumentTypeError(
            f"cycles must be in {MIN_CYCLES}..{MAX_CYCLES}, not {n}")
    return n


def run_count(text):
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"runs must be at least 1, not {n}")
    return n


def peer_list(text):
    names = [p.strip() for p in text.split(",") if p.strip()]
    bad = [p for p in names if p not in PEERS]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"unknown peer(s) {','.join(bad) or '(none)'}; choose from {','.join(PEERS)}")
    return list(dict.fromkeys(names))


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Time the bench's peers (Icarus, Verilator --timing, seed 001's Python model)"
                    " on seed 001's loop, L = 4, B = 12.")
    ap.add_argument("--cycles", type=cycle_count, default=10_000_000,
                    help="clock cycles per run for every peer without its own --<peer>-cycles"
                         " (default 10000000)")
    ap.add_argument("--runs", type=run_count, default=3, help="runs per peer (default 3)")
    ap.add_argument("--build-dir", type=Path, default=Path("/tmp/creditloop-bench-peers"),
                    help="where builds go, one subdirectory per peer"
                         " (default /tmp/creditloop-bench-peers)")
    ap.add_argument("--only", type=peer_list, default=list(PEERS),
                    help=f"comma-separated peers to measure (default {','.join(PEERS)})")
    for peer in PEERS:
        ap.add_argument(f"--{peer}-cycles", type=cycle_count, help=f"cycles per run for {peer}")
        ap.add_argument(f"--{peer}-runs", type=run_count, help=f"runs for {peer}")
    ap.add_argument("--timeout", type=float, default=900.0,
                    help="seconds after which one run counts as hung (default 900)")
    ap.add_argument("--json", action="store_true",
                    help="print one JSON object instead of the table")
    return ap.parse_args(argv)


def measure(args):
    """Build every requested peer, then run them; return {peer: result}."""
    jobs = os.cpu_count() or 1
    results, ready = {}, {}
    for peer in args.only:
        key = peer.replace("-", "_")
        cycles = getattr(args, f"{key}_cycles") or args.cycles
        runs = getattr(args, f"{key}_runs") or args.runs
        try:
            d = fresh_dir(args.build_dir, peer)
            build_s, command, version, extra = BUILDERS[peer](d, jobs)
        except (PeerError, OSError) as e:
            progress(f"{peer}: {e}")
            results[peer] = {"error": str(e)}
            if getattr(e, "log", None):
                results[peer]["log"] = str(e.log)
            continue
        progress(f"{peer}: built in {build_s:.2f} s")
        results[peer] = {"cycles": cycles, "runs": [], "pass": True,
                         "build_s": round(build_s, 3), "version": version,
                         "command": " ".join(map(str, command(cycles))), **extra}
        ready[peer] = (d, command, cycles, runs)

    # Runs go in rounds (each peer's run 1, then each peer's run 2, ...) so that a slow spell of
    # this machine is shared among the peers instead of landing on one of them.
    for r in range(max((v[3] for v in ready.values()), default=0)):
        for peer, (d, command, cycles, runs) in ready.items():
            res = results[peer]
            if r >= runs or "error" in res:
                continue
            argv = [str(a) for a in command(cycles)]
            log = d / f"run{r + 1}.log"
            start = time.perf_counter()
            try:
                out = subprocess.run(argv, cwd=d, capture_output=True, text=True,
                                     timeout=args.timeout)
            except (subprocess.TimeoutExpired, OSError) as e:
                if isinstance(e, subprocess.TimeoutExpired):
                    why = f"run {r + 1} took over {args.timeout:g} s (--timeout)"
                    text = "".join(x.decode(errors="replace") if isinstance(x, bytes) else x
                                   for x in (e.stdout, e.stderr) if x)
                else:
                    why = f"run {r + 1} could not start ({e})"
                    text = ""
                log.write_text(f"$ {' '.join(argv)}\n{why}\n{text}")
                results[peer] = {"error": f"{why}; log: {log}", "log": str(log)}
                progress(f"{peer}: {results[peer]['error']}")
                continue
            seconds = time.perf_counter() - start
            text = out.stdout + out.stderr
            log.write_text(text)
            ok = passed(out.returncode, text, cycles)
            if not ok and res["pass"]:
                res["log"] = str(log)   # the first failing run's
            res["pass"] = res["pass"] and ok
            res["runs"].append(round(seconds, 6))
            verdict = "PASS" if ok else f"FAIL (log: {log})"
            progress(f"{peer}: run {r + 1}/{runs}: {cycles} cycles in {seconds:.3f} s = "
                     f"{cycles / seconds:,.0f} cycles/s, {verdict}")

    for res in results.values():
        if "error" not in res:
            rates = [res["cycles"] / s for s in res["runs"]]
            res["median_s"] = round(statistics.median(res["runs"]), 6)
            res["median_cycles_per_s"] = round(statistics.median(rates))
            res["min_cycles_per_s"] = round(min(rates))
            res["max_cycles_per_s"] = round(max(rates))
    return results


def table(results):
    head = (f"{'peer':<17} {'cycles':>11} {'median cycles/s':>16} {'min':>12} {'max':>12} "
            f"{'build s':>8}  result  runs (s)")
    lines = [head, "-" * len(head)]
    for peer, r in results.items():
        if "error" in r:
            lines.append(f"{peer:<17} ERROR: {r['error']}")
            continue
        lines.append(f"{peer:<17} {r['cycles']:>11,} {r['median_cycles_per_s']:>16,} "
                     f"{r['min_cycles_per_s']:>12,} {r['max_cycles_per_s']:>12,} "
                     f"{r['build_s']:>8.2f}  {'PASS' if r['pass'] else 'FAIL':<6}  "
                     + " ".join(f"{s:.2f}" for s in r["runs"]))
    return "\n".join(lines)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    results = measure(args)
    if args.json:
        print(json.dumps({"peers": results}, indent=2))
    else:
        print(table(results))
    ok = all("error" not in r and r["pass"] for r in results.values())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
