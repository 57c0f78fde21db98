#!/usr/bin/env python3
"""make bench: how fast creditloop checks a credit link, against what a user would run instead.

On the bench configurations (L = 4, B = 12 with K = 1 and K = 8), for --cycles cycles (default
10 million) and --runs runs each (default 3), it measures simulated cycles per second of:
  verilated   the verilated link alone (stimulus in, ports out; no model, no checks)
  harness     the full C++ harness (lockstep golden model and every scoreboard)
  model       the golden model alone (no RTL, no checks)
  systemc     the SystemC harness (--sc model under an sc_clock, same model and scoreboards)
and, for K = 1 only (the seeds have no other): seed 001's SystemVerilog testbench lengthened to
the same job under Icarus Verilog and under Verilator --timing, and seed 001's Python model
(scripts/bench/peers.py). Then: how long replaying a failure with waves takes, peak memory over
a 10x longer run, how long a cold build and a rebuild after an RTL edit take, and where the full
harness's time goes: `perf record` of one harness run (--profile-cycles), its top self-time
symbols printed beside the table (skipped, with one line saying why, when perf is missing or the
kernel's perf_event_paranoid forbids it).

Figures are medians of the runs, taken in one sitting, and the ratios between them are what the
docs/speed.md quotes: the machine is shared, so absolute rates move from run to run while the ratios
hold. The table goes to stdout and to OUT/bench.md; the figures to OUT/bench.json.
--build and --out may be relative (to the current directory): they are made absolute first, so
bench.py runs from any directory. A peer that cannot be built or run, or whose run fails its own
check, still gets its row (naming the error), and then the bench exits 1 with one line per such
peer naming it and its log. Standard library only.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import speed_doc

ROOT = Path(__file__).resolve().parent.parent
STAGES, BUFFER = 4, 12
BATCHES = (1, 8)
PEERS = ("icarus", "verilator-timing", "python")   # what peers.py measures


def progress(msg):
    print(f"bench: {msg}", file=sys.stderr, flush=True)


def key(k):
    return f"L{STAGES}_B{BUFFER}_K{k}_W32"


def run_json(argv, env=None):
    """Run a creditloop command that prints one JSON object; the object and the wall time."""
    start = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    if out.returncode not in (0, 1):
        raise SystemExit(f"bench: {' '.join(map(str, argv))} failed ({out.returncode}): {out.stderr.strip()[:300]}")
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise SystemExit(f"bench: no JSON from {' '.join(map(str, argv))}: {out.stderr.strip()[:300]}")
    return json.loads(lines[-1]), seconds


def speed(cli, mode, k, cycles, extra=(), env=None):
    data, _ = run_json([cli, "speed", "--mode", mode, "--L", str(STAGES), "--B", str(BUFFER), "--K", str(k),
                        "--cycles", str(cycles), *extra], env=env)
    return data


SC_ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")


def systemc_harness(cli, build, k):
    """Build (or find) the SystemC harness of K; its path. Not timed."""
    subprocess.run([cli, "run", "--systemc", "--L", str(STAGES), "--B", str(BUFFER), "--K", str(k),
                    "--cycles", "1000"], capture_output=True, check=False, env=SC_ENV)
    systemc = build / "duts" / f"{key(k)}_sc" / "creditloop_sc"
    if not systemc.exists():
        raise SystemExit(f"bench: the SystemC harness for {key(k)} did not build: "
                         f"run '{cli} run --systemc --K {k}' to see why")
    return systemc


def measure_round(cli, harnesses, cycles, figures):
    """One run of every mode of creditloop, appended to figures[K][mode]."""
    for k in BATCHES:
        for mode in ("verilated", "harness", "model"):
            figures[k][mode].append(speed(cli, mode, k, cycles)["cycles_per_s"])
        # The SystemC harness is its own process: its wall time includes SystemC's start-up
        # (tens of milliseconds against seconds of simulation).
        data, seconds = run_json([str(harnesses[k]), "run", "--L", str(STAGES), "--B", str(BUFFER), "--K", str(k),
                                  "--cycles", str(cycles), "--json"], env=SC_ENV)
        if data.get("source") != "systemc" or not data.get("passed"):
            raise SystemExit(f"bench: the SystemC run of {key(k)} did not pass")
        figures[k]["systemc"].append(cycles / seconds)
    # Seed 001's Python model transliterated to C++ (K = 1 only): the language's own speed-up,
    # beside the golden model's. Ten times the cycles: it is that much faster.
    figures[1]["seed001-cpp"].append(speed(cli, "seed001-cpp", 1, cycles * 10)["cycles_per_s"])


def peer_failure(result):
    """Why a peer's result from peers.py is no measurement (naming its log), or None."""
    if "error" in result:
        error = result["error"]
        if result.get("log") and "log:" not in error:
            error += f"; log: {result['log']}"
        return error
    if not result.get("pass"):
        return f"a run failed the testbench's own check (FAIL, or no PASS for the cycles asked); log: {result.get('log', '?')}"
    return None


