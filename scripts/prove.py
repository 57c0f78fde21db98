#!/usr/bin/env python3
"""creditloop prove's engine: the proof of make formal (scripts/formal.py) on a design of the user's.

`creditloop prove --counter MAP` and `--link MAP` read the map, preprocess the RTL and generate the
wrapper or the testbench top exactly as `creditloop run` does, then call this script with a spec
(JSON) naming every file yosys reads and the grid. For each grid point it runs k-induction with
yosys, yosys-smtbmc and z3 (formal.py's build, prove and counterexample), and says one of:

  proved     the properties hold in every cycle of every input sequence from reset: the base
             case (BMC from reset to depth k) and the induction step (k cycles where they hold,
             from any state, are never followed by one where they fail) both pass at some k.
  refuted    BMC from reset finds a cycle where a property fails: a bug, with its waves and the
             inputs of every cycle, which `creditloop run --replay` feeds to the simulation.
  unknown    no counterexample up to depth k, and the induction step fails at every depth up to
             k: the properties may hold, but proving them needs an invariant of the design that
             k-induction does not find by itself (a register of yours whose value the link's
             counts do not pin down); a larger --max-k may close it.

Each refuted point's inputs go to <out>/<point>.replay, and the replay is run through the
simulation harness on the verilated RTL, in lockstep with the golden model: the point says
whether the simulation shows the same check failing at the same cycle.

  scripts/prove.py --spec SPEC.json

Writes under the spec's out folder: proof.md (the table), results.json, the JUnit file the spec
names, <point>.vcd/.gtkw/.replay for each counterexample, work/<point>/ (yosys scripts, SMT2,
logs). Exit 0 every point proved, 1 a property refuted (or a replay that does not agree), 4 none
refuted but some unknown, 2 RTL yosys cannot read (one line naming your file and line), 3 a tool
missing. Standard library only.
"""
import argparse
import concurrent.futures
import json
import re
import shutil
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from dataclasses import fields
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import formal  # noqa: E402  (the proof's machinery: build, prove, counterexample, waves)

LINK_TOP = "observed_link_formal"
# The top's inputs in a counterexample's trace, and the replay column each becomes.
REPLAY_COLUMNS = ["want_send", "payload", "drain", "flush", "return_busy", "fault_drop", "reset_tx", "reset_rx"]
TRACE_INPUTS = {"have": "want_send", "want_send": "want_send", "tag": "payload", "tx_payload": "payload",
                "drain": "drain", "flush": "flush", "return_busy": "return_busy", "fault_drop": "fault_drop"}
CHECKS = {p: check for p, (_, check, _) in formal.PROPERTIES.items()}


def shown(path):
    """A path as the user gives it: relative to the current folder when it is under it."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def say(message, code):
    print(f"creditloop prove: {message}", file=sys.stderr)
    sys.exit(code)


# ---- the design as yosys reads it

# Constructs yosys 0.23's SystemVerilog reader rejects, named in the one error line when the line
# yosys stops at holds one.
CONSTRUCTS = {
    "import": "a package import", "package": "a package", "interface": "an interface", "modport": "a modport",
    "class": "a class", "foreach": "a foreach loop", "union": "a union", "let": "a let declaration",
    "string": "a string variable", "return": "a return statement", "unique0": "unique0",
    "final": "a final block", "program": "a program block", "checker": "a checker", "sequence": "a sequence",
    "property": "a concurrent property", "disable": "disable iff",
}
COPIES = {}   # a readable copy's path -> the user's file it was made from


def closing(text, open_at):
    """The index just past the parenthesis that closes the one at open_at (or len(text))."""
    depth, i = 0, open_at
    while i < len(text):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
        if depth == 0:
            return i
    return i


def without_action_blocks(text):
    """Immediate assertions as yosys's reader takes them: `assert (x) else $error(...);` loses
    its action block (the message), keeping every line where it was, so the design's own
    assertions are proved too and yosys's messages keep their line numbers."""
    out, i = [], 0
    pattern = re.compile(r"\b(assert|assume|cover)\s*\(")
    while True:
        m = pattern.search(text, i)
        if not m:
            return "".join(out) + text[i:]
        end = closing(text, m.end() - 1)
        action = re.match(r"\s*else\s*\$\w+\s*\(", text[end:])
        if not action:
            out.append(text[i:end])
            i = end
            continue
        stop = closing(text, end + action.end() - 1)
        out.append(text[i:end] + "\n" * text[end:stop].count("\n"))
        i = stop


