#!/usr/bin/env python3
"""The docs test: every command the README and docs/ show is run as written, from the checkout
root, and every number they show a command printing is checked against what it prints now.

What counts as a command:
  - each line of a ```sh block (a trailing `\\` joins the next line; `# ...` is a comment);
  - each `$ ` line of a fenced block (a transcript: the lines after it, up to the next `$ ` line,
    are its output);
  - each inline code span that starts with a command word (make, build/creditloop, python3
    scripts/..., scripts/..., ctest, cd build && ..., cmake, cpack, gtkwave); a bare path such as
    `scripts/formal.py` names a file, which must exist.

What counts as printed text:
  - the output lines of a transcript: each must still be printed, in order (`...` inside a line
    stands for any text; a line `...` for any lines between);
  - a fenced block or a table right after `<!-- output of: COMMAND -->`: its numbers must appear,
    in order, among the numbers COMMAND prints (durations, such as "124 s" or "0:05 elapsed",
    are wall times and compared by neither side);
  - a block after `<!-- measured: COMMAND -->` is a measurement (a timing, a rate): the command
    runs, at its reduced size, and the numbers are not compared; the lines just above the block
    must give its commit and date.

A fenced block without a language, not a transcript and not marked, is refused: every block of
printed text says which command printed it (```text marks an illustration that no command prints).

How each command runs is declared once, in RULES below: as written; at a reduced size (extra
make variables or options appended, for the slow ones); from the recording of the CTest test
that runs the very same command (scripts/docs_check.py --record); as a template (it holds a placeholder
such as <pattern>, path/to/ or N: its command word, subcommand and every option it names must
exist); or not at all, with the reason (a viewer, the package installer, the command that runs
this test). A command exits 0 unless its transcript line ends with `# exit N`.

A failure names the doc file and line. The exit code is 1 when anything failed, 2 on bad usage.
"""
import argparse
import collections
import json
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMAND_WORDS = ("make", "build/creditloop", "python3 scripts/", "scripts/", "ctest", "cd build &&", "cmake ",
                 "cpack", "gtkwave", "bash .ci/run")

