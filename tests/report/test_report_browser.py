#!/usr/bin/env python3
"""The HTML report (docs/report.md) in a real browser: a small regression with failing tests is
run with --report into a temporary folder, and headless chromium loads index.html. Its DOM after
the page's script has run is checked against the JUnit file, read here independently: one row per
<testcase>, the summary's counts equal to the suite's tests and failures, each failure's rerun
command and waves link present (the link resolving to the waves the JUnit file names), and the
filter: the page opened as index.html?verdict=failed shows exactly the failing rows, and
?name=<a test> the rows whose names contain it. A screenshot is kept in the build folder.

    tests/report/test_report_browser.py BUILD/creditloop
Exit 0 passed, 1 a check failed, 77 skipped (no chromium: scripts/install-deps.sh --report).
"""
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import xml.etree.ElementTree as ET
from pathlib import Path

ME = "test_report_browser"
ROOT = Path(__file__).resolve().parents[2]
# A regression on the return logic of a mutant that drops a flush's batch: the flush tests fail,
# the others pass.
FILTER = "random/L4_B12_K4_*"
MUTANT = "credit_return_flush_drops_batch"


class Dom(html.parser.HTMLParser):
    """The parts of the page the checks read: the test rows, the summary's numbers, the
    failures' rerun commands and links."""

    def __init__(self):
        super().__init__()
        self.rows = []          # attributes of each row of the tests table
        self.numbers = {}       # id -> text of <b id=...>
        self.reruns = []        # text of each <code class="rerun">
        self.links = []         # (class, href) of each <a>
        self._in_tests = False
        self._capture = None
        self._text = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self._in_tests = a.get("id") == "tests"
        elif tag == "tr" and self._in_tests and "data-verdict" in a:
            self.rows.append(a)
        elif tag == "b" and "id" in a:
            self._capture, self._text = ("number", a["id"]), ""
        elif tag == "code" and a.get("class") == "rerun":
            self._capture, self._text = ("rerun", None), ""
        elif tag == "a":
            self.links.append((a.get("class", ""), a.get("href", "")))

    def handle_endtag(self, tag):
        if tag == "table":
            self._in_tests = False
        if self._capture and tag in ("b", "code"):
            kind, key = self._capture
            if kind == "number":
                self.numbers[key] = self._text.strip()
            else:
                self.reruns.append(self._text)
            self._capture = None

    def handle_data(self, data):
        if self._capture:
            self._text += data


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def browse(browser, profile, url, extra):
    """The page's DOM after its scripts ran (or a screenshot, with extra options)."""
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + str(profile),
           "--allow-file-access-from-files"] + extra + [url]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise RuntimeError(f"chromium exited {out.returncode}: {out.stderr.strip()[-400:]}")
    return out.stdout