def assigned_returns(text):
    """yosys 0.23 has no `return`: a function whose one return is its last statement assigns its
    name instead (`return x;` is `name = x;` there). Any other return is left for yosys to name."""
    def fix(m):
        body = m.group(0)
        name = m.group("name")
        returns = list(re.finditer(r"\breturn\b", body))
        last = re.search(r"\breturn\s+([^;]+);\s*(end\s*)?endfunction$", body, re.S)
        if len(returns) != 1 or not last:
            return body
        return body[:last.start()] + f"{name} = {last.group(1)};" + body[last.end(1) + 1:]
    return re.sub(r"\bfunction\b[^;(]*?\b(?P<name>\w+)\s*(\(|;).*?\bendfunction\b", fix, text, flags=re.S)


def readable_copies(files, out_dir):
    """The user's files (those not of creditloop's rtl/ or formal/) without action blocks, under out/src."""
    copies = []
    for f in files:
        f = Path(f)
        if formal.RTL in f.parents or formal.FORMAL in f.parents:
            copies.append(f)
            continue
        target = out_dir / "src" / f.name
        target.parent.mkdir(parents=True, exist_ok=True)
        text = assigned_returns(without_action_blocks(f.read_text()))
        if f.name == "credit_link_observed.sv":
            # A probe reads a register inside your receiver by a hierarchical name, which yosys
            # cannot resolve: the proof keeps the count its ports imply (PDR relates the two).
            text = re.sub(r"assign occupancy = CW'\(u_receiver\.[\w.]+\);", "assign occupancy = occupancy_q;", text)
            text = re.sub(r"assign pending_returns = CW'\(u_receiver\.[\w.]+\);", "assign pending_returns = held_q;", text)
        target.write_text(text)
        COPIES[str(target.resolve())] = str(f)
        copies.append(target)
    return copies


def unreadable(files, work, top):
    """One line naming what yosys cannot read in the user's files, or None. The files carry
    `line directives from the map's preprocessing, so yosys names the user's file and line."""
    work.mkdir(parents=True, exist_ok=True)
    script = work / "read.ys"
    script.write_text(f"read_verilog -DSYNTHESIS -sv -formal -I{formal.RTL / 'observe'} "
                      f"{' '.join(str(f) for f in files)}\nhierarchy -check -top {top}\nproc\n")
    out = subprocess.run(["yosys", "-q", "-l", str(work / "read.log"), str(script)], capture_output=True, text=True)
    if out.returncode == 0:
        return None
    text = out.stdout + out.stderr
    m = re.search(r"^(\S+?):(\d+): ERROR: (.*)$", text, re.M)
    if not m:
        lines = [l for l in text.splitlines() if "ERROR" in l] or text.splitlines()[-1:] or ["?"]
        return f"yosys cannot read the design: {lines[0].strip()} (see {work / 'read.log'})"
    where, line, what = m.group(1), int(m.group(2)), m.group(3)
    original = COPIES.get(str(Path(where).resolve()), where)
    try:
        text_line = Path(original).read_text().splitlines()[line - 1].strip()
    except (OSError, IndexError):
        text_line = ""
    words = re.findall(r"[\w$]+", text_line)
    construct = next((w for w in words if w in CONSTRUCTS), None)
    said = (f"'{construct}' ({CONSTRUCTS[construct]})" if construct else
            f"{what.rstrip('.')}" + (f" in `{text_line[:70]}`" if text_line else ""))
    if not construct and re.search(r"\]\s*\[", text_line.split("//")[0]):
        said = ("a packed array of two dimensions ([..][..]): yosys 0.23 takes one packed dimension, so declare it "
                f"flat ([N*W-1:0]) and slice it ([c*W +: W]), in `{text_line[:70]}`")
    return (f"yosys cannot read your RTL: {shown(original)}:{line}: {said}; the proof reads what docs/prove.md lists "
            f"(creditloop run, on Verilator, takes it): rewrite that line, or check this design by simulation")