# How each command is run: the first rule whose pattern matches (re.match on the whole command).
#   ("run",)              as written
#   ("reduced", extra)    as written plus `extra` (its reduced size; the whole command is slow)
#   ("dry", how, reason)  not run; `how` is run instead (make -n, --help) to show it still parses
#   ("skip", reason)      not run at all
#   ("recorded", file, inputs)
#                         the output a CTest test recorded of this very command (--record), when
#                         the recording is newer than every input (files, or folders' files);
#                         else as written
#   ("slow", extra, why)  as "reduced", but it needs a build tree of its own: --skip-slow runs
#                         `make -n` of it instead (make test's CTest docs), --only-slow only these
RULES = [
    (r"make test$|make test ", ("dry", "make -n test", "the docs test is itself part of make test")),
    (r"make docs-test|python3 scripts/docs_check\.py", ("dry", "make -n docs-test", "the docs test itself")),
    (r"bash \.ci/run|make sanitize|scripts/sanitize\.sh", ("dry", "make -n sanitize", "CI runs it after make test")),
    (r"make deps|scripts/install-deps\.sh", ("dry", "scripts/install-deps.sh --check", "installs Debian packages")),
    (r"make clean", ("dry", "make -n clean", "removes the build the other commands use")),
    (r"make network", ("dry", "make -n network", "two minutes of runs; docs/network.md shows its table with its commit and date")),
    (r"make timing|python3 scripts/timing\.py|scripts/timing\.py",
     ("dry", "python3 scripts/timing.py --help", "fresh clones and cold builds: about 15 minutes")),
    (r"make fuzz|scripts/fuzz\.sh", ("dry", "make -n fuzz", "minutes per target; make sanitize fuzzes each target in CI")),
    (r"make slurm-test|tests/slurm/|scripts/slurm/", ("dry", "make -n slurm-test", "CTest's slurm test runs it")),
    (r"gtkwave", ("skip", "a waveform viewer (a window)")),
    # Installing into the machine's folders: CTest's install test runs the same on a temporary
    # prefix and the .deb, from a folder outside the checkout (tests/install/test_install.sh).
    (r"cmake --install|\(cd build && cpack|cpack |sudo dpkg|cd ~/|cp -r /usr/share/creditloop|creditloop ",
     ("skip", "installs creditloop; CTest's install test does the same on a temporary prefix")),
    (r"(cd build && )?ctest ", ("ctest",)),
    (r"export SLURM_CONF|sbatch|sinfo|squeue", ("dry", "make -n slurm-test", "needs the local cluster; CTest's slurm test starts one")),
    (r"tests/reliability/test_concurrent_sim\.sh", ("dry", "bash -n tests/reliability/test_concurrent_sim.sh",
                                                      "three cold make sim in fresh clones; CTest's concurrent_sim runs it")),
    (r"(scripts|tests)/[\w/.-]+$|build/creditloop$", ("file-if-inline",)),
    (r"make mutation", ("dry", "make -n mutation", "every set's netlist and its survivors' yosys miters take "
                        "half an hour even at COUNT=16; `python3 scripts/mutation.py --ci` runs the CI subset")),
    # Any other size runs the netlists' survivors through yosys's miters for ten minutes and more:
    # the CI subset above is the one that runs.
    (r"python3 scripts/mutation\.py(?!.*--ci)", ("dry", "python3 scripts/mutation.py --help",
                                                 "ten minutes and more; `python3 scripts/mutation.py --ci` runs the CI subset")),
    # The CTest test mutation runs this very command (its defaults spelled out) and records its
    # output; a recording newer than the build and the script is compared instead of a second run.
    (r"python3 scripts/mutation\.py --ci$", ("recorded", os.path.join("build", "mutation_ci", "transcript.json"),
                                             ["build/creditloop", "scripts/mutation.py", "rtl"])),
    # The CTest test network_mutants runs it and records its output (a bank of its own: minutes).
    (r"build/creditloop network --mutants$", ("recorded", os.path.join("build", "network_mutants.json"),
                                              ["build/creditloop", "rtl", "tb/network"])),
    (r"python3 scripts/noc_formal\.py", ("dry", "python3 scripts/noc_formal.py --help",
                                         "two minutes of yosys; the CTest test noc_formal runs it")),
    (r"make formal(?!.*FORMAL_ONLY)", ("reduced", "FORMAL_ONLY='L1_B1_K1_W2'")),
    # The CI subset is the CTest test formal already; here a few of its items (a later --only wins).
    (r"python3 scripts/formal\.py --ci(?!.*--list)", ("reduced", "--only 'L1_B1_*,mutant_channel_shared_count'")),
    # The mutant tables: one of each kind (a channel mutant's 9-pool shape alone takes minutes).
    (r"python3 scripts/formal\.py --only '[^']*mutant_", ("reduced", "--only 'one_sided_sender_reset,"
                                                        "mutant_credit_counter_no_decrement,mutant_channel_shared_count'")),
    (r"python3 scripts/formal\.py(?!.*(--list|--only|--ci))", ("reduced", "--only 'L1_B1_K1_W2'")),
    (r"make coverage", ("slow", "TESTS='seed000/*'", "builds a coverage tree of its own")),
    (r"make soak", ("reduced", "CYCLES=1000000")),
    (r"make bench", ("reduced", "BENCH_ARGS='--cycles 200000 --runs 1 --icarus-cycles 20000 --memory-cycles 1000000 --profile-cycles 200000'")),
    (r"python3 scripts/bench\.py", ("reduced", "--cycles 200000 --runs 1 --icarus-cycles 20000 --memory-cycles 1000000 --profile-cycles 200000")),
    (r".*", ("run",)),
]

# A placeholder: the command is a template, not runnable as written.
PLACEHOLDER = re.compile(r"<[^>]*>|\.\.\.|path/to/|\bOUT/|\bI/N\b|--shards N\b|--seed N\b|\bx\.vcd\b")
DURATION = re.compile(r"\d+(?:[.,]\d+)?\s*(?:s|ms|min|seconds?|minutes?)\b|\d+:\d\d(?::\d\d)? elapsed"
                      r"|\d+(?:\.\d+)?\s*[kM]? ?cycles/s")
NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")


Command = collections.namedtuple("Command", "text where expect_exit inline", defaults=(False,))
Output = collections.namedtuple("Output", "command lines where kind")   # kind: transcript, output, measured


