#!/usr/bin/env python3
"""The docs test fires: a documented command with a renamed option, and a documented number the
command no longer prints, each fail scripts/docs_check.py, and each failure names its doc line.
The same doc with the true option and numbers passes. The numbers are seed 001's bandwidth-delay
product (16 GB/s x 500 ns = 8,000 bytes = 500 credits of 16 bytes), worked by hand."""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(ROOT, "scripts", "docs_check.py")

GOOD = """# A page

```sh
build/creditloop size --bandwidth 16GB/s --rtt 500ns --credit-bytes 16
```

```
$ build/creditloop size --bandwidth 16GB/s --rtt 500ns --credit-bytes 16
bandwidth-delay product: 16 GB/s x 500 ns = 8,000 bytes
credits: 8,000 bytes / 16 bytes = 500 credits of 16 bytes
```

```
$ build/creditloop size --bandwidth 16GB/s --rtt 500ns --credit-bytes 0   # exit 2
```
"""


def check(text, name):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        p = subprocess.run([sys.executable, CHECK, path, "--log", os.path.join(d, "log")], cwd=d,
                           capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr


def expect(condition, what, output):
    if not condition:
        print("FAILED: " + what + "\n" + output)
        sys.exit(1)


if not os.path.exists(os.path.join(ROOT, "build", "creditloop")):
    print("skipped: build/creditloop is not built")
    sys.exit(77)

code, out = check(GOOD, "good.md")
expect(code == 0, "the true page passes", out)

renamed = GOOD.replace("--credit-bytes 16\n```\n\n```\n$", "--credit-size 16\n```\n\n```\n$", 1)
code, out = check(renamed, "renamed.md")
expect(code == 1, "a renamed option fails the docs test", out)
expect("renamed.md:4:" in out and "--credit-size" in out, "the failure names the line of the renamed option", out)

changed = GOOD.replace("= 500 credits", "= 512 credits")
code, out = check(changed, "changed.md")
expect(code == 1, "a number the command no longer prints fails the docs test", out)
expect("changed.md:10:" in out and "512" in out, "the failure names the line and the number", out)

wrong_exit = GOOD.replace("--credit-bytes 0   # exit 2", "--credit-bytes 0")
code, out = check(wrong_exit, "exit.md")
expect(code == 1 and "exit.md:14:" in out, "a command that fails where the doc shows success fails the test", out)

unmarked = GOOD + "\n```\nsome printed text 42\n```\n"
code, out = check(unmarked, "unmarked.md")
expect(code == 1 and "unmarked.md:17:" in out, "printed text without its command is refused", out)
print("the docs test fires on a renamed option, a changed number, a wrong exit and an unmarked block")