# ---- the counterexample's inputs, for the simulation

def write_rows(raw, target, item, cycle, columns, fill):
    """A replay file (tb/harness/replay.h) of cycles 0..cycle of a counterexample's trace: `fill`
    sets a row's columns from the trace's top inputs at that step (value(name) -> int). A reset
    of an end held in formal cycle t (its registers at their reset values through t) is the
    harness's reset at the edges ending t - 1 and t."""
    at = formal.read_vcd(raw)

    def value_at(step):
        return lambda name: int((at(name, step) or "0").replace("x", "0").replace("z", "0"), 2)
    rows = []
    for step in range(1, cycle + 2):
        value = value_at(step)
        row = {col: 0 for col in columns}
        fill(row, value)
        rows.append(row)
        for end, column in (("rst_tx_n", "reset_tx"), ("rst_rx_n", "reset_rx")):
            if at(end, step) == "0":
                row[column] = 1
                if len(rows) > 1:
                    rows[-2][column] = 1
    lines = [f"# creditloop replay of {item.name}: the inputs of the proof's counterexample, cycle 0 is the",
             f"# first after the reset; {item.config.describe()}", "cycle " + " ".join(columns)]
    lines += [f"{t} " + " ".join(str(r[col]) for col in columns) for t, r in enumerate(rows)]
    target.write_text("\n".join(lines) + "\n")


def write_replay(raw, target, item, cycle):
    """The one-channel form: the formal top's have (or want_send), tag (or tx_payload), drain,
    flush, return_busy and fault_drop."""
    def fill(row, value):
        for name, column in TRACE_INPUTS.items():
            if name in ("have", "want_send", "drain", "flush", "return_busy", "fault_drop"):
                row[column] |= value(name) & 1
            else:
                row[column] |= value(name)
    write_rows(raw, target, item, cycle, REPLAY_COLUMNS, fill)


def write_channel_replay(raw, target, item, cycle):
    """The multi-channel form: have, drain, flush, return_busy and fault_drop as masks, bytes.C
    and tag.C per channel. A point without multi-credit packets gives each packet one byte (one
    credit: the simulation's link charges ceil(bytes / unit))."""
    c = item.config
    columns = ["have", "drain", "flush", "return_busy", "fault_drop", "reset_tx", "reset_rx"]
    columns += [f"{kind}.{ch}" for ch in range(c.NCH) for kind in ("bytes", "tag")]

    def fill(row, value):
        for name in ("have", "drain", "flush", "return_busy", "fault_drop"):
            row[name] = value(name)
        for ch in range(c.NCH):
            row[f"bytes.{ch}"] = (value("bytes") >> (16 * ch)) & 0xFFFF if c.MULTI_CREDIT else 1
            # The simulation's data check reads a tag's channel from bits 27:24 (XOR bits 31:28).
            row[f"tag.{ch}"] = ch << 24 | (value("tag") >> (c.W * ch)) & ((1 << c.W) - 1)
    write_rows(raw, target, item, cycle, columns, fill)


def replay(argv, log):
    """Runs the replay; the violations it reports, [(cycle, check)], or a Failure."""
    out = subprocess.run([str(a) for a in argv] + ["--json"], capture_output=True, text=True, timeout=1800)
    log.write_text(" ".join(map(str, argv)) + "\n" + out.stdout + out.stderr)
    try:
        report = json.loads(out.stdout)
    except json.JSONDecodeError:
        tail = (out.stderr.strip().splitlines() or ["no output"])[-1]
        raise formal.Failure(f"the replay did not run: {tail} (see {log})")
    results = report.get("results", [report])
    return [(v["cycle"], v["check"]) for r in results for v in r.get("violations", [])]


# ---- PDR, when k-induction does not close

PDR_TIMEOUT = 600


