#!/usr/bin/env python3
"""The network's deadlock check: with yosys and yosys-smtbmc (z3), a dateline ring never reaches a
cycle of full, waiting buffers, and a ring of one VC does (docs/network-proof.md).

The formal top formal/noc/noc_deadlock_formal.sv puts noc_network as a one-way ring of 4 routers
(L = 1, B = 2) among free sources and sinks and asserts p_no_full_wait_cycle, read from the
routers' observation ports: no assignment of a VC to every node has each node's ring buffer on
its VC full and its head waiting for the next node's. Three designs:

  ring4_dateline                 ROUTING = 1, V = 2: bounded model checking (BMC) finds no such
                                 state within DEPTH cycles of the reset (proved to that bound);
                                 its cover c_every_node_waits (every node holds a full buffer
                                 waiting for the next node's) must be reached within the bound,
                                 so the bound is not of a ring where nothing fills; and k-induction
                                 is tried (INDUCTION_DEPTH), reported but not required (it does
                                 not close; docs/network-proof.md says why).
  ring4_one_vc                   ROUTING = 0, V = 1: BMC must find the cycle (refuted), written as
                                 a VCD with the cycle's buffers named node.port.vc.
  ring4_dateline_never_switches  the dateline ring with noc_route's dateline forgotten (the patch
                                 rtl/mutants/noc/noc_dateline_no_switch.mutant, applied to
                                 today's rtl/noc/noc_route.sv when it builds): must be refuted too,
                                 so the check is seen to catch a real routing bug.

  scripts/noc_formal.py                   the three, bound 20
  scripts/noc_formal.py --depth 30        a deeper bound (about 10 minutes: deeper steps cost more)

Options: --build DIR (default build; outputs go to DIR/noc_formal), --depth N (cycles after the
reset the BMC runs cover, 1..200, default 20). Output only under DIR/noc_formal/: noc_formal.md
(the table), <design>.vcd for each counterexample, work/<design>/ (the sources as yosys read
them, the yosys script and log, the SMT2, every solver log and trace), all overwritten by the next
run. Exit 0 when the dateline ring is proved to the bound with its cover reached and both the
one-VC ring and the mutant are refuted; 1 otherwise; 2 for a bad option (one line); 3 when yosys,
yosys-smtbmc or z3 is missing. Standard library only; one tool runs at a time.
"""
import argparse
import fcntl
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutant_patch  # noqa: E402  (scripts/mutant_patch.py: a variant is a patch of the live block)
from formal import read_vcd  # noqa: E402  (a trace's top signals, step by step)

ROOT = Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"
NOC = RTL / "noc"
FORMAL = ROOT / "formal" / "noc"
TOP = "noc_deadlock_formal"
PROPERTY = "p_no_full_wait_cycle"
COVER = "c_every_node_waits"
SOLVER = "z3"
DEFAULT_DEPTH = 20
MAX_DEPTH = 200
INDUCTION_DEPTH = 6           # the k-induction tried on the dateline ring (about 10 s; k = 20 takes minutes)
TOOL_TIMEOUT = 900            # seconds for one yosys or yosys-smtbmc run; past it the design fails

# The ring every design is: noc_network's parameters (the top's), and its shape for reading the
# observation ports back from a trace (noc_router's P for a one-way ring, CW = $clog2(B + 1)).
RING = {"NX": 4, "B": 2, "L": 1}
PORTS = 2
# The link's blocks noc_network is built from, read as they are; the network's own files are read
# from a copy (yosys_readable()).
# The named signals a model keeps (yosys selections, after flatten), so a trace shows them: "top",
# the formal top's own (the sources, the sinks, the observation ports, the property's terms), which
# every model keeps; "all", every wire, which the waves of a counterexample the docs show keep. The
# abc pass renames what is not kept. A model that keeps every wire costs about a minute more for
# two VCs (yosys-smtbmc reads each back at each step), so the mutant's waves keep the top's only.
KEEP = {"top": "w:* w:*.* %d", "all": "w:*"}
BLOCKS = ["rx_buffer.sv", "credit_counter.sv", "credit_return.sv", "pipeline.sv"]
NETWORK = ["noc_route.sv", "noc_router.sv", "noc_network.sv"]