def measure_peers(build, cycles, icarus_cycles):
    """One run of each peer (peers.py builds them, untimed, then runs each once). Its exit code
    is 0 only when every peer ran and passed; measure_all turns any other into failures."""
    argv = [sys.executable, str(ROOT / "scripts" / "bench" / "peers.py"), "--cycles", str(cycles),
            "--icarus-cycles", str(icarus_cycles), "--runs", "1", "--build-dir", str(build / "bench" / "peers"),
            "--json"]
    out = subprocess.run(argv, capture_output=True, text=True)
    sys.stderr.write(out.stderr)
    try:
        return json.loads(out.stdout)["peers"], out.returncode
    except (ValueError, KeyError):
        raise SystemExit(f"bench: peers.py gave no figures (exit {out.returncode})")


def measure_all(cli, build, cycles, icarus_cycles, runs):
    """Rounds of every simulator in turn, so that a slow spell of the machine falls on all of
    them and the ratios hold; the medians over the rounds. Also {peer: why} for every peer
    that could not be measured (a failed build or run in any round): its row shows the error."""
    progress("building or loading the plugins and the SystemC harnesses (not timed)")
    harnesses = {}
    for k in BATCHES:
        speed(cli, "verilated", k, 1000)
        harnesses[k] = systemc_harness(cli, build, k)
    figures = {k: {mode: [] for mode in ("verilated", "harness", "model", "systemc")} for k in BATCHES}
    figures[1]["seed001-cpp"] = []
    peers, failures = {}, {}
    for round_ in range(runs):
        progress(f"round {round_ + 1} of {runs}: creditloop's modes, then the peers")
        measure_round(cli, harnesses, cycles, figures)
        results, code = measure_peers(build, cycles, icarus_cycles)
        for peer, result in results.items():
            entry = peers.setdefault(peer, dict(result, rates=[]))
            why = peer_failure(result)
            if why:
                failures.setdefault(peer, why)
            elif "median_cycles_per_s" in result:
                entry["rates"].append(result["median_cycles_per_s"])
        for peer in PEERS:
            if peer not in results:
                failures.setdefault(peer, f"peers.py reported nothing for it (exit {code})")
        if code != 0 and not failures:
            failures.setdefault("peers.py", f"exited {code} with every peer passing")
    for peer, entry in peers.items():
        if peer in failures:
            # No rate and no ratio from a peer that failed: its row shows why.
            entry.pop("median_cycles_per_s", None)
            entry["error"] = failures[peer]
        elif entry["rates"]:
            entry["median_cycles_per_s"] = statistics.median(entry["rates"])
    return figures, peers, failures


def measure_replay(cli, build, runs, fail_at):
    """A failure at cycle fail_at replayed with waves around it, as make sim does."""
    progress(f"replay: a failure at cycle {fail_at:,} replayed with waves")
    waves = build / "bench" / "replay.vcd"
    seconds = [speed(cli, "replay", 1, fail_at + 100, ["--fail-at", str(fail_at), "--waves", str(waves)])["seconds"]
               for _ in range(runs)]
    return {"fail_at": fail_at, "seconds": seconds, "median_s": statistics.median(seconds),
            "waves_bytes": waves.stat().st_size if waves.exists() else 0}


def measure_memory(cli, cycles, long_cycles):
    progress(f"memory: the full harness over {cycles:,} and {long_cycles:,} cycles")
    short = speed(cli, "harness", 1, cycles)
    long = speed(cli, "harness", 1, long_cycles)
    return {"cycles": [cycles, long_cycles], "max_rss_kb": [short["max_rss_kb"], long["max_rss_kb"]],
            "long_run_cycles_per_s": long["cycles_per_s"]}