def pdr(item, work):
    """Property-directed reachability (abc's pdr, shipped with yosys) on the same model: it looks
    for an inductive invariant itself (clauses over the registers), where k-induction needs one
    the design's registers do not give. ("proved", clauses), ("cex", frame) or ("unknown", why)."""
    script = formal.yosys_script(item, None, True, False, work / "unused.smt2")
    aig, aim = work / "pdr.aig", work / "pdr.aim"
    script = script.replace("flatten\n", "flatten\nchformal -remove -cover\n", 1)
    script = script[:script.index("write_smt2")] + (
        "setattr -unset keep\ndelete -output\nopt -full\ntechmap\nopt -fast\ndffunmap\nabc -g AND -fast\nopt_clean\n"
        f"write_aiger -I -B -zinit -map {aim} {aig}\n")
    (work / "pdr.ys").write_text(script)
    out = formal.run(["yosys", "-q", "-l", work / "pdr.yosys.log", work / "pdr.ys"], work / "pdr.yosys.out")
    if out.returncode != 0 or not aig.exists():
        return "unknown", f"yosys could not write the AIG (see {work / 'pdr.yosys.log'})"
    try:
        out = formal.run(["yosys-abc", "-c", f"read_aiger {aig}; fold; strash; pdr"], work / "pdr.log", timeout=PDR_TIMEOUT)
    except formal.Failure:
        return "unknown", f"PDR found nothing in {PDR_TIMEOUT} s"
    text = out.stdout + out.stderr
    if "Property proved" in text:
        clauses = re.search(r"invariant with (\d+) clauses", text)
        return "proved", int(clauses.group(1)) if clauses else 0
    frame = re.search(r"asserted in frame (\d+)", text)
    if frame:
        return "cex", int(frame.group(1))
    return "unknown", f"PDR gave no verdict (see {work / 'pdr.log'})"


# ---- one grid point

def check_point(item, spec, out_dir):
    work = out_dir / "work" / item.name
    if work.exists():
        shutil.rmtree(work)
    start = time.perf_counter()
    res = {"point": item.name, "parameters": item.config.describe(), "result": "error", "k": None,
           "property": formal.ALL_PROPERTIES, "cycle": None, "waves": [], "replay": None, "rerun": None, "note": ""}
    try:
        verdict, depth, failed = formal.prove(item, work, None)
        res["k"] = depth
        if verdict == "proved":
            res["result"] = "proved"
        elif verdict == "induction":
            # The induction step needs an invariant of the design's own registers: PDR looks for one.
            how, value = pdr(item, work)
            if how == "proved":
                res["result"], res["k"] = "proved", "PDR"
                res["note"] = (f"by PDR (an inductive invariant of {value} clauses over the registers): "
                               f"k-induction does not close up to k = {depth}, the design's registers need an invariant")
            elif how == "cex":
                depth = value + 1
            else:
                res["result"] = "unknown"
                res["note"] = (f"no counterexample up to depth {depth}, and the induction step fails up to depth {depth} "
                               f"({', '.join(failed)}): it needs an invariant of your design; {value}; try a larger --max-k")
        if verdict == "base" or (verdict == "induction" and res["result"] == "error"):
            cex = formal.counterexample(item, work, None, depth + 1, out_dir, spec["creditloop"]) or \
                formal.counterexample(item, work, None, depth + 1, out_dir, spec["creditloop"], invariants=True)
            if cex is None:
                raise formal.Failure(f"the base case fails at step {depth}, but no BMC run does again")
            cycle, failed, waves = cex
            props = [p for p in formal.PROPERTIES if p in failed]
            res.update(result="refuted", cycle=cycle, property=formal.describe_cex(failed),
                       waves=[str(w) for w in waves])
            target = out_dir / f"{item.name}.replay"
            multi = item.config.multi()
            (write_channel_replay if multi else write_replay)(work / "trace.vcd", target, item, cycle)
            argv = spec["run"] + item.run_options + ["--replay", target]
            res["replay"] = str(target)
            res["rerun"] = " ".join(map(str, argv[:-1] + [shown(target)]))
            res["check"] = (formal.CHANNEL_CHECKS if multi else CHECKS)[props[0]] if props else failed[0]
            if spec.get("replay", True) and props:
                seen = replay(argv, work / "replay.log")
                at = sorted(c for c, check in seen if check == res["check"])
                if at and at[0] == cycle:
                    res["note"] = f"replayed in simulation: {res['check']} at cycle {cycle}, the same"
                else:
                    res["result"] = "replay differs"
                    res["note"] = (f"the simulation of the same inputs shows {res['check']} at "
                                   f"{'cycle ' + str(at[0]) if at else 'no cycle'}, the proof at cycle {cycle} "
                                   f"(violations: {seen[:4]}; see {work / 'replay.log'})")
    except formal.Failure as e:
        res["note"] = str(e)
    res["seconds"] = round(time.perf_counter() - start, 1)
    return res


