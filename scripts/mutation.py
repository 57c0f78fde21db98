#!/usr/bin/env python3
"""make mutation: generated mutants of credit_link and a mutation score.

For each stimulus set of the regression's mutation stimulus (`creditloop mutation --cases`, the
sets `make mutants` uses), yosys elaborates credit_link (rtl/*.sv, SYNTHESIS defined) at that
set's parameters, flattens it and asks its `mutate` pass for mutations (seeded: the same seed
gives the same mutants). All mutations of one set go into one netlist, each switched on by the
plusarg +creditloop_mutant=<id> (mutate -ctrl), so one verilated build holds them all. Every
mutant then runs against its own set's stimulus with every check of the testbench (creditloop
mutation --run). A mutant no check catches is classified by yosys:
  equivalent     proved: yosys's equiv passes show by induction that every signal the checks
                 observe (the functional outputs and the probe's inputs) is the same as in
                 the unmutated design, in every reachable state
  stimulus gap   a difference the checks can see exists: yosys finds an input sequence from
                 reset on which an observed signal differs (its length and which signal are
                 printed, and the VCD written); the stimulus must improve
  bounded equivalent
                 neither: no observed signal differs within the bound (twice the round trip
                 and more) after a reset, and induction fails in states no reset reaches (a
                 carry out of a count that cannot exceed B while credits are conserved, say)
The score is caught / (mutants - equivalent), bounded equivalents counted as not caught. Exit 0
when no survivor is a stimulus gap, 1 otherwise, 2 on bad options, 3 when the flow itself fails.

  python3 scripts/mutation.py [--build build] [--count 120] [--seed 1] [--jobs 2] [--ci]
"""
import argparse
import concurrent.futures
import fcntl
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CTRL_BITS = 16
def link_signals(*kinds):
    """The credit_link nets of rtl/observe/link_signals.svh of these kinds, in its order: the list
    the probe and the proof's checker read by name (their ports and binds are made from it)."""
    with open(os.path.join(ROOT, "rtl", "observe", "link_signals.svh")) as f:
        entries = re.findall(r"^`CL_(\w+)\((\w+),", f.read(), re.M)
    return [name for kind, name in entries if kind in kinds]


# The credit_link signals the testbench observes: its functional outputs and what the probe
# computes the observation from. A mutant that changes none of them cannot be caught by any check,
# whatever the stimulus. The hooks (fault_dropped, fault_added, owes) tell the probe's own
# assertions when to stand aside; they reach no observation, so they are kept but not compared.
OBSERVED = link_signals("PROBE_NET", "PROOF_NET")
FAULT_HOOKS = link_signals("PROBE_HOOK")
BOUND = 16   # cycles after reset searched for a difference when no proof is found
# yosys's time per survivor of a multi-channel netlist: its equivalence passes, then the miter,
# which reaches millions of clauses within a few cycles; one that runs out of time says how far it
# searched. The one-channel netlists have no limit: their verdicts never depend on the machine.
EQUIV_SECONDS = 120
MITER_SECONDS = 90


def fail(message, code=2):
    print("mutation.py: " + message, file=sys.stderr)
    sys.exit(code)


def run(argv, cwd=None, log=None, timeout=None):
    """(exit code, output); the code is None when the tool ran out of `timeout` seconds (killed)."""
    try:
        result = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        out = expired.stdout.decode() if isinstance(expired.stdout, bytes) else (expired.stdout or "")
        return None, out
    if log:
        with open(log, "w") as f:
            f.write(result.stdout)
    return result.returncode, result.stdout


def rtl_files():
    names = sorted(n for n in os.listdir(os.path.join(ROOT, "rtl")) if n.endswith(".sv"))
    return [os.path.join(ROOT, "rtl", n) for n in names]


def constant(value):
    """A parameter's value as yosys and Verilog read it: a number, or a sized constant as given."""
    return "%d" % value if isinstance(value, int) else value


def parameter_header():
    """credit_link's parameter list as rtl/credit_link.sv declares it (types and defaults): the
    netlist keeps it, so every parameter a testbench top or the probe's bind names exists."""
    with open(os.path.join(ROOT, "rtl", "credit_link.sv")) as f:
        text = f.read()
    header = re.search(r"\nmodule credit_link #\((.*?)\n\) \(", text, re.S)
    if not header:
        fail("rtl/credit_link.sv has no 'module credit_link #(' ... ') (' header to keep", 3)
    return "\n".join(line for line in header.group(1).split("\n") if not line.strip().startswith("//"))


