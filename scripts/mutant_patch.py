#!/usr/bin/env python3
"""The hand-written mutants of rtl/mutants/ as patches of the live blocks.

A mutant is a file rtl/mutants/<name>.mutant (the multi-channel link's in rtl/mutants/channels/):

    // prose: the bug, where it comes from, what catches it
    // creditloop-mutant: replaces=<block in rtl/, e.g. credit_counter.sv>
    // creditloop-mutant: class=..., source=..., expect=...   (one key=value a line)
    @ <a line of the block, kept: context that pins the place>
    - <a line of the block, taken out>
    + <a line put in its place; it says MUTANT>

The example designs' mutants, examples/own_rtl/<design>/mutants/<name>.mutant, take the same form;
their replaces= names a file of the design, in the folder above mutants/ (replaces=cbfc_rx.sv), and
`creditloop run --link MAP --mutant PATH.mutant` (or --counter MAP) runs one in place of its file.

A hunk is a run of '@' and '-' lines, then its '+' lines. Its '@' and '-' lines must match
consecutive lines of the block (compared without leading and trailing blanks) at exactly one
place; the '-' lines there are replaced by the '+' lines, written as given. Every '+' line carries
the word MUTANT, so the built file differs from the block only in lines that say so. The mutant is
applied to the block as it is when it is built: it cannot drift from the design it claims to
break. The C++ side (tb/dut/mutant_patch.cpp) reads the same format; --check compares the two.

    scripts/mutant_patch.py --check [--cli build/creditloop] [--examples DIR]
        every mutant applies and changes only its marked lines (and, with --cli, the CLI builds
        each one of rtl/mutants/ to the same bytes), the examples' mutants each against its live
        example file; exit 1 naming the mutant and the line otherwise
    scripts/mutant_patch.py --emit <name> [-o <file>]
        the mutated block on standard output (or in <file>)
"""
import argparse
import difflib
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"
MARK = "MUTANT"
TAG = "// creditloop-mutant:"


class PatchError(Exception):
    pass


def mutant_files(rtl=RTL):
    return sorted((rtl / "mutants").glob("*.mutant")) + sorted((rtl / "mutants" / "channels").glob("*.mutant"))


def example_mutant_files(examples):
    """The example designs' mutants, <examples>/<design>/mutants/*.mutant, and their legal variants,
    <examples>/<design>/variants/*.mutant: each a patch of a file of <examples>/<design>/."""
    return sorted(Path(examples).glob("*/mutants/*.mutant")) + sorted(Path(examples).glob("*/variants/*.mutant"))


def find(name, rtl=RTL):
    for path in mutant_files(rtl):
        if path.stem == name:
            return path
    raise PatchError(f"no mutant {name} in rtl/mutants/ (scripts/mutant_patch.py --check lists them)")


def tags(path):
    out = {}
    for line in Path(path).read_text().splitlines():
        if line.startswith(TAG):
            key, _, value = line[len(TAG):].strip().partition("=")
            out[key.strip()] = value.strip()
    return out


def body_text(line):
    """What follows a line's marker: '- x' is 'x', '-' alone is ''."""
    return line[2:] if line[1:2] == " " else line[1:]


def parse(path):
    """The hunks of a mutant: [(first line number, [(kind, text)], [added text])]."""
    hunks = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        kind = line[:1]
        if not line.strip() or line.startswith("//") and not hunks:
            continue
        if kind not in "@-+":
            raise PatchError(f"{path}:{number}: a line of the patch starts with '@', '-' or '+' (comments go above it)")
        if kind == "+":
            if not hunks:
                raise PatchError(f"{path}:{number}: a '+' line needs '-' or '@' lines above it to say where it goes")
            if MARK not in line:
                raise PatchError(f"{path}:{number}: an added line must say {MARK} (the marked lines are the whole change)")
            hunks[-1][2].append(body_text(line))
        else:
            if not hunks or hunks[-1][2]:
                hunks.append((number, [], []))
            hunks[-1][1].append((kind, body_text(line)))
    if not hunks:
        raise PatchError(f"{path}: no patch: add '-' and '+' lines below the comments")
    for number, match, added in hunks:
        if not added and all(kind == "@" for kind, _ in match):
            raise PatchError(f"{path}:{number}: this hunk changes nothing")
    return hunks