def make_items(spec, out_dir):
    names = {f.name for f in fields(formal.Config)}
    items = []
    for point in spec["points"]:
        config = formal.Config(**{k: (tuple(v) if isinstance(v, list) else v) for k, v in point.items() if k in names})
        files = readable_copies(spec["files"], out_dir)
        if spec["kind"] == "counter":
            link = formal.bound_link(out_dir)
            files += [link, formal.RTL / "observe" / "credit_link_probe.sv"] + sorted(formal.FORMAL.glob("*.sv"))
            item = formal.Item(config.key(), "grid", config, files=tuple(files))
        else:
            files += [formal.FORMAL / "maps" / f"{LINK_TOP}.sv"]
            params = f"-set L {config.L} -set B {config.B} -set W {config.W} -set ON_ARRIVAL {point.get('ON_ARRIVAL', 0)}"
            item = formal.Item(config.key(), "grid", config, files=tuple(files), top=LINK_TOP, checker=LINK_TOP,
                               scope=f"{LINK_TOP}.dut", top_parameters=params)
        item.max_k = spec.get("max_k") or 0
        # The same configuration as creditloop run's options (a link's round trip comes from its map).
        opts = formal.channel_run_options(config) if config.multi() else config.gtkw_options()
        item.run_options = opts if spec["kind"] == "counter" else ["--L", str(config.L), "--B", str(config.B),
                                                                    "--W", str(config.W)]
        items.append(item)
    return items


# ---- the outputs

def junit(results, spec, seconds, path):
    failures = sum(r["result"] not in ("proved", "unknown") for r in results)
    suite = ET.Element("testsuite", name=f"prove {spec['design']}", tests=str(len(results)), failures=str(failures),
                       errors="0", skipped=str(sum(r["result"] == "unknown" for r in results)), time=f"{seconds:.1f}")
    for r in results:
        case = ET.SubElement(suite, "testcase", classname="prove", name=r["point"], time=f"{r['seconds']:.1f}")
        props = ET.SubElement(case, "properties")
        for key, value in (("configuration", r["parameters"]), ("property", r["property"]), ("verdict", r["result"]),
                           ("k", r["k"]), ("first_violation", f"cycle {r['cycle']}: {r.get('check', '')}" if r["cycle"] is not None else None),
                           ("rerun", r["rerun"]), ("waves", r["waves"][0] if r["waves"] else None)):
            if value is not None:
                ET.SubElement(props, "property", name=key, value=str(value))
        if r["result"] == "unknown":
            ET.SubElement(case, "skipped", message=f"unknown up to k = {r['k']}: {r['note']}")
        elif r["result"] != "proved":
            what = f"{r['property']} fails at cycle {r['cycle']}" if r["cycle"] is not None else r["result"]
            ET.SubElement(case, "failure", message=what).text = "\n".join(x for x in (r["note"], r["rerun"]) if x)
    tree = ET.ElementTree(suite)
    ET.indent(tree)
    tmp = Path(str(path) + ".tmp")
    tree.write(tmp, encoding="utf-8", xml_declaration=True)
    tmp.replace(path)


def table(results):
    rows = ["| configuration | property | result | k | seconds |", "|---|---|---|---:|---:|"]
    for r in results:
        verdict = r["result"] + (f" at cycle {r['cycle']}" if r["cycle"] is not None else "")
        rows.append(f"| {r['point']} | {r['property']} | {verdict} | {r['k'] if r['k'] is not None else '-'} | "
                    f"{r['seconds']:.1f} |")
    return rows