def measure_builds(cli, build):
    """A cold build of one configuration (Verilator and the C++ compiler, no ccache) and the
    rebuilds after touching one RTL file and after editing it."""
    progress("builds: one configuration from scratch, then after touching and editing one RTL file")
    with tempfile.TemporaryDirectory(prefix="creditloop-bench-") as tmp:
        scratch = Path(tmp)
        for lib in build.glob("libcreditloop_*"):   # the runtime and the static layers
            (scratch / lib.name).symlink_to(lib.resolve())
        rtl = scratch / "rtl"
        shutil.copytree(ROOT / "rtl", rtl, ignore=shutil.ignore_patterns("mutants"))
        run = [cli, "run", "--rtl", str(rtl), "--L", str(STAGES), "--B", str(BUFFER), "--cycles", "200", "--json"]

        def timed(env_extra):
            env = dict(os.environ, CREDITLOOP_BUILD=str(scratch), **env_extra)
            start = time.perf_counter()
            out = subprocess.run(run, capture_output=True, text=True, env=env)
            if out.returncode != 0:
                raise SystemExit(f"bench: build measurement failed: {out.stderr.strip()[:300]}")
            return time.perf_counter() - start

        cold = timed({"CCACHE_DISABLE": "1"})
        target = rtl / "pipeline.sv"
        os.utime(target)
        touched = timed({})
        with open(target, "a") as f:
            f.write("// edited by make bench\n")
        edited = timed({})
    return {"cold_s": cold, "touched_s": touched, "edited_s": edited}


PROFILE_TOP = 10


def short_symbol(symbol):
    """A C++ symbol without its argument lists: run_link(...)::{lambda(...)#1}::operator()."""
    anonymous = "(anonymous namespace)"
    parts = [re.sub(r"\((?:[^()]|\([^()]*\))+\)", "(...)", part) for part in symbol.split(anonymous)]
    return anonymous.join(parts)


def measure_profile(cli, out_dir, cycles):
    """`perf record` of one full-harness run (K = 1), outside the timed rounds; the top self-time
    symbols. {"skipped": why} when perf is missing or may not record (perf_event_paranoid)."""
    perf = shutil.which("perf")
    if not perf:
        return {"skipped": "perf is not installed (Debian: apt-get install linux-perf)"}
    progress(f"profile: perf record of the full harness over {cycles:,} cycles")
    data = out_dir / "harness.perf.data"
    argv = [cli, "speed", "--mode", "harness", "--L", str(STAGES), "--B", str(BUFFER), "--K", "1",
            "--cycles", str(cycles)]
    out = subprocess.run([perf, "record", "-o", str(data), "--", *argv], capture_output=True, text=True)
    if out.returncode != 0 or not data.exists():
        try:
            paranoid = Path("/proc/sys/kernel/perf_event_paranoid").read_text().strip()
        except OSError:
            paranoid = "?"
        why = (out.stderr.strip().splitlines() or [f"exit {out.returncode}"])[0][:160]
        return {"skipped": f"perf record failed (kernel.perf_event_paranoid = {paranoid}; "
                           f"2 or less lets a user profile their own processes): {why}"}
    report = subprocess.run([perf, "report", "-i", str(data), "--stdio", "--no-children", "--sort", "dso,sym"],
                            capture_output=True, text=True)
    top = []
    for line in report.stdout.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.+?)\s*$", line)
        if m:
            top.append({"percent": float(m.group(1)), "object": m.group(2), "symbol": m.group(3)})
        if len(top) == PROFILE_TOP:
            break
    if not top:
        return {"skipped": f"perf report gave no symbols: {report.stderr.strip()[:160]}"}
    return {"cycles": cycles, "top": top, "data": str(data)}


def rate(value):
    return f"{value / 1e6:.2f} M" if value >= 1e6 else f"{value / 1e3:.0f} k"


def verdict(ratio, target):
    return "met" if ratio >= target else "MISSED"


