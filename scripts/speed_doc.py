"""Write a measurement's table into docs/speed.md (make timing, make bench).

Each measuring script owns one block of the page, between `<!-- NAME writes from here -->` and
`<!-- NAME writes to here -->`, and replaces it whole: the commit, the date, the command and the
table, so the page always says what produced its numbers. Standard library only.
"""
import datetime
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "speed.md"


def commit():
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()


def publish(name, command, tables):
    """Replace NAME's block with a header line (commit, date, command) and `tables` (Markdown,
    each after a `<!-- measured: make NAME -->` marker). Returns the page's path."""
    begin, end = f"<!-- {name} writes from here -->", f"<!-- {name} writes to here -->"
    text = PAGE.read_text()
    if begin not in text or end not in text or text.index(begin) > text.index(end):
        raise SystemExit(f"{PAGE} has no block for {name} (the lines '{begin}' and '{end}'): restore them")
    date = datetime.date.today().isoformat()
    body = [begin, f"Written by `{command}` at commit {commit()} on {date}, "
                   f"on this machine ({os.cpu_count()} cores):", ""]
    for table in tables:
        body += [f"<!-- measured: make {name} -->", table.rstrip("\n"), ""]
    body.append(end)
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    PAGE.write_text(head + "\n".join(body) + tail)
    return PAGE