def folder(name):
    """A stimulus set's name as one folder name ("channels/wide" -> "channels-wide")."""
    return name.replace("/", "-")


def elaborate(case, workdir):  # case: a name and its parameters
    """design.il: credit_link at the case's parameters, flattened, processes and memories mapped."""
    chparams = " ".join("-chparam %s %s" % (k, constant(v)) for k, v in case["parameters"].items())
    script = "\n".join([
        "read_verilog -sv -DSYNTHESIS " + " ".join(rtl_files()),
        "hierarchy -top credit_link " + chparams,
        # The probe binds to these by name after yosys is done: keep them, under their names.
        "setattr -set keep 1 " + " ".join("credit_link/w:" + s for s in OBSERVED + FAULT_HOOKS),
        "flatten", "proc", "memory", "opt_clean",
        "write_rtlil design.il", ""])
    with open(os.path.join(workdir, "elaborate.ys"), "w") as f:
        f.write(script)
    code, out = run(["yosys", "-q", "elaborate.ys"], cwd=workdir, log=os.path.join(workdir, "elaborate.log"))
    if code != 0:
        fail("yosys could not elaborate credit_link for %s: see %s" % (case["name"], os.path.join(workdir, "elaborate.log")), 3)


def list_mutations(workdir, count, seed):
    code, _ = run(["yosys", "-q", "-p", "read_rtlil design.il; mutate -list %d -seed %d -o mutations.ys" % (count, seed)],
                  cwd=workdir, log=os.path.join(workdir, "list.log"))
    if code != 0:
        fail("yosys mutate -list failed: see " + os.path.join(workdir, "list.log"), 3)
    with open(os.path.join(workdir, "mutations.ys")) as f:
        return [line.strip() for line in f if line.startswith("mutate ") and "-mode none" not in line]


def write_netlist(case, workdir, mutations, outdir):
    """outdir/credit_link.sv: every mutation behind +creditloop_mutant=<id>, credit_link's header kept."""
    lines = ["read_rtlil design.il"]
    for i, m in enumerate(mutations, 1):
        lines.append(m.replace("mutate ", "mutate -ctrl mutsel %d %d " % (CTRL_BITS, i), 1))
    lines += ["opt_clean", "write_verilog -noattr netlist.v", ""]
    with open(os.path.join(workdir, "netlist.ys"), "w") as f:
        f.write("\n".join(lines))
    code, _ = run(["yosys", "-q", "netlist.ys"], cwd=workdir, log=os.path.join(workdir, "netlist.log"))
    if code != 0:
        fail("yosys could not write the mutated netlist of %s: see %s" % (case["name"], os.path.join(workdir, "netlist.log")), 3)
    with open(os.path.join(workdir, "netlist.v")) as f:
        text = f.read()
    header = re.search(r"module credit_link\((.*?)\);", text, re.S)
    if not header or not re.search(r"\n\s*input \[%d:0\] mutsel;" % (CTRL_BITS - 1), text):
        fail("the mutated netlist of %s has no credit_link with a mutsel input: see %s" % (case["name"], workdir), 3)
    ports = [p.strip() for p in header.group(1).split(",") if p.strip() != "mutsel"]
    params = case["parameters"]
    # credit_link's own parameter list, so that the instance's overrides and the probe's bind
    # (NCH, LANE_POOL, POOL_B, ...) find every name; an override that is not the elaborated
    # value stops the elaboration.
    param_text = parameter_header().strip()
    checks = "\n".join("  if (%s != %s) $error(\"credit_link: this netlist was elaborated with %s = %s (scripts/mutation.py)\");"
                       % (k, constant(v), k, constant(v)) for k, v in params.items())
    select = ("  reg [%d:0] mutsel;\n"
              "  initial begin\n"
              "    if (!$value$plusargs(\"creditloop_mutant=%%d\", mutsel)) mutsel = %d'd0;\n"
              "  end\n" % (CTRL_BITS - 1, CTRL_BITS))
    text = text.replace(header.group(0), "module credit_link #(\n  %s\n) (%s);\n%s\n" % (param_text, ", ".join(ports), checks), 1)
    text = re.sub(r"\n\s*input \[%d:0\] mutsel;" % (CTRL_BITS - 1), "\n" + select, text, count=1)
    banner = ("// Generated by scripts/mutation.py: credit_link elaborated by yosys for the mutation stimulus set\n"
              "// '%s', with %d mutations from yosys's mutate pass, mutant <id> switched on by the plusarg\n"
              "// +creditloop_mutant=<id> (0: none). Not for editing.\n"
              "/* verilator lint_off UNUSEDPARAM */\n/* verilator lint_off UNUSEDSIGNAL */\n/* verilator lint_off WIDTH */\n"
              % (case["name"], len(mutations)))
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "credit_link.sv"), "w") as f:
        f.write(banner + text)