def numbers(text):
    text = DURATION.sub(" ", text)
    out = []
    for n in NUMBER.findall(text):
        n = n.replace(",", "").lstrip("+")
        try:
            out.append(float(n))
        except ValueError:
            pass
    return out


def logical_lines(lines, start):
    """(line number, text) for each command of a block, continuation lines joined."""
    joined, first = "", None
    for i, line in enumerate(lines, start):
        if first is None:
            first = i
        if line.rstrip().endswith("\\"):
            joined += line.rstrip()[:-1] + " "
            continue
        yield first, joined + line
        joined, first = "", None


def strip_comment(command):
    """The command without a trailing shell comment, and the exit code that comment expects."""
    quote = None
    for i, c in enumerate(command):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or command[i - 1].isspace()):
            m = re.search(r"\bexit (\d+)\b", command[i + 1:])
            return command[:i].strip(), int(m.group(1)) if m else 0
    return command.strip(), 0


def is_command(span):
    return any(span.startswith(w) for w in COMMAND_WORDS) and not span.endswith("/")


def parse(path):
    """The commands and the printed outputs of one Markdown file, and the problems found."""
    rel = os.path.relpath(path, ROOT)
    with open(path) as f:
        lines = f.read().split("\n")
    commands, outputs, problems = [], [], []
    marker = None   # (kind, command, line) from the last <!-- output of: / measured: --> comment
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"\s*<!--\s*(output of|measured):\s*(.*?)\s*-->\s*$", line)
        if m:
            marker = ("output" if m.group(1) == "output of" else "measured", m.group(2), i + 1)
            i += 1
            continue
        fence = re.match(r"(\s*)```\s*(\w*)", line)
        if fence:
            indent, language = fence.group(1), fence.group(2)
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                j += 1
            body = [b[len(indent):] if b.startswith(indent) else b.lstrip() for b in lines[i + 1:j]]
            start = i + 2
            if language in ("sh", "bash", "shell"):
                for n, text in logical_lines(body, start):
                    command, expect = strip_comment(text)
                    if command:
                        commands.append(Command(command, "%s:%d" % (rel, n), expect))
            elif language == "" and any(b.startswith("$ ") for b in body):
                current = None
                for n, text in logical_lines(body, start):
                    if text.startswith("$ "):
                        command, expect = strip_comment(text[2:])
                        commands.append(Command(command, "%s:%d" % (rel, n), expect))
                        current = Output(command, [], "%s:%d" % (rel, n), "transcript")
                        outputs.append(current)
                    elif current is not None:
                        current.lines.append((n, text))
            elif language == "":
                if marker:
                    kind, command, at = marker
                    commands.append(Command(command, "%s:%d" % (rel, at), 0))
                    outputs.append(Output(command, list(zip(range(start, start + len(body)), body)),
                                          "%s:%d" % (rel, i + 1), kind))
                    if kind == "measured":
                        check_dated(lines, at, rel, problems)
                else:
                    problems.append("%s:%d: a block of printed text without its command: start it with `$ COMMAND`, "
                                    "put <!-- output of: COMMAND --> above it, or mark it ```text" % (rel, i + 1))
            marker = None
            i = j + 1
            continue
        if marker and line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            kind, command, at = marker
            commands.append(Command(command, "%s:%d" % (rel, at), 0))
            outputs.append(Output(command, [(n + 1, lines[n]) for n in range(i, j) if not re.match(r"\|[-| :]+\|$", lines[n])],
                                  "%s:%d" % (rel, i + 1), kind))
            if kind == "measured":
                check_dated(lines, at, rel, problems)
            marker = None
            i = j
            continue
        if marker and line.strip() and not line.startswith("|"):
            pass   # prose between the marker and its block
        for span in re.findall(r"`([^`]+)`", line):
            if is_command(span):
                command, expect = strip_comment(span)
                commands.append(Command(command, "%s:%d" % (rel, i + 1), expect, True))
        i += 1
    if marker:
        problems.append("%s:%d: <!-- %s --> is followed by no block" % (rel, marker[2], marker[0]))
    return commands, outputs, problems