@dataclass(frozen=True)
class Design:
    name: str
    title: str
    routing: int
    vcs: int
    expect: str                 # "proved" (BMC to the bound) or "refuted"
    waves: str = "all"          # what a counterexample's waves keep (KEEP)
    mutant: Path = None         # a patch of rtl/noc/<replaces>, applied when it builds


DESIGNS = [
    Design("ring4_dateline", "ring of 4, dateline over 2 VCs", 1, 2, "proved"),
    Design("ring4_one_vc", "ring of 4, 1 VC", 0, 1, "refuted"),
    Design("ring4_dateline_never_switches", "ring of 4, dateline over 2 VCs, mutant: never switches class",
           1, 2, "refuted", "top", ROOT / "rtl" / "mutants" / "noc" / "noc_dateline_no_switch.mutant"),
]


@dataclass
class Row:
    design: Design
    prop: str
    result: str
    ok: bool
    depth: str = "-"
    seconds: float = 0.0
    waves: Path = None
    required: bool = True       # counts for the exit code (the k-induction try does not)


class Failure(Exception):
    """A tool run that went wrong (not the property failing): the design fails with this line."""


# ---- sources

def int_casts(text):
    """Each int'(x) as $signed(32'(x)): the same 32-bit signed value, in a form yosys 0.23 reads."""
    out, at = [], 0
    while True:
        start = text.find("int'(", at)
        if start < 0:
            return "".join(out) + text[at:]
        if start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
            out.append(text[at:start + 5])
            at = start + 5
            continue
        depth, end = 1, start + 5
        while depth:
            if end >= len(text):
                raise Failure(f"an int'( without its closing parenthesis at offset {start}")
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        out.append(text[at:start] + "$signed(32'(" + int_casts(text[start + 5:end - 1]) + "))")
        at = end


def yosys_readable(text):
    """rtl/noc's text in the subset yosys 0.23's SystemVerilog reader takes, meaning the same:
    an int declared outside a for loop (`int forward;`, `int q, o;`) as an integer, and each
    int'(x) cast as $signed(32'(x)). The simulation reads the files as they are."""
    return re.sub(r"^(\s*)int\s+(?=\w)", r"\1integer ", int_casts(text), flags=re.M)


def sources(design, src):
    """The files yosys reads: the link's blocks, the network's files as yosys_readable copies
    under src/ (the mutant applied first), the formal top."""
    src.mkdir(parents=True, exist_ok=True)
    replaced = mutant_patch.tags(design.mutant).get("replaces", "") if design.mutant else ""
    files = [RTL / f for f in BLOCKS]
    for name in NETWORK:
        try:
            text = mutant_patch.apply(design.mutant, NOC) if name == replaced else (NOC / name).read_text()
            # The patch still changes only the lines it marks.
            problems = mutant_patch.check_marked(design.mutant, NOC) if name == replaced else []
        except mutant_patch.PatchError as e:
            raise Failure(f"the mutant no longer applies: {e}")
        if problems:
            raise Failure(f"the mutant changes more than its marked lines: {problems[0]}")
        (src / name).write_text(yosys_readable(text))
        files.append(src / name)
    return files + [FORMAL / f"{TOP}.sv"]


# ---- running the tools

def run(argv, log):
    try:
        out = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=TOOL_TIMEOUT)
    except subprocess.TimeoutExpired:
        log.write_text(f"timed out after {TOOL_TIMEOUT} s: {' '.join(map(str, argv))}\n")
        raise Failure(f"{Path(argv[0]).name} timed out after {TOOL_TIMEOUT} s (see {log})")
    log.write_text(out.stdout + out.stderr)
    return out