def apply(path, rtl=RTL):
    """The mutated block's text; `rtl` is the folder replaces= names a file of (rtl/, or an example
    design's folder)."""
    rtl = Path(rtl)
    block = tags(path).get("replaces", "")
    source = rtl / block
    if not block or not source.is_file():
        raise PatchError(f"{path}: needs a '{TAG} replaces=<file in {rtl.name}/>' line naming an existing file")
    lines = source.read_text().splitlines()
    keyed = [l.strip() for l in lines]
    edits = []
    for number, match, added in parse(path):
        want = [text.strip() for _, text in match]
        places = [i for i in range(len(lines) - len(want) + 1) if keyed[i:i + len(want)] == want]
        if len(places) != 1:
            raise PatchError(f"{path}:{number}: the lines of this hunk are found {len(places)} times in {rtl.name}/{block}, "
                             "need exactly once (the block changed: update the mutant's '@' and '-' lines)")
        edits.append((places[0], match, added, number))
    edits.sort()
    for (a, match_a, _, number), (b, _, _, _) in zip(edits, edits[1:]):
        if a + len(match_a) > b:
            raise PatchError(f"{path}:{number}: two hunks overlap in {rtl.name}/{block}")
    out = []
    at = 0
    for start, match, added, _ in edits:
        out += lines[at:start]
        kept = [lines[start + i] for i, (kind, _) in enumerate(match) if kind == "@"]
        removed_first = next((i for i, (kind, _) in enumerate(match) if kind == "-"), len(match))
        out += kept[:removed_first] + added + kept[removed_first:]
        at = start + len(match)
    out += lines[at:]
    return "\n".join(out) + "\n"


def check_marked(path, rtl=RTL):
    """An independent look at the result: every line difflib sees added says MUTANT, and the
    lines taken out are exactly the '-' lines."""
    rtl = Path(rtl)
    mutated = apply(path, rtl).splitlines()
    block = tags(path)["replaces"]
    live = (rtl / block).read_text().splitlines()
    removed, added = [], []
    for tag, a1, a2, b1, b2 in difflib.SequenceMatcher(None, live, mutated, autojunk=False).get_opcodes():
        removed += [l.strip() for l in live[a1:a2]] if tag != "equal" else []
        added += mutated[b1:b2] if tag != "equal" else []
    wanted_removed = [text.strip() for _, match, _ in parse(path) for kind, text in match if kind == "-"]
    problems = []
    if not removed and not added:
        problems.append(f"{path}: the built file is {rtl.name}/{block} unchanged")
    for line in added:
        if MARK not in line:
            problems.append(f"{path}: changes a line it does not mark: {line.strip()}")
    if sorted(removed) != sorted(wanted_removed):
        problems.append(f"{path}: takes out other lines than its '-' lines")
    return problems


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="every mutant applies and changes only its marked lines")
    parser.add_argument("--cli", help="with --check: the creditloop CLI, whose builds must match byte for byte")
    parser.add_argument("--rtl", default=str(RTL), help="the rtl/ folder (default: this checkout's)")
    parser.add_argument("--examples", help="with --check: the example designs' folder, whose */mutants/*.mutant are "
                        "checked against their designs' files (default: examples/own_rtl beside --rtl)")
    parser.add_argument("--emit", metavar="NAME", help="print the mutant NAME applied to its block")
    parser.add_argument("-o", "--output", help="with --emit: write here instead of standard output")
    args = parser.parse_args(argv)
    rtl = Path(args.rtl)
    try:
        if args.emit:
            text = apply(find(args.emit, rtl), rtl)
            if args.output:
                Path(args.output).write_text(text)
            else:
                sys.stdout.write(text)
            return 0
        if not args.check:
            parser.error("say --check or --emit NAME")
        files = mutant_files(rtl)
        if not files:
            raise PatchError(f"no rtl/mutants/*.mutant under {rtl}")
        examples = Path(args.examples) if args.examples else rtl.parent / "examples" / "own_rtl"
        if args.examples and not examples.is_dir():
            raise PatchError(f"--examples {examples}: no such folder")
        example_files = example_mutant_files(examples)
        problems = []
        # An example's mutant patches a file of its design, the folder above its mutants/.
        # The network's mutants patch rtl/noc/'s files.
        network_files = sorted((rtl / "mutants" / "noc").glob("*.mutant"))
        for path, base in ([(f, rtl) for f in files] + [(f, rtl / "noc") for f in network_files] +
                           [(f, f.parent.parent) for f in example_files]):
            try:
                problems += check_marked(path, base)
            except PatchError as e:
                problems.append(str(e))
        if args.cli and not problems:
            with tempfile.TemporaryDirectory() as tmp:
                run = subprocess.run([args.cli, "mutants", "--emit", tmp], capture_output=True, text=True,
                                     env={"CREDITLOOP_ROOT": str(rtl.parent), "PATH": "/usr/bin:/bin"})
                if run.returncode != 0:
                    problems.append(f"{args.cli} mutants --emit failed: {(run.stderr or run.stdout).strip()}")
                for path in files if run.returncode == 0 else []:
                    built = Path(tmp) / f"{path.stem}.sv"
                    if not built.is_file() or built.read_text() != apply(path, rtl):
                        problems.append(f"{path}: the CLI builds it differently from this script")
        for p in problems:
            print(p)
        print(f"mutant patches: {len(files) + len(network_files) + len(example_files)} checked ({len(example_files)} of the examples), "
              f"{len(problems)} problem{'' if len(problems) == 1 else 's'}")
        return 1 if problems else 0
    except PatchError as e:
        print(f"mutant_patch.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