def main():
    if len(sys.argv) != 2:
        print(f"usage: {ME}.py BUILD/creditloop", file=sys.stderr)
        return 2
    creditloop = Path(sys.argv[1]).resolve()
    browser = chromium()
    if not browser:
        print(f"{ME}: SKIPPED: no chromium (install it with scripts/install-deps.sh --report)")
        return 77
    build = creditloop.parent
    # The mutant's module renamed (--return refuses credit_return, the wrapper's name), at a path
    # that does not change: the cache of verilated configurations keys on the file's path.
    fixtures = build / "report-test"
    fixtures.mkdir(exist_ok=True)
    emitted = subprocess.run([sys.executable, str(ROOT / "scripts" / "mutant_patch.py"), "--emit", MUTANT],
                             capture_output=True, text=True, check=True).stdout
    renamed = emitted.replace("module credit_return ", f"module {MUTANT} ").replace("module credit_return\n", f"module {MUTANT}\n")
    ret = fixtures / f"{MUTANT}_renamed.sv"
    if not ret.exists() or ret.read_text() != renamed:
        ret.write_text(renamed)

    failures = []

    def check(ok, what):
        print(f"  {'ok  ' if ok else 'FAIL'} {what}")
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory(prefix="creditloop-report-") as tmp:
        tmp = Path(tmp)
        junit, report = tmp / "results.xml", tmp / "report"
        run = subprocess.run([str(creditloop), "regress", "--filter", FILTER, "--seed", "1", "--jobs", "1",
                              "--junit", str(junit), "--waves-dir", str(tmp / "waves"), "--report", str(report),
                              "--return", str(ret)], cwd=ROOT, capture_output=True, text=True, timeout=600)
        if run.returncode != 1:
            print(f"{ME}: FAILED: the regression on {MUTANT} exited {run.returncode}, not 1 (a test failed):\n"
                  + run.stdout[-1500:] + run.stderr[-1500:], file=sys.stderr)
            return 1
        index = report / "index.html"
        check(index.is_file(), f"{index} written")
        if failures:
            return 1

        # The facts, from the JUnit file.
        suite = ET.parse(junit).getroot().find("testsuite")
        cases = suite.findall("testcase")
        failing = [c for c in cases if c.find("failure") is not None]
        names = [c.get("classname").removeprefix("creditloop.") + "/" + c.get("name") for c in cases]
        print(f"{ME}: {len(cases)} testcases, {len(failing)} failing (JUnit: {junit})")
        check(len(failing) > 0, "the regression has a failing test")

        profile = tmp / "profile"
        url = index.as_uri()
        dom = Dom()
        dom.feed(browse(browser, profile, url, ["--dump-dom"]))
        check(len(dom.rows) == len(cases), f"{len(dom.rows)} test rows = {len(cases)} <testcase>")
        check([r["data-name"] for r in dom.rows] == names, "the rows name the testcases, in order")
        check(dom.numbers.get("count-total") == suite.get("tests"),
              f"summary total {dom.numbers.get('count-total')} = suite tests {suite.get('tests')}")
        check(dom.numbers.get("count-failed") == suite.get("failures"),
              f"summary failed {dom.numbers.get('count-failed')} = suite failures {suite.get('failures')}")
        check(all("hidden" not in r for r in dom.rows), "every row shown before filtering")
        for case in failing:
            text = case.find("failure").text or ""
            rerun = next((l.removeprefix("rerun: ") for l in text.splitlines() if l.startswith("rerun: ")), None)
            check(rerun is not None and rerun in dom.reruns, f"{case.get('name')}: rerun line present: {rerun}")
            waves = next((l.split()[2] for l in text.splitlines() if l.startswith("waves: gtkwave ")), None)
            hrefs = [urllib.parse.unquote(h) for c, h in dom.links if c == "waves"]
            target = (ROOT / waves).resolve() if waves else None
            check(target is not None and target.is_file() and any((report / h).resolve() == target for h in hrefs),
                  f"{case.get('name')}: waves link to {waves}")

        # The filter, run by the page's own script from the address.
        dom = Dom()
        dom.feed(browse(browser, profile, url + "?verdict=failed", ["--dump-dom"]))
        shown = [r["data-name"] for r in dom.rows if "hidden" not in r]
        expect = [n for n, c in zip(names, cases) if c.find("failure") is not None]
        check(shown == expect, f"?verdict=failed shows the {len(expect)} failing rows (shows {len(shown)})")
        word = names[0].split("/")[-1]
        dom = Dom()
        dom.feed(browse(browser, profile, url + "?name=" + urllib.parse.quote(word), ["--dump-dom"]))
        shown = [r["data-name"] for r in dom.rows if "hidden" not in r]
        expect = [n for n in names if word.lower() in n.lower()]
        check(shown == expect, f"?name={word} shows the {len(expect)} rows whose names contain it (shows {len(shown)})")

        shot = build / "report-test" / "report.png"
        browse(browser, profile, url, ["--screenshot=" + str(shot), "--window-size=1280,2000", "--hide-scrollbars"])
        check(shot.is_file() and shot.stat().st_size > 0, f"screenshot {shot}")

    if failures:
        print(f"{ME}: FAILED: {len(failures)} check(s)", file=sys.stderr)
        return 1
    print(f"{ME}: PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