def build(design, work, keep):
    """The SMT2 model, keeping the signals of KEEP[keep]. It is bit-blasted (techmap, abc): z3
    answers a BMC step of it in seconds where the word-level model takes minutes."""
    tag = f"keep_{keep}"
    smt2, script = work / f"{tag}.smt2", work / f"{tag}.ys"
    params = " ".join(f"-set {k} {v}" for k, v in {"ROUTING": design.routing, "V": design.vcs, **RING}.items())
    script.write_text(
        f"read_verilog -DSYNTHESIS -sv -formal {' '.join(str(f) for f in sources(design, work / 'src'))}\n"
        f"chparam {params} {TOP}\n"
        f"hierarchy -check -top {TOP}\n"
        "proc\nflatten\nmemory_map\nopt -fast\n"
        # Asynchronous resets: in the reset cycle the registers read their reset values.
        "async2sync\nchformal -assume -early\nopt_clean\n"
        # An x (an index past an array's end) is free in every cycle, as formal.py has it.
        "setundef -anyseq\nopt -keepdc -fast\n"
        f"setattr -set keep 1 {KEEP[keep]}\n"
        "wreduce -keepdc\nopt -keepdc -fast\ntechmap\nopt -keepdc -fast\nabc -g AND\nopt_clean\n"
        "setundef -undriven -anyseq\ncheck -assert\ndffunmap\n"
        f"write_smt2 -wires {smt2}\n")
    out = run(["yosys", "-q", "-l", work / f"{tag}.yosys.log", script], work / f"{tag}.yosys.out")
    if out.returncode != 0 or not smt2.exists():
        text = out.stdout + out.stderr
        lines = [l for l in text.splitlines() if "ERROR" in l] or text.splitlines()[-1:]
        raise Failure(f"yosys failed: {lines[0].strip() if lines else '?'} (see {work / f'{tag}.yosys.log'})")
    return smt2


def smtbmc(smt2, log, steps, mode="bmc", vcd=None):
    """yosys-smtbmc over steps 0 .. steps - 1 (step 0 is the reset). No --unroll: on the
    bit-blasted model z3 is faster without it. Returns (status, failed assertion names, the last
    step checked, {cover: step reached})."""
    argv = ["yosys-smtbmc", "-s", SOLVER, "-t", steps] + {"bmc": [], "induction": ["-i"], "cover": ["-c"]}[mode]
    argv += ["--dump-vcd", vcd] if vcd else []
    out = run(argv + [smt2], log)
    text = out.stdout + out.stderr
    status = re.findall(r"Status: (\w+)", text)
    if not status:
        raise Failure(f"yosys-smtbmc gave no status (see {log})")
    failed = [name.split(".")[-1] for name in re.findall(r"Assert failed in \S+: (\S+)", text)]
    steps_seen = [int(s) for s in re.findall(r"Checking (?:assertions|cover reachability) in step (\d+)", text)]
    reached = {}
    for name, step in re.findall(r"Reached cover statement at (\S+) in step (\d+)", text):
        reached.setdefault(name.split(".")[-1], int(step))
    return status[-1], failed, (steps_seen[-1] if steps_seen else None), reached


# ---- reading a counterexample

def full_wait_cycle(vcd, step, vcs):
    """The cycle of full, waiting ring buffers at a step, as node.port.vc buffers in the order
    they wait (docs/network.md's notation), or None. Read from the top's `waits`, the property's
    own term (bit (n * V + v) * V + w: buffer (n, v) is full and waits for (n + 1, w)), so the
    cycle named is the one the assertion saw."""
    waits = read_vcd(vcd)("waits", step)
    if waits is None:
        return None
    nodes = RING["NX"]
    waits = waits.zfill(nodes * vcs * vcs)[::-1]
    edges = {}
    for n in range(nodes):
        for v in range(vcs):
            ahead = [((n + 1) % nodes, w) for w in range(vcs) if waits[(n * vcs + v) * vcs + w] == "1"]
            if ahead:
                edges[(n, v)] = ahead
    for start in sorted(edges):
        path, seen = [start], {start}
        while True:
            nxt = [b for b in edges.get(path[-1], []) if b in edges]
            if not nxt:
                break
            if nxt[0] in seen:
                cycle = path[path.index(nxt[0]):] + [nxt[0]]
                return " -> ".join(f"{n}.1.{v}" for n, v in cycle)
            path.append(nxt[0])
            seen.add(nxt[0])
    return None


# ---- the designs

def check(design, depth, out_dir):
    work = out_dir / "work" / design.name
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    start = time.perf_counter()
    rows = []
    try:
        if design.expect == "proved":
            rows += prove(design, depth, work, out_dir, start)
        else:
            rows += refute(design, depth, work, out_dir, start)
    except Failure as e:
        rows.append(Row(design, PROPERTY, f"error: {e}", False, seconds=time.perf_counter() - start))
    return rows


