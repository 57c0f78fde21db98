#!/usr/bin/env python3
"""make coverage: the regression on a coverage build of the RTL, merged into one report.

  scripts/coverage.py [--build build/coverage] [--jobs 2] [--seed 1] [--filter PATTERN]

1. Configures and builds a build tree of its own (build/coverage, -DCREDITLOOP_COVERAGE=ON): the
   Verilator runtime with VM_COVERAGE=1, and banks verilated with --coverage-line,
   --coverage-toggle and --coverage-user (so the RTL's cover properties are counted). The normal
   build (build/) is not touched, and its banks keep VM_COVERAGE=0.
2. Runs the regression there (build/coverage/creditloop regress, the SystemC cases left out): each
   run's DUT writes the counts of the instance it drove into build/coverage/coverage_data/
   (<instance>.<fingerprint of the run's inputs>.dat, tb/dut/coverage_file.h).
3. Merges every run, keeps rtl/ (rtl/mutants/ excluded: the regression runs none), and writes
   build/coverage/line.info and toggle.info with `verilator_coverage --write-info`, the lcov HTML
   report (genhtml, Debian's lcov, installed on demand) under build/coverage/html/ (lines, the
   if/else branch points among them; toggles under html/toggle/, a signal's line hit when any of
   its bits toggled), and build/coverage/coverage.json (the totals, every line and cover never
   hit).
4. Prints the totals: lines, branches, toggles, cover properties, and every line and cover never
   hit, with the time it took.

Exit status: the regression's (0 all passed), or 2 when something could not be built or run.
docs/coverage.md says how to read the report; the README gives the measured totals.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import time

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INSTANCE_FILE = re.compile(r"^(?P<instance>.+)\.[0-9a-f]{16}\.dat$")
# The generate blocks of channel_link whose index is a lane, pool or channel (not a batch size).
ANY_INDEX = re.compile(r"\b(g_lane|g_pool_covers|g_channel_covers|g_pool)\[\d+\]")
# The bank tops the plugins instantiate every configuration in (tb/dut/dut_bank.cpp, channel_bank.cpp).
BANK_SCOPES = ("bank.creditloop_bank.", "channel_bank.creditloop_channel_bank.")


def say(text):
    print(text, flush=True)


def run(argv, **kwargs):
    return subprocess.run(argv, **kwargs)


def ensure_genhtml():
    if shutil.which("genhtml"):
        return True
    say("coverage: genhtml (Debian's lcov) is missing: scripts/install-deps.sh --optional")
    run([os.path.join(SOURCE, "scripts", "install-deps.sh"), "--optional"])
    return shutil.which("genhtml") is not None


def build(build_dir, jobs):
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        say(f"coverage: configuring {build_dir} (CREDITLOOP_COVERAGE=ON)")
        if run(["cmake", "-S", SOURCE, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                "-DCREDITLOOP_COVERAGE=ON"], stdout=subprocess.DEVNULL).returncode:
            return False
    say(f"coverage: building {build_dir}/creditloop (the compiler's output: {build_dir}/build.log)")
    with open(os.path.join(build_dir, "build.log"), "w") as log:
        return run(["cmake", "--build", build_dir, f"-j{jobs}", "--target", "creditloop"],
                   stdout=log, stderr=subprocess.STDOUT).returncode == 0


# ---- the .dat files: "C '<\x01key\x02value>...' count" per point (Verilator's coverage format)

def parse_point(line):
    body, _, count = line.rstrip("\n").rpartition("' ")
    fields = {}
    for item in body[3:].split("\x01"):
        if item:
            key, _, value = item.partition("\x02")
            fields[key] = value
    return fields, int(count)


def encode_point(fields, count):
    return "C '" + "".join(f"\x01{k}\x02{v}" for k, v in fields.items()) + f"' {count}\n"


def relative_hier(hier, instance):
    """The point's place inside the configuration the run drove ("dut.u_return.g_returned[3]"), or
    None for a point of another instance (one whose name begins with the same text)."""
    for scope in BANK_SCOPES:
        prefix = scope + instance
        if hier == prefix:
            return ""
        if hier.startswith(prefix + "."):
            return hier[len(prefix) + 1:].replace("__BRA__", "[").replace("__KET__", "]")
    return None


def merge_runs(data_dir, rtl_dir):
    """Every run's points of rtl/ (not rtl/mutants/), summed over the runs and the configurations by
    their place in the source: for line and branch points the file, line, column and kind (block,
    if, else); for toggles (a signal's bit) and covers also the place inside the configuration, so
    a cover in a generate loop stays one per index."""
    points = collections.OrderedDict()
    runs = 0
    mutants = os.path.join(rtl_dir, "mutants") + os.sep
    for name in sorted(os.listdir(data_dir)):
        match = INSTANCE_FILE.match(name)
        if not match:
            continue
        runs += 1
        instance = match.group("instance")
        with open(os.path.join(data_dir, name), encoding="utf-8", errors="replace") as f:
            for line in f:
                if not line.startswith("C '"):
                    continue
                fields, count = parse_point(line)
                path = fields.get("f", "")
                if not path.startswith(rtl_dir + os.sep) or path.startswith(mutants):
                    continue
                place = relative_hier(fields.get("h", ""), instance)
                if place is None:
                    continue
                fields["h"] = place
                kind = fields.get("page", "").split("/")[0]
                # Not by module (page): a parameterisation is a module of its own (credit_counter__Mc),
                # and a point is hit when any configuration hit it.
                key = (kind, path, fields.get("l"), fields.get("n"), fields.get("o"),
                       place if kind in ("v_toggle", "v_user") else "")
                if key in points:
                    points[key][1] += count
                else:
                    points[key] = [fields, count]
    return points, runs


def write_dat(path, points, kinds):
    with open(path, "w", encoding="utf-8") as out:
        out.write("# SystemC::Coverage-3\n")
        for key, (fields, count) in points.items():
            if key[0] in kinds:
                out.write(encode_point(fields, count))


def read_info(path):
    """lcov .info: the count of every line found, per file."""
    files = {}
    current = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("SF:"):
                current = files.setdefault(line[3:], {"lines": {}})
            elif line.startswith("DA:") and current is not None:
                number, count = line[3:].split(",")[:2]
                current["lines"][int(number)] = max(current["lines"].get(int(number), 0), int(count))
    return files


def source_line(path, number):
    try:
        with open(path, encoding="utf-8") as f:
            for i, text in enumerate(f, 1):
                if i == number:
                    return text.strip()
    except OSError:
        pass
    return ""


def percent(hit, total):
    return f"{100.0 * hit / total:.1f} %" if total else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(SOURCE, "build", "coverage"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--filter", default="", help="run only the regression's tests matching (as make sim TESTS=)")
    parser.add_argument("--merge-only", action="store_true",
                        help="no build, no run: merge the counts already under <build>/coverage_data again")
    args = parser.parse_args()
    start = time.monotonic()
    build_dir = os.path.abspath(args.build)
    rtl_dir = os.path.join(SOURCE, "rtl")

    if not ensure_genhtml():
        say("coverage: genhtml is still missing: install Debian's lcov (apt-get install lcov)")
        return 2
    data_dir = os.path.join(build_dir, "coverage_data")
    regression = 0
    if not args.merge_only:
        if not build(build_dir, args.jobs):
            say(f"coverage: the coverage build failed: {build_dir}/build.log says why")
            return 2
        shutil.rmtree(data_dir, ignore_errors=True)
        os.makedirs(data_dir)
        env = dict(os.environ, CREDITLOOP_COVERAGE_DIR=data_dir)
        argv = [os.path.join(build_dir, "creditloop"), "regress", "--seed", str(args.seed), "--jobs", str(args.jobs),
                "--junit", os.path.join(build_dir, "results.xml"), "--waves-dir", os.path.join(build_dir, "waves")]
        if args.filter:
            argv += ["--filter", args.filter]
        say("coverage: the regression on the coverage build (every run writes its counts to " + data_dir + ")")
        regression = run(argv, env=env).returncode
        if regression not in (0, 1):
            say(f"coverage: the regression could not run (exit {regression})")
            return 2

    say("coverage: merging the runs")
    points, runs = merge_runs(data_dir, rtl_dir)
    if not runs:
        say("coverage: no run wrote coverage data under " + data_dir)
        return 2
    line_dat = os.path.join(build_dir, "line.dat")
    toggle_dat = os.path.join(build_dir, "toggle.dat")
    write_dat(line_dat, points, ("v_line", "v_branch"))
    write_dat(toggle_dat, points, ("v_toggle",))
    write_dat(os.path.join(build_dir, "merged.dat"), points, ("v_line", "v_branch", "v_toggle", "v_user"))
    line_info = os.path.join(build_dir, "line.info")
    toggle_info = os.path.join(build_dir, "toggle.info")
    for dat, info in ((line_dat, line_info), (toggle_dat, toggle_info)):
        if run(["verilator_coverage", "--write-info", info, dat], stdout=subprocess.DEVNULL).returncode:
            say("coverage: verilator_coverage --write-info failed on " + dat)
            return 2

    html = os.path.join(build_dir, "html")
    shutil.rmtree(html, ignore_errors=True)
    for info, out, title in ((line_info, html, "creditloop rtl/: lines and branches"),
                             (toggle_info, os.path.join(html, "toggle"), "creditloop rtl/: toggles")):
        if run(["genhtml", info, "--output-directory", out, "--title", title, "--prefix", SOURCE,
                "--quiet"],
               stdout=subprocess.DEVNULL).returncode:
            say("coverage: genhtml failed on " + info)
            return 2

    # Totals.
    files = read_info(line_info)
    lines_found = sum(len(f["lines"]) for f in files.values())
    lines_hit = sum(sum(1 for c in f["lines"].values() if c) for f in files.values())
    # Each if and else (case item) is a branch point of its own; lcov's .info from
    # verilator_coverage carries them as lines, so they are counted here from the points.
    branches = [count for key, (_, count) in points.items() if key[0] == "v_branch"]
    branches_found = len(branches)
    branches_hit = sum(1 for c in branches if c)
    # A line is hit when every point on it is (verilator_coverage gives a line its lowest count).
    # An `if` without an `else` has an implicit else point on the if's line: when only that one
    # was never taken, the line ran but its condition was never false; say so.
    implicit_else = {(key[1], int(key[2])) for key, (fields, count) in points.items()
                     if key[0] == "v_branch" and fields.get("o") == "else" and not fields.get("S") and not count}
    unhit_lines = [(os.path.relpath(path, SOURCE), n,
                    ("(its implicit else never taken) " if (path, n) in implicit_else else "") + source_line(path, n))
                   for path, f in sorted(files.items()) for n, c in sorted(f["lines"].items()) if not c]
    toggles = [count for key, (_, count) in points.items() if key[0] == "v_toggle"]
    # A cover is named by its place in the configuration; the index of a lane, pool or channel
    # is dropped (a pool's cover is hit when any pool's is), a batch size's kept (g_returned[3]).
    covers = collections.OrderedDict()
    for key, (fields, count) in points.items():
        if key[0] == "v_user":
            place = ANY_INDEX.sub(r"\1[*]", fields["h"])
            name = f"{os.path.relpath(key[1], SOURCE)}: {place}"
            covers[name] = covers.get(name, 0) + count
    unhit_covers = [name for name, count in covers.items() if not count]
    per_file = {os.path.relpath(p, SOURCE): {"lines_found": len(f["lines"]),
                                             "lines_hit": sum(1 for c in f["lines"].values() if c)}
                for p, f in sorted(files.items())}
    seconds = time.monotonic() - start
    summary = {
        "runs": runs,
        "lines": {"hit": lines_hit, "found": lines_found},
        "branches": {"hit": branches_hit, "found": branches_found},
        "toggles": {"hit": sum(1 for c in toggles if c), "found": len(toggles)},
        "covers": {"hit": len(covers) - len(unhit_covers), "found": len(covers),
                   "counts": covers},
        "unhit_lines": [{"file": f, "line": n, "text": t} for f, n, t in unhit_lines],
        "unhit_covers": unhit_covers,
        "files": per_file,
        "seconds": round(seconds, 1),
        "regression_exit": regression,
    }
    with open(os.path.join(build_dir, "coverage.json"), "w", encoding="utf-8") as out:
        json.dump(summary, out, indent=2)

    say("")
    say(f"code coverage of rtl/ (rtl/mutants/ excluded), {runs} regression runs merged:")
    say(f"  lines     {lines_hit} of {lines_found} ({percent(lines_hit, lines_found)})")
    say(f"  branches  {branches_hit} of {branches_found} ({percent(branches_hit, branches_found)})")
    say(f"  toggles   {summary['toggles']['hit']} of {len(toggles)} bits ({percent(summary['toggles']['hit'], len(toggles))})")
    say(f"  covers    {summary['covers']['hit']} of {len(covers)} cover properties hit (any lane, pool or channel)")
    for f, n, t in unhit_lines:
        say(f"  line never hit: {f}:{n}: {t}")
    for name in unhit_covers:
        say(f"  cover never hit: {name}")
    say(f"report: {os.path.relpath(html, os.getcwd())}/index.html (toggles: {os.path.relpath(html, os.getcwd())}/toggle/index.html); "
        f"totals: {os.path.relpath(os.path.join(build_dir, 'coverage.json'), os.getcwd())}")
    say(f"make coverage took {seconds:.0f} s")
    return 0 if regression == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