def report(figures, peers, replay, memory, builds, profile, args, elapsed):
    med = {k: {mode: statistics.median(v) for mode, v in rates.items()} for k, rates in figures.items()}
    seed_cpp = med[1].pop("seed001-cpp")
    lines = [f"creditloop bench: L = {STAGES}, B = {BUFFER}, {args.cycles:,} cycles per run, median of {args.runs} rounds "
             f"(each round runs every simulator once), cycles per second", ""]
    lines.append("| simulator | K = 1 | K = 8 |")
    lines.append("|---|---:|---:|")
    names = {"verilated": "verilated model alone (no model, no checks)",
             "harness": "full harness (lockstep model + every scoreboard)",
             "model": "golden model alone",
             "systemc": "SystemC harness (sc_clock, same checks)"}
    for mode, name in names.items():
        lines.append(f"| {name} | {rate(med[1][mode])} | {rate(med[8][mode])} |")
    lines.append(f"| seed 001's Python model written out in C++ (4 integers, no data) | {rate(seed_cpp)} | - |")
    peer_names = {"icarus": "seed 001 testbench, Icarus Verilog", "verilator-timing": "seed 001 testbench, Verilator --timing",
                  "python": "seed 001 Python model"}
    peer_rate = {}
    for peer, name in peer_names.items():
        p = peers.get(peer, {})
        if "median_cycles_per_s" in p:
            peer_rate[peer] = p["median_cycles_per_s"]
            lines.append(f"| {name} ({p['cycles']:,} cycles) | {rate(p['median_cycles_per_s'])} | - |")
        else:
            lines.append(f"| {name} | {p.get('error', 'not run')} | - |")
    lines.append("")
    lines.append("| ratio (K = 1 unless named) | measured | target |")
    lines.append("|---|---:|---|")
    r_harness = med[1]["harness"] / med[1]["verilated"]
    r_harness8 = med[8]["harness"] / med[8]["verilated"]
    lines.append(f"| full harness / verilated model alone | {r_harness:.2f} (K = 8: {r_harness8:.2f}) | >= 0.8, "
                 f"{verdict(min(r_harness, r_harness8), 0.8)} |")
    if "icarus" in peer_rate:
        r = med[1]["harness"] / peer_rate["icarus"]
        lines.append(f"| full harness / Icarus on seed 001's testbench | {r:.0f} | >= 100, {verdict(r, 100)} |")
    if "verilator-timing" in peer_rate:
        r = med[1]["harness"] / peer_rate["verilator-timing"]
        lines.append(f"| full harness / Verilator --timing on seed 001's testbench | {r:.2f} | >= 0.8, {verdict(r, 0.8)} |")
    if "python" in peer_rate:
        r = med[1]["model"] / peer_rate["python"]
        lines.append(f"| golden model alone / seed 001's Python model | {r:.0f} | >= 300, {verdict(r, 300)} |")
    if "python" in peer_rate:
        r = seed_cpp / peer_rate["python"]
        lines.append(f"| seed 001's model in C++ / the same in Python (the language alone) | {r:.0f} | - |")
    r = med[1]["systemc"] / med[1]["harness"]
    lines.append(f"| SystemC harness / C++ harness | {r:.2f} | - |")
    lines.append(f"| golden model alone / full harness | {med[1]['model'] / med[1]['harness']:.1f} | - |")
    lines.append("")
    lines.append(f"- Replaying a failure at cycle {replay['fail_at']:,} with waves around it (200 cycles before, 20 after): "
                 f"{replay['median_s']:.2f} s median (target < 1 s, {'met' if replay['median_s'] < 1 else 'MISSED'}); "
                 f"passing runs write no waves at all.")
    rss = memory["max_rss_kb"]
    lines.append(f"- Peak memory of the full harness: {rss[0] / 1024:.1f} MiB over {memory['cycles'][0]:,} cycles, "
                 f"{rss[1] / 1024:.1f} MiB over {memory['cycles'][1]:,} (flat: "
                 f"{'yes' if rss[1] <= rss[0] * 1.1 + 1024 else 'NO'}).")
    lines.append(f"- Builds of one configuration (L = 4, B = 12): cold (Verilator and the compiler, ccache off) "
                 f"{builds['cold_s']:.1f} s; after touching one RTL file {builds['touched_s']:.2f} s (the content "
                 f"stamp is unchanged, nothing rebuilds); after editing one {builds['edited_s']:.1f} s.")
    lines.append("")
    if "top" in profile:
        lines.append(f"Where the full harness's time goes (K = 1, {profile['cycles']:,} cycles, `perf record`; "
                     f"self time, top {len(profile['top'])}):")
        lines.append("")
        lines.append("| self | symbol | object |")
        lines.append("|---:|---|---|")
        for entry in profile["top"]:
            lines.append(f"| {entry['percent']:.1f} % | `{short_symbol(entry['symbol'])}` | {entry['object']} |")
    else:
        lines.append(f"Profile: skipped: {profile['skipped']}.")
    lines.append("")
    lines.append(f"Generated by `make bench` ({elapsed:.0f} s).")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description="creditloop's performance bench (make bench)")
    ap.add_argument("--build", type=Path, default=ROOT / "build", help="the main build directory (default build/)")
    ap.add_argument("--cycles", type=int, default=10_000_000, help="cycles per run (default 10,000,000)")
    ap.add_argument("--runs", type=int, default=3, help="runs per figure (default 3)")
    ap.add_argument("--icarus-cycles", type=int, default=1_000_000,
                    help="cycles per Icarus run (default 1,000,000: Icarus runs about 70k cycles/s)")
    ap.add_argument("--memory-cycles", type=int, default=100_000_000,
                    help="the long run of the memory check (default 100,000,000)")
    ap.add_argument("--fail-at", type=int, default=1_000_000, help="cycle of the replayed failure")
    ap.add_argument("--profile-cycles", type=int, default=3_000_000,
                    help="cycles of the profiled harness run (default 3,000,000; 0: no profile)")
    ap.add_argument("--out", type=Path, default=None, help="where bench.md and bench.json go (default BUILD/bench)")
    ap.add_argument("--no-docs", action="store_true",
                    help="do not write the tables into docs/speed.md (a run with any other option never does)")
    args = ap.parse_args(argv)
    # Absolute from here on: every path below is handed to a subprocess, some of which run
    # in other directories (the peers build and run inside BUILD/bench/peers/<peer>/).
    args.build = Path(os.path.abspath(args.build))
    if args.out is not None:
        args.out = Path(os.path.abspath(args.out))
    if args.cycles < 1000 or args.runs < 1 or args.icarus_cycles < 100 or args.memory_cycles < args.cycles:
        ap.error("need --cycles >= 1000, --runs >= 1, --icarus-cycles >= 100 and --memory-cycles >= --cycles")
    if args.profile_cycles != 0 and args.profile_cycles < 1000:
        ap.error("need --profile-cycles >= 1000, or 0 for no profile")
    cli = args.build / "creditloop"
    if not cli.exists():
        ap.error(f"{cli} not found: run make build first (make bench does)")
    out = args.out or args.build / "bench"
    out.mkdir(parents=True, exist_ok=True)
    cli = str(cli)

    start = time.perf_counter()
    figures, peers, failures = measure_all(cli, args.build, args.cycles, args.icarus_cycles, args.runs)
    replay = measure_replay(cli, args.build, args.runs, args.fail_at)
    memory = measure_memory(cli, args.memory_cycles // 10, args.memory_cycles)
    builds = measure_builds(cli, args.build)
    profile = (measure_profile(cli, out, args.profile_cycles) if args.profile_cycles
               else {"skipped": "--profile-cycles 0"})
    elapsed = time.perf_counter() - start

    table = report(figures, peers, replay, memory, builds, profile, args, elapsed)
    print(table, end="")
    (out / "bench.md").write_text(table)
    (out / "bench.json").write_text(json.dumps(
        {"cycles": args.cycles, "runs": args.runs, "modes": {str(k): v for k, v in figures.items()}, "peers": peers,
         "replay": replay, "memory": memory, "builds": builds, "profile": profile, "seconds": elapsed},
        indent=1) + "\n")
    if not failures and not args.no_docs:
        given = list(argv if argv is not None else sys.argv[1:])
        if "--build" in given:   # make bench's own option: the checkout's build, not a setting
            del given[given.index("--build"):given.index("--build") + 2]
        # Only the full bench speaks for the page: a reduced run (the docs test runs one) says so.
        if given:
            print("bench: docs/speed.md left as it is (not the full bench: BENCH_ARGS given)", file=sys.stderr)
        else:
            print(f"bench: tables written into {speed_doc.publish('bench', 'make bench', [table])}", file=sys.stderr)
    for peer, why in failures.items():
        print(f"bench: FAILED: peer {peer} could not be measured: {why}", file=sys.stderr, flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