def counterexample(design, work, out_dir, step):
    """The waves of a failure found at step, from the model that keeps design.waves's signals, run
    to that step; copied to out_dir/<design>.vcd. Returns (the VCD, the cycle of buffers or None)."""
    smt2 = build(design, work, design.waves)
    trace = work / "trace.vcd"
    status, _, again, _ = smtbmc(smt2, work / "waves.log", step + 1, vcd=trace)
    if status != "FAILED" or again != step or not trace.exists():
        raise Failure(f"the waves run does not fail where the search did (step {step}; see {work / 'waves.log'})")
    vcd = out_dir / f"{design.name}.vcd"
    shutil.copyfile(trace, vcd)
    return vcd, full_wait_cycle(trace, step, design.vcs)


def prove(design, depth, work, out_dir, start):
    rows = []
    smt2 = build(design, work, "top")
    status, failed, last, _ = smtbmc(smt2, work / "bmc.log", depth + 1)
    seconds = time.perf_counter() - start
    if status == "PASSED" and last == depth:
        rows.append(Row(design, PROPERTY, f"proved to the bound: no such state within {depth} cycles of the reset",
                        True, f"{depth}", seconds))
    elif status == "FAILED":
        vcd, cycle = counterexample(design, work, out_dir, last)
        rows.append(Row(design, PROPERTY, f"FAILS at cycle {last - 1}: {cycle or ', '.join(failed)} (an RTL finding)",
                        False, f"{last - 1}", time.perf_counter() - start, vcd))
        return rows
    else:
        raise Failure(f"yosys-smtbmc ended {status} at step {last} of {depth} (see {work / 'bmc.log'})")
    # Not a bound where nothing fills: every node holds a full buffer waiting for the next node's.
    at = time.perf_counter()
    _, _, _, reached = smtbmc(smt2, work / "cover.log", depth + 1, mode="cover")
    if COVER in reached:
        rows.append(Row(design, f"{COVER} (cover)", f"reached at cycle {reached[COVER] - 1}: every node holds a full "
                        "ring buffer whose head waits for the next node's; only the cycle never closes", True,
                        f"{reached[COVER] - 1}", time.perf_counter() - at))
    else:
        rows.append(Row(design, f"{COVER} (cover)", f"not reached within {depth} cycles: the bound is too short to "
                        "fill the ring (see --depth)", False, f"{depth}", time.perf_counter() - at))
    # k-induction, tried and reported: it does not close without invariants the design lacks.
    at = time.perf_counter()
    status, _, _, _ = smtbmc(smt2, work / "induction.log", INDUCTION_DEPTH, mode="induction")
    if status == "PASSED":
        result = f"proved for every cycle: the induction step holds at k = {INDUCTION_DEPTH}"
    else:
        result = (f"not closed: the induction step fails at k = {INDUCTION_DEPTH}, from states no reset reaches "
                  "(docs/network-proof.md)")
    rows.append(Row(design, f"{PROPERTY}, k-induction", result, True, f"{INDUCTION_DEPTH}",
                    time.perf_counter() - at, required=False))
    return rows


def refute(design, depth, work, out_dir, start):
    """BMC on the model that keeps design.waves's signals: the search stops at the first failing
    step, a few cycles in, so it is cheaper than a second build for the waves."""
    smt2 = build(design, work, design.waves)
    trace = work / "trace.vcd"
    status, failed, last, _ = smtbmc(smt2, work / "bmc.log", depth + 1, vcd=trace)
    if status == "PASSED":
        return [Row(design, PROPERTY, f"not refuted: no such state within {depth} cycles (see --depth)", False,
                    f"{depth}", time.perf_counter() - start)]
    if PROPERTY not in failed or not trace.exists():
        raise Failure(f"BMC failed at step {last} on {', '.join(failed) or '?'}, not {PROPERTY} (see {work / 'bmc.log'})")
    vcd = out_dir / f"{design.name}.vcd"
    shutil.copyfile(trace, vcd)
    cycle = full_wait_cycle(trace, last, design.vcs)
    if cycle is None:
        return [Row(design, PROPERTY, f"refuted at cycle {last - 1}, but no cycle of full, waiting buffers is in its "
                    "observation ports", False, f"{last - 1}", time.perf_counter() - start, vcd)]
    return [Row(design, PROPERTY, f"refuted at cycle {last - 1}: {cycle}", True, f"{last - 1}",
                time.perf_counter() - start, vcd)]