def first_difference(vcd):
    """The observed signals that differ first between gold_* and gate_* in a yosys SAT model, and
    the time step (1: the reset)."""
    ids, values, step, changed = {}, {}, 0, []
    with open(vcd) as f:
        text = f.read()
    for m in re.finditer(r"\$var \S+ \d+ (\S+) \\?(\S+) \$end", text):
        ids[m.group(1)] = m.group(2)

    def compare():
        return sorted(n[5:] for n in values if n.startswith("gold_") and values.get("gate_" + n[5:]) not in (None, values[n]))

    for line in text.splitlines():
        if line.startswith("#"):
            if values and not changed:
                changed = compare()
                if changed:
                    return changed, step
            step = max(1, int(line[1:])) if line[1:].isdigit() else step   # yosys dumps step n at #n, step 1 at #0
        elif line.startswith("b") and " " in line:
            value, ident = line[1:].split()
            if ident in ids:
                values[ids[ident]] = value.lstrip("0") or "0"
        elif len(line) > 1 and line[0] in "01xz" and line[1:] in ids:
            values[ids[line[1:]]] = line[0]
    return compare(), step


def equivalence(workdir, mutation, mid, parameters, limited):  # parameters: the netlist's; limited: in time
    """('equivalent', how), ('gap', cycle, signals, vcd), ('bounded',) or ('error', log):
    the mutant against the unmutated design, on the signals the checks observe, in the
    environment the testbench gives a run that must pass: both ends reset together (a one-sided
    reset is a run that must fail) and no injected faults unless the link recovers from them."""
    recovery = parameters.get("RECOVERY", 0) == 1
    pools = parameters.get("NPOOL", 1)   # fault_drop has a bit per pool
    gate_mutation = mutation.replace("-module credit_link", "-module gate", 1)
    environment = []
    for copy in ("gold", "gate"):
        tied = [("rst_rx_n", "rst_tx_n")] + ([] if recovery else [("fault_drop", "%d'b0" % pools), ("fault_add", "16'b0")])
        environment += ["delete -port " + " ".join("%s/%s" % (copy, port) for port, _ in tied), "cd " + copy]
        environment += ["connect -set %s %s" % (port, value) for port, value in tied] + ["cd .."]
    prep = ["read_rtlil design.il", "rename credit_link gold",
            "read_rtlil design.il", "rename credit_link gate",
            gate_mutation] + environment + [
            # the observed signals as outputs of both copies: what the checks see, no more
            "expose " + " ".join("gold/" + s for s in OBSERVED),
            "expose " + " ".join("gate/" + s for s in OBSERVED),
            # the fault hooks only tell the probe's own assertions to stand aside: not observed
            "setattr -unset keep " + " ".join("%s/w:%s" % (c, h) for c in ("gold", "gate") for h in FAULT_HOOKS),
            "async2sync", "opt -fast", "opt_clean"]

    def yosys(name, commands, seconds):
        script = os.path.join(workdir, "%s_%d.ys" % (name, mid))
        with open(script, "w") as f:
            f.write("\n".join(commands) + "\n")
        log = script[:-3] + ".log"
        code, out = run(["yosys", "-q", "-l", log, script], cwd=workdir, timeout=seconds)
        return code, (open(log).read() if os.path.exists(log) else out), log

    # 1. yosys's equivalence passes pair the two copies' signals by name and prove them equal
    #    by induction, each assuming the others; only when every pair is proved is that a proof
    #    (one unproved pair may be what another's proof leaned on). On a multi-channel netlist
    #    (limited) the internal ($-named) signals pair first (-inames; the copies come from one
    #    netlist): every register, each memory slot among them, is then a pair of its own, and
    #    most pairs are proved a few steps at a time (equiv_simple) rather than all together
    #    (equiv_induct), which runs out of time there. That misses a mutant whose change to an
    #    internal signal is masked before any named one: when it ends unproved within its time,
    #    the named pairs alone are tried too. The one-channel netlists, which have no time limit,
    #    pair the named signals only.
    def proved(log):
        return re.search(r"Found \d+ \$equiv cells", log) and "Unproven $equiv" not in log

    passes = ["hierarchy -top equiv", "equiv_simple -seq 4", "equiv_induct -seq 4", "equiv_status"]
    code = 0
    if limited:
        code, log, path = yosys("equiv_inames", prep + ["equiv_make -inames gold gate equiv"] + passes, EQUIV_SECONDS)
        if code == 0 and proved(log):
            return ("equivalent", "every signal proved equal by induction (yosys equiv_induct)")
    if code is not None:
        code, log, path = yosys("equiv", prep + ["equiv_make gold gate equiv"] + passes, EQUIV_SECONDS if limited else None)
        if code == 0 and proved(log):
            return ("equivalent", "every signal proved equal by induction (yosys equiv_induct)")
    # 2. A miter on the observed outputs, from a reset: temporal induction proves them equal,
    #    or the base case finds the first cycle they differ.
    vcd = os.path.join(workdir, "gap_%d.vcd" % mid)
    code, log, path = yosys("miter", prep + [
        "miter -equiv -flatten -make_assert -make_outputs gold gate miter", "hierarchy -top miter",
        "sat -tempinduct -prove-asserts -set-init-zero -set-at 1 in_rst_tx_n 0 "
        "-maxsteps %d -show-ports -dump_vcd %s miter" % (BOUND, vcd)], MITER_SECONDS if limited else None)
    if re.search(r"temporal induction proof finished - no model found: SUCCESS", log):
        return ("equivalent", "the observed outputs proved equal by temporal induction (yosys sat -tempinduct)")
    if "model found for base case: FAIL" in log and os.path.exists(vcd):
        # the base case of length n failed: step 1 is the reset, step n the first difference
        signals, step = first_difference(vcd)
        return ("gap", max(0, step - 2), ", ".join(signals) or "?", vcd)
    if "Reached maximum number of time steps" in log:
        return ("bounded", BOUND, None)
    if code is None:
        # Out of time: the base cases solved before the one it was solving found no difference.
        reached = [int(n) for n in re.findall(r"\[base case (\d+)\] Solving", log)]
        return ("bounded", max(0, max(reached) - 2), MITER_SECONDS) if reached else ("error", path + " (timed out)")
    return ("error", path)