def main():
    parser = argparse.ArgumentParser(description="creditloop prove's engine (docs/prove.md)")
    parser.add_argument("--spec", required=True, help="the spec creditloop prove writes")
    args = parser.parse_args()
    spec = json.loads(Path(args.spec).read_text())
    missing = [t for t in ("yosys", "yosys-smtbmc", formal.SOLVER) if not shutil.which(t)]
    if missing:
        say(f"{', '.join(missing)} not found: install yosys and z3 (scripts/install-deps.sh, or apt-get install yosys z3)", 3)
    out_dir = Path(spec["out"]).resolve()
    for stale in [out_dir / "work", out_dir / "src"]:
        if stale.exists():
            shutil.rmtree(stale)
    for f in list(out_dir.glob("*.vcd")) + list(out_dir.glob("*.gtkw")) + list(out_dir.glob("*.replay")):
        f.unlink()
    items = make_items(spec, out_dir)
    problem = unreadable(items[0].files, out_dir / "work" / "read", items[0].top)
    if problem:
        # Nothing of this run is left: the spec, the copies and the work folder go, and the
        # output folder too when it held nothing else.
        for stale in [out_dir / "work", out_dir / "src"]:
            shutil.rmtree(stale, ignore_errors=True)
        Path(args.spec).unlink(missing_ok=True)
        if not any(out_dir.iterdir()):
            out_dir.rmdir()
        say(problem, 2)

    print(f"creditloop prove: {spec['design']}, {len(items)} configuration{'s' if len(items) != 1 else ''}: "
          f"{formal.ALL_PROPERTIES}, by k-induction (yosys + yosys-smtbmc, {formal.SOLVER}), {spec['jobs']} jobs",
          flush=True)
    start = time.perf_counter()
    results, lock, done = [None] * len(items), threading.Lock(), [0]
    width = len(str(len(items)))

    def one(index):
        res = check_point(items[index], spec, out_dir)
        with lock:
            done[0] += 1
            results[index] = res
            verdict = res["result"] + (f" at cycle {res['cycle']} ({res['property']})" if res["cycle"] is not None else "")
            k = f", k = {res['k']}" if res["k"] is not None and res["cycle"] is None else ""
            print(f"[{done[0]:>{width}}/{len(items)}] {res['point']}: {verdict}{k} ({res['seconds']:.1f} s)"
                  + (f"\n      {res['note']}" if res["note"] else ""), flush=True)
    order = sorted(range(len(items)), key=lambda i: -formal.expected_cost(items[i]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=spec["jobs"]) as pool:
        list(pool.map(one, order))
    seconds = time.perf_counter() - start

    rows = table(results)
    (out_dir / "proof.md").write_text("\n".join([f"# creditloop prove: {spec['design']}", ""] + rows) + "\n")
    (out_dir / "results.json").write_text(json.dumps({"design": spec["design"], "results": results}, indent=1) + "\n")
    if spec.get("junit"):
        junit(results, spec, seconds, Path(spec["junit"]))
    print()
    print("\n".join(rows))
    print()
    counts = {k: sum(r["result"] == k for r in results) for k in ("proved", "refuted", "unknown")}
    other = len(results) - sum(counts.values())
    for r in results:
        if r["cycle"] is not None:
            print(f"REFUTED {r['point']}: {r['property']} fails at cycle {r['cycle']}")
            if r["waves"]:
                print(f"  waves:  {formal.gtkwave([Path(w) for w in r['waves']])}")
            print(f"  replay: {r['rerun']}")
        elif r["result"] not in ("proved", "unknown"):
            print(f"ERROR {r['point']}: {r['note']}")
    print(f"creditloop prove: {counts['proved']} proved, {counts['refuted']} refuted, {counts['unknown']} unknown"
          f"{f', {other} errors' if other else ''} of {len(results)} in {seconds:.1f} s (table: {shown(out_dir / 'proof.md')}"
          f"{', JUnit: ' + spec['junit'] if spec.get('junit') else ''})")
    if counts["refuted"] or other:
        return 1
    return 4 if counts["unknown"] else 0


if __name__ == "__main__":
    sys.exit(main())