# ---- the report

def table(rows):
    out = ["| design | property | result | depth | seconds |", "|---|---|---|---:|---:|"]
    for r in rows:
        out.append(f"| {r.design.name} ({r.design.title}) | {r.prop} | {r.result} | {r.depth} | {r.seconds:.1f} |")
    return out


def shown(path, base=None):
    """path relative to base (default: the current directory) when it is under it."""
    try:
        return str(path.relative_to(base or Path.cwd()))
    except ValueError:
        return str(path)


def main():
    parser = argparse.ArgumentParser(description="The network's deadlock check (docs/network-proof.md)")
    parser.add_argument("--build", default="build", help="the build directory (outputs go to BUILD/noc_formal)")
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH,
                        help=f"cycles after the reset the BMC runs cover (1..{MAX_DEPTH}, default {DEFAULT_DEPTH})")

    def one_line(message):
        print(f"noc_formal.py: {message} (see scripts/noc_formal.py --help)", file=sys.stderr)
        sys.exit(2)
    parser.error = one_line
    args = parser.parse_args()
    if not 1 <= args.depth <= MAX_DEPTH:
        one_line(f"--depth {args.depth} is out of range: allowed 1..{MAX_DEPTH}")
    missing = [t for t in ("yosys", "yosys-smtbmc", SOLVER) if not shutil.which(t)]
    if missing:
        print(f"noc_formal.py: {', '.join(missing)} not found: scripts/install-deps.sh installs them", file=sys.stderr)
        return 3

    out_dir = Path(args.build).resolve() / "noc_formal"
    out_dir.mkdir(parents=True, exist_ok=True)
    # One run at a time owns the folder (its work folders are replaced): a second one waits.
    lock_file = open(out_dir / ".lock", "w")
    try:
        fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"noc_formal: another run holds {out_dir}; waiting for it", flush=True)
        fcntl.flock(lock_file, fcntl.LOCK_EX)
    if (out_dir / "work").exists():
        shutil.rmtree(out_dir / "work")
    for stale in out_dir.glob("*.vcd"):
        stale.unlink()

    print(f"noc_formal: {len(DESIGNS)} designs, one-way ring of {RING['NX']} (L = {RING['L']}, B = {RING['B']}), "
          f"BMC to {args.depth} cycles, yosys + yosys-smtbmc ({SOLVER})", flush=True)
    started = time.perf_counter()
    rows = []
    for design in DESIGNS:
        mine = check(design, args.depth, out_dir)
        rows += mine
        for r in mine:
            verdict = "ok  " if r.ok else "FAIL"
            print(f"{verdict} {design.name}: {r.prop}: {r.result} ({r.seconds:.1f} s)"
                  + (f"\n     waves: gtkwave {shown(r.waves)}" if r.waves else ""), flush=True)
    seconds = time.perf_counter() - started
    failures = [r for r in rows if r.required and not r.ok]
    line = (f"{sum(r.ok for r in rows if r.required)} of {sum(r.required for r in rows)} checks as expected; "
            f"{len(failures)} failed; {seconds:.1f} s")
    text = ["# creditloop network deadlock check", "",
            f"`scripts/noc_formal.py --depth {args.depth}`: {line}", ""] + table(rows)
    waves = [r for r in rows if r.waves]
    if waves:
        text += ["", "Counterexamples, from the repository's root (yosys-smtbmc's traces: step s at time 10 s; step 0 "
                 "is the reset, so step s is cycle s - 1):", ""]
        text += [f"- {r.design.name}: `gtkwave {shown(r.waves, ROOT)}`" for r in waves]
    (out_dir / "noc_formal.md").write_text("\n".join(text) + "\n")
    print()
    print("\n".join(table(rows)))
    print()
    for r in failures:
        print(f"FAIL {r.design.name}: {r.prop}: {r.result}")
    if failures:
        print(f"rerun: python3 scripts/noc_formal.py --build {shown(Path(args.build).resolve())} --depth {args.depth}")
    print(f"noc_formal: {line}")
    print(f"table: {out_dir / 'noc_formal.md'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