def command_line(args):
    """The command that repeats this run (the options that choose the mutants and their stimulus)."""
    if args.ci:
        return "python3 scripts/mutation.py --ci"
    words = ["python3", "scripts/mutation.py", "--count", str(args.count), "--channel-count", str(args.channel_count),
             "--seed", str(args.seed)]
    if args.cases:
        words += ["--cases", args.cases]
    if args.cross_check:
        words += ["--cross-check", str(args.cross_check)]
    return " ".join(shlex.quote(w) for w in words)


def main():
    parser = argparse.ArgumentParser(description="Generated mutants of credit_link and a mutation score (make mutation).")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"), help="the main build (build/creditloop)")
    parser.add_argument("--count", type=int, default=120, help="mutants of the link's netlists, shared out over them")
    parser.add_argument("--channel-count", type=int, default=160,
                        help="mutants of the multi-channel link's netlists (the channels/ sets), shared out over them")
    parser.add_argument("--seed", type=int, default=1, help="mutation and stimulus seed")
    parser.add_argument("--jobs", type=int, default=2, help="runs in parallel")
    parser.add_argument("--cases", default="", help="only these stimulus sets (comma separated)")
    parser.add_argument("--cross-check", type=int, default=0, metavar="N",
                        help="also classify N caught mutants: the classifier must find each different (a check of the classifier)")
    parser.add_argument("--ci", action="store_true", help="the subset make test runs: 16 mutants of seed 004's loop (sets seed004, "
                        "seed004_stress) and 8 of a multi-channel link (channels/tight, channels/tight_stress), 2 caught ones cross-checked")
    args = parser.parse_args()
    if args.count < 0 or args.channel_count < 0 or args.count + args.channel_count < 1 or args.jobs < 1 or args.seed < 0:
        fail("--count and --channel-count need at least 0 (together at least 1), --jobs at least 1, --seed at least 0")
    # Every path this script writes into a yosys script or passes to a tool is absolute: yosys runs
    # in its own working folder, where a path relative to the checkout names nothing.
    args.build = os.path.abspath(args.build)
    for tool in ("yosys",):
        if not shutil.which(tool):
            fail("%s not found: run scripts/install-deps.sh (Debian package yosys)" % tool)
    creditloop = os.path.join(args.build, "creditloop")
    if not os.path.exists(creditloop):
        fail("%s not found: run make build first" % creditloop)
    if args.ci:
        args.count, args.channel_count = 16, 8
        args.cases, args.cross_check = "seed004,seed004_stress,channels/tight,channels/tight_stress", max(args.cross_check, 2)
    out_root = os.path.join(args.build, "mutation" + ("_ci" if args.ci else ""))
    os.makedirs(out_root, exist_ok=True)
    # One run at a time owns the output folder (its netlists and logs are rewritten): a second one waits.
    lock_file = open(os.path.join(out_root, ".lock"), "w")
    try:
        fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("mutation.py: another run holds %s; waiting for it" % out_root, flush=True)
        fcntl.flock(lock_file, fcntl.LOCK_EX)
    started = time.time()

    code, text = run([creditloop, "mutation", "--cases", "--seed", str(args.seed)])
    if code != 0:
        fail("creditloop mutation --cases failed: " + text.strip(), 3)
    cases = json.loads(text)
    if args.cases:
        wanted = args.cases.split(",")
        unknown = [w for w in wanted if w not in [c["name"] for c in cases]]
        if unknown:
            fail("no stimulus set named %s: the sets are %s" % (", ".join(unknown), ", ".join(c["name"] for c in cases)))
        cases = [c for c in cases if c["name"] in wanted]
    # One netlist per set of parameters, run by every stimulus set that has them.
    netlists = []
    for case in cases:
        same = [n for n in netlists if n["parameters"] == case["parameters"]]
        if same:
            same[0]["sets"].append(case["name"])
        else:
            netlists.append({"name": case["name"], "parameters": case["parameters"], "sets": [case["name"]],
                             "channels": case["channels"]})
    # The link's netlists share --count, the multi-channel link's --channel-count.
    for channels, count in ((False, args.count), (True, args.channel_count)):
        kind = [n for n in netlists if n["channels"] == channels]
        for n in kind:
            n["count"] = int(math.ceil(count / len(kind)))
    netlists = [n for n in netlists if n["count"] > 0]

    manifest = {"seed": args.seed, "netlists": []}
    mutations = {}
    for n in netlists:
        workdir = os.path.join(out_root, folder(n["name"]), "yosys")
        os.makedirs(workdir, exist_ok=True)
        elaborate(n, workdir)
        listed = list_mutations(workdir, n["count"], args.seed)
        write_netlist(n, workdir, listed, os.path.join(out_root, folder(n["name"]), "rtl"))
        mutations[n["name"]] = listed
        manifest["netlists"].append({"name": n["name"], "rtl": os.path.join(out_root, folder(n["name"]), "rtl"),
                                     "sets": n["sets"], "mutants": list(range(1, len(listed) + 1))})
        shape = ("NCH", "NPOOL", "L", "SHARED_RET") if n["channels"] else ("L", "B", "K", "W")
        print("mutation.py: %-17s %3d mutations of credit_link at %s, against %s" % (
            n["name"], len(listed), " ".join("%s=%d" % (k, n["parameters"][k]) for k in shape),
            ", ".join(n["sets"])), flush=True)
    manifest_path = os.path.join(out_root, "manifest.json")
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=2)
    results_path = os.path.join(out_root, "results.json")
    code = subprocess.call([creditloop, "mutation", "--run", manifest_path, "--out", results_path,
                            "--seed", str(args.seed), "--jobs", str(args.jobs)])
    if code != 0:
        fail("creditloop mutation --run failed (exit %d)" % code, 3)
    with open(results_path) as f:
        results = json.load(f)["mutants"]

    rows = []
    parameters = {n["name"]: n["parameters"] for n in netlists}

    kinds = {n["name"]: n["channels"] for n in netlists}

    def classify(r):
        return equivalence(os.path.join(out_root, folder(r["netlist"]), "yosys"), mutations[r["netlist"]][r["id"] - 1],
                           r["id"], parameters[r["netlist"]], kinds[r["netlist"]])

    # yosys on the survivors, --jobs at a time (each writes files of its own id).
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        verdicts = dict(zip([id(r) for r in results if not r["caught"]], pool.map(classify, [r for r in results if not r["caught"]])))
    for r in results:
        m = mutations[r["netlist"]][r["id"] - 1]
        mode = re.search(r"-mode (\S+)", m).group(1)
        src = [x for x in re.findall(r"-src (\S+)", m) if not x.startswith(os.path.join(ROOT, "rtl", "credit_link.sv"))] or \
            re.findall(r"-src (\S+)", m)
        cell = re.search(r"-cell (\S+)", m)
        where = os.path.relpath(src[-1].split(":")[0], ROOT) + ":" + src[-1].split(":")[1].split(".")[0] if src else \
            "cell " + (cell.group(1) if cell else "?")
        row = {"netlist": r["netlist"], "id": r["id"], "mode": mode, "where": where, "mutation": m, "rerun": r["rerun"]}
        if r["caught"]:
            row["verdict"] = "caught"
            row["detail"] = "%s, cycle %d: %s" % (r["set"], r["cycle"], r["checks"])
        else:
            c = verdicts[id(r)]
            if c[0] == "equivalent":
                row["verdict"], row["detail"] = "equivalent", "proved: " + c[1]
            elif c[0] == "gap":
                row["verdict"], row["detail"] = "stimulus gap", "%s differs in cycle %d after a reset: %s" % (
                    c[2], c[1], os.path.relpath(c[3], ROOT))
            elif c[0] == "bounded":
                row["verdict"], row["detail"] = "bounded equivalent", "no observed signal differs within %d cycles of a reset; " \
                    "induction not closed%s" % (c[1], "" if c[2] is None else " (yosys stopped after %d s)" % c[2])
            else:
                row["verdict"], row["detail"] = "error", "yosys failed: " + c[1]
            print("mutation.py: survivor %s #%d (%s at %s): %s" % (r["netlist"], r["id"], mode, where, row["verdict"]), flush=True)
        rows.append(row)

    # The classifier checked against simulation: a mutant a check caught differs on some observed
    # signal, so yosys must find a difference too (never "equivalent"), no later than the cycle
    # the check fired plus the round trip.
    misjudged = []
    checked = [(row, r) for row, r in zip(rows, results) if row["verdict"] == "caught"][:args.cross_check]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        cross = list(pool.map(classify, [r for _, r in checked]))
    for (row, r), c in zip(checked, cross):
        agrees = c[0] == "gap" or (c[0] == "bounded" and r["cycle"] > c[1])
        print("mutation.py: cross-check %s #%d, caught at cycle %d: yosys says %s%s" % (
            r["netlist"], r["id"], r["cycle"], c[0], "" if agrees else "  <-- WRONG"), flush=True)
        if not agrees:
            misjudged.append(row)

    # The rerun lines replay: the first caught mutant of each kind of netlist (the one-channel
    # link, the multi-channel link), run as printed, fails first at the cycle its verdict names.
    for channels in (False, True):
        first = [(row, r) for row, r in zip(rows, results) if row["verdict"] == "caught" and kinds[r["netlist"]] == channels][:1]
        for row, r in first:
            code, out = run(r["rerun"][-1].split() + ["--json"])
            try:
                replayed = json.loads(out[out.index("{"):])["violations"][0]["cycle"]
            except (ValueError, KeyError, IndexError):
                replayed = None
            print("mutation.py: rerun of %s #%d: %s" % (r["netlist"], r["id"], "first violation at cycle %s, as recorded" % replayed
                                                         if code == 1 and replayed == r["cycle"] else "DIFFERS"), flush=True)
            if code != 1 or replayed != r["cycle"]:
                fail("the rerun line of %s #%d does not replay its verdict (cycle %d): %s" % (
                    r["netlist"], r["id"], r["cycle"], r["rerun"][-1]), 3)

    total = len(rows)
    caught = sum(1 for r in rows if r["verdict"] == "caught")
    equivalent = sum(1 for r in rows if r["verdict"] == "equivalent")
    gaps = [r for r in rows if r["verdict"] == "stimulus gap"]
    bounded = [r for r in rows if r["verdict"] == "bounded equivalent"]
    errors = [r for r in rows if r["verdict"] == "error"]
    score = 100.0 * caught / max(1, total - equivalent)
    elapsed = time.time() - started
    # The same per kind of netlist: the link with one channel, the multi-channel link.
    per_kind = []
    for channels, label in ((False, "one channel"), (True, "multi-channel")):
        mine = [r for r in rows if kinds[r["netlist"]] == channels]
        if mine:
            k_caught = sum(1 for r in mine if r["verdict"] == "caught")
            k_scored = len(mine) - sum(1 for r in mine if r["verdict"] == "equivalent")
            per_kind.append("%s: %d of %d (%.1f %%) of %d mutants" % (
                label, k_caught, k_scored, 100.0 * k_caught / max(1, k_scored), len(mine)))
    # A survivor yosys could not classify is neither caught nor a survivor of the stimulus: no
    # score counts it. The report and the last line say so instead, and the exit code is 3.
    scored = not errors
    summary = ("**Mutation score: %d / %d = %.1f %%** (caught over mutants that are not equivalent)." % (
        caught, total - equivalent, score) if scored else
        "**No mutation score**: yosys could not classify %d survivors (rows marked error)." % len(errors))
    lines = ["# Mutation score", "",
             "`%s` (%.0f s): %d generated mutants, "
             "%d caught, %d proved equivalent, %d bounded equivalent, %d stimulus gaps, %d not classified." % (
                 command_line(args), elapsed, total, caught, equivalent, len(bounded), len(gaps), len(errors)),
             "", summary + " By netlist: " + "; ".join(per_kind) + ".", "",
             "| netlist | id | mutation | where | verdict | detail |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %d | %s | %s | %s | %s |" % (r["netlist"], r["id"], r["mode"], r["where"], r["verdict"], r["detail"]))
    with open(os.path.join(out_root, "mutation.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out_root, "mutation.json"), "w") as f:
        json.dump({"seed": args.seed, "total": total, "caught": caught, "equivalent": equivalent,
                   "gaps": len(gaps), "bounded": len(bounded), "errors": len(errors),
                   "score": score if scored else None, "seconds": elapsed, "mutants": rows}, f, indent=2)
    print()
    for r in rows:
        if r["verdict"] != "caught":
            print("%-17s #%-3d %-7s %-28s %s: %s" % (r["netlist"], r["id"], r["mode"], r["where"], r["verdict"], r["detail"]))
            if r["verdict"] in ("stimulus gap", "bounded equivalent", "error"):
                for command in r["rerun"]:
                    print("    rerun: " + command)
    report = os.path.relpath(os.path.join(out_root, "mutation.md"), os.getcwd())
    if misjudged:
        print("mutation.py: the classifier calls %d caught mutants equivalent: its equivalence is unsound; no score" % len(misjudged),
              file=sys.stderr)
        return 3
    if errors:
        print("\nmutation.py: %d of %d survivors could not be classified (yosys failed; each log is named above): "
              "no mutation score (%s)" % (len(errors), total - caught, report), file=sys.stderr)
        return 3
    print("\nmutation score: %d of %d non-equivalent mutants caught (%.1f %%); %d mutants in all, %d proved equivalent, "
          "%d bounded equivalent, %d stimulus gaps (%.0f s; %s)" % (
              caught, total - equivalent, score, total, equivalent, len(bounded), len(gaps), elapsed, report))
    print("by netlist: " + "; ".join(per_kind))
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