def check_dated(lines, at, rel, problems):
    """A measured block names its commit and date within the lines above its marker."""
    context = " ".join(lines[max(0, at - 4):at])
    if not (re.search(r"\b[0-9a-f]{7,40}\b", context) and re.search(r"\b20\d\d-\d\d-\d\d\b", context)):
        problems.append("%s:%d: a measured block needs its commit and date just above it" % (rel, at))


def rule_for(command):
    for pattern, action in RULES:
        if re.match(pattern, command):
            return action
    return ("run",)


def run(command, timeout, log):
    started = time.time()
    env = dict(os.environ, TERM="dumb")
    try:
        p = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=timeout, errors="replace")
        code, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        code, out = None, (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
    log.write("$ %s\n%s\n[exit %s, %.1f s]\n\n" % (command, out, code, time.time() - started))
    log.flush()
    return code, out, time.time() - started


def record(argv):
    """--record FILE --as COMMAND -- ARGV...: run ARGV (the documented COMMAND with its defaults
    spelled out), print its output as it comes, and save output and exit code in FILE for the
    docs test. The exit code is ARGV's."""
    if len(argv) < 5 or argv[0] != "--record" or argv[2] != "--as" or argv[4] != "--" or len(argv) < 6:
        print("docs_check.py: usage: --record FILE --as COMMAND -- ARGV...", file=sys.stderr)
        return 2
    path, command, child = argv[1], argv[3], argv[5:]
    if os.path.exists(path):
        os.remove(path)   # a failed or killed run leaves no recording behind
    p = subprocess.Popen(child, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    out = []
    for line in p.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        out.append(line)
    code = p.wait()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump({"command": command, "argv": child, "exit": code, "output": "".join(out)}, f)
    os.replace(path + ".tmp", path)
    return code


def recording(text, path, inputs):
    """The recorded (exit, output) of `text`, if a recording of it is newer than every input."""
    path = os.path.join(ROOT, path)
    try:
        with open(path) as f:
            saved = json.load(f)
        made = os.path.getmtime(path)
    except (OSError, ValueError):
        return None
    if saved.get("command") != text:
        return None
    for name in inputs:
        top = os.path.join(ROOT, name)
        files = [os.path.join(d, f) for d, _, fs in os.walk(top) for f in fs] if os.path.isdir(top) else [top]
        if any(os.path.getmtime(f) > made for f in files if os.path.exists(f)):
            return None
    return saved["exit"], saved["output"]


def template_problems(command):
    """What a template names that does not exist: its command word, subcommand or options."""
    words = command.split()
    if words[0] == "build/creditloop":
        sub = words[1] if len(words) > 1 and not words[1].startswith("-") and not PLACEHOLDER.match(words[1]) else ""
        p = subprocess.run(["build/creditloop"] + ([sub] if sub else []) + ["--help"], cwd=ROOT, capture_output=True, text=True)
        if p.returncode != 0:
            return ["build/creditloop %s --help failed: %s" % (sub, (p.stderr or p.stdout).strip().splitlines()[-1:])]
        known = set(re.findall(r"--[\w-]+", p.stdout))
        return ["option %s is not an option of build/creditloop %s" % (o, sub)
                for o in re.findall(r"(?<![\w-])--[\w-]+", command) if o not in known]
    if words[0] == "make":
        text = open(os.path.join(ROOT, "Makefile")).read()
        problems = []
        for w in words[1:]:
            if "<" in w or ">" in w:
                continue
            if "=" in w:
                var = w.split("=")[0]
                if not re.search(r"^%s\s*\?=" % re.escape(var), text, re.M):
                    problems.append("make variable %s is not in the Makefile" % var)
            elif not PLACEHOLDER.search(w) and not re.search(r"^%s:" % re.escape(w), text, re.M):
                problems.append("make target %s is not in the Makefile" % w)
        return problems
    script = words[1] if words[0] == "python3" else words[0]
    if script.startswith("scripts/") or script.startswith("tests/"):
        if not os.path.exists(os.path.join(ROOT, script)):
            return ["%s does not exist" % script]
        p = subprocess.run((["python3"] if script.endswith(".py") else []) + [script, "--help"], cwd=ROOT,
                           capture_output=True, text=True)
        known = set(re.findall(r"--[\w-]+", p.stdout + p.stderr))
        return ["option %s is not an option of %s" % (o, script)
                for o in re.findall(r"(?<![\w-])--[\w-]+", command) if o not in known]
    return []


def normal(line):
    """A line as compared: blanks collapsed, wall times masked."""
    return " ".join(DURATION.sub("<time>", line).split())


def line_pattern(line):
    """A transcript line as a pattern: `...` inside it stands for any text."""
    parts = [re.escape(p) for p in normal(line).split("...")]
    return re.compile("^" + ".*".join(parts) + "$")


def compare(output, printed):
    """Problems: a transcript line the command no longer prints (lines in order; a line `...`
    skips any number), or, for a block or table marked as its output, a number it no longer
    prints (the numbers in order, whatever the layout)."""
    rel = output.where.split(":")[0]
    if output.kind == "transcript":
        got = [normal(l) for l in printed.splitlines() if l.strip()]
        position = 0
        for n, text in output.lines:
            if not text.strip() or text.strip() == "...":
                continue
            pattern = line_pattern(text)
            start = position
            while position < len(got) and not pattern.match(got[position]):
                position += 1
            if position == len(got):
                nearest = max(got[start:] or [""], key=lambda g: common_prefix(g, normal(text)))
                return ["%s:%d: `%s` no longer prints this line:\n    doc: %s\n    got: %s" % (
                    rel, n, output.command, text.strip()[:160], nearest[:160])]
            position += 1
        return []
    got = numbers(printed)
    position = 0
    for n, text in output.lines:
        for value in numbers(text):
            while position < len(got) and got[position] != value:
                position += 1
            if position == len(got):
                return ["%s:%d: `%s` no longer prints %s (this line: %s)" % (
                    rel, n, output.command, fmt(value), text.strip()[:120])]
            position += 1
    return []


def common_prefix(a, b):
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def fmt(value):
    return str(int(value)) if value == int(value) else str(value)


def main():
    if sys.argv[1:2] == ["--record"]:
        return record(sys.argv[1:])
    ap = argparse.ArgumentParser(description="Run every command the README and docs/ show, and check the numbers they print.")
    ap.add_argument("files", nargs="*", help="Markdown files (default: README.md and docs/*.md)")
    ap.add_argument("--list", action="store_true", help="list each command and how it would run, run nothing")
    ap.add_argument("--only", default="", help="only commands matching this regular expression")
    ap.add_argument("--skip-slow", action="store_true", help="the commands that need a build tree of their own: make -n only")
    ap.add_argument("--only-slow", action="store_true", help="only the commands that need a build tree of their own")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per command")
    ap.add_argument("--require-build", metavar="DIR", help="run only if DIR is the checkout's build/ (exit 77 otherwise)")
    ap.add_argument("--log", default=os.path.join(ROOT, "build", "docs_check.log"), help="every command's output")
    args = ap.parse_args()
    if args.require_build and os.path.realpath(args.require_build) != os.path.realpath(os.path.join(ROOT, "build")):
        print("docs_check.py: skipped: the docs name build/, and this build tree is %s" % args.require_build)
        return 77
    files = [os.path.abspath(f) for f in args.files] or \
        [os.path.join(ROOT, "README.md")] + sorted(os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs"))
                                                   if f.endswith(".md"))
    for f in files:
        if not os.path.isfile(f):
            print("docs_check.py: %s: no such file" % f, file=sys.stderr)
            return 2
    commands, outputs, problems = [], [], []
    for f in files:
        c, o, p = parse(f)
        commands += c
        outputs += o
        problems += p
    if args.only:
        commands = [c for c in commands if re.search(args.only, c.text)]
        outputs = [o for o in outputs if re.search(args.only, o.command)]

    # each distinct command once, in the order first shown
    # each distinct command once; a bare path names a file only where prose shows it inline
    distinct = collections.OrderedDict()
    inline_only = {}
    for c in commands:
        distinct.setdefault((c.text, c.expect_exit), []).append(c.where)
        inline_only[c.text] = inline_only.get(c.text, True) and c.inline
    counts = collections.Counter()
    results = {}
    os.makedirs(os.path.dirname(args.log), exist_ok=True)
    with open(args.log, "w") as log:
        for index, ((text, expect), wheres) in enumerate(distinct.items(), 1):
            if PLACEHOLDER.search(text):
                action = ("template",)
            else:
                action = rule_for(text)
            if action[0] == "file-if-inline":
                action = ("file",) if inline_only[text] else ("run",)
            if action[0] == "slow":
                if args.skip_slow:
                    action = ("dry", "make -n " + text.split()[1] if text.startswith("make ") else text + " --help",
                              action[2] + ": make docs-test runs it")
                else:
                    action = ("reduced", action[1])
            elif args.only_slow:
                continue
            saved = None
            if action[0] == "recorded":
                saved = None if args.list else recording(text, action[1], action[2])
                action = ("recorded",) if saved else ("run",)
            label = action[0]
            if args.list:
                print("%-8s %-70s %s" % (label, text[:70], wheres[0]))
                continue
            print("docs_check.py: [%d/%d] %s: %s" % (index, len(distinct), label, text), flush=True)
            counts[label] += 1
            if label == "template":
                for p in template_problems(text):
                    problems += ["%s: `%s`: %s" % (w, text, p) for w in wheres[:1]]
            elif label == "skip":
                pass
            elif label == "ctest":
                # The tests a ctest line selects run in make test already: list them (-N) and
                # show that the selection is not empty.
                if not text.startswith("cd build && "):
                    problems.append("%s: `%s` finds no tests from the checkout root: write `cd build && %s`" % (
                        wheres[0], text, text))
                listing = re.sub(r"^(cd build && )?ctest ", "cd build && ctest -N ", text)
                code, out, _ = run(listing, args.timeout, log)
                found = re.search(r"Total Tests: (\d+)", out)
                if code != 0 or not found or found.group(1) == "0":
                    problems.append("%s: `%s` selects no test (`%s`: %s)" % (wheres[0], text, listing, last_line(out)))
            elif label == "file":
                if not os.path.exists(os.path.join(ROOT, text)):
                    problems.append("%s: `%s` names no file of the checkout" % (wheres[0], text))
            elif label == "recorded":
                code, out = saved
                results[text] = out
                log.write("$ %s\n(recorded by the CTest test that runs it)\n%s\n[exit %s]\n\n" % (text, out, code))
                if code != expect:
                    problems.append("%s: `%s` exited %s, not %d: %s" % (wheres[0], text, code, expect, last_line(out)))
            elif label == "dry":
                code, out, _ = run(action[1], args.timeout, log)
                if code != 0:
                    problems.append("%s: `%s` (not run: %s): `%s` failed (exit %s): %s" % (
                        wheres[0], text, action[2], action[1], code, last_line(out)))
            else:
                command = text + (" " + action[1] if label == "reduced" else "")
                code, out, seconds = run(command, args.timeout, log)
                results[text] = out
                if code != expect:
                    problems.append("%s: `%s` exited %s, not %d: %s" % (wheres[0], command, code, expect, last_line(out)))
        if args.list:
            return 0
    for o in outputs:
        if o.kind == "measured" or (args.skip_slow and rule_for(o.command)[0] == "slow"):
            continue
        if o.command not in results:
            if not args.only_slow:
                problems.append("%s: a block shown as printed by `%s`, which the docs test does not run: show a "
                                "command it runs, or mark the block <!-- measured: ... -->" % (o.where, o.command))
            continue
        problems += compare(o, results[o.command])
    print()
    print("docs_check.py: %d commands shown in %d files: %s" % (
        len(distinct), len(files), ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items()))))
    print("docs_check.py: %d printed blocks compared (%d measured, not compared)" % (
        sum(1 for o in outputs if o.kind != "measured"), sum(1 for o in outputs if o.kind == "measured")))
    for p in problems:
        print("docs_check.py: " + p, file=sys.stderr)
    if problems:
        print("docs_check.py: %d problems (every command's output: %s)" % (len(problems), os.path.relpath(args.log, ROOT)),
              file=sys.stderr)
        return 1
    print("docs_check.py: every documented command ran as shown and printed the documented numbers")
    return 0


def last_line(out):
    lines = [l for l in (out or "").strip().splitlines() if l.strip()]
    return lines[-1][:200] if lines else "(no output)"


if __name__ == "__main__":
    sys.exit(main())
