#!/usr/bin/env python3
"""Loads an HTML report (seqlint --format=html) in headless Chromium and checks
it against the JSON output of the same run: the index loads without a console
message, its DOM (after the scripts ran) has one row per finding with the
finding's file:line:col and shows all of them; then the page of every finding
whose notes are in another file than the finding (a cross-file pair), and of
the first finding of each check, loads without a console message and its DOM
has the finding's location and each note's. Prints a summary line; exits 1
with the reason on the first failure.

  chromium_report.py CHROMIUM REPORT_DIR FINDINGS.json [--work DIR]
                     [--min-findings N] [--min-files N] [--min-cross-file N]
                     [--max-pages N]

--work keeps the browser logs and DOM dumps there (default: a temporary
directory). The --min-* options make a run fail when the input turned out
smaller than the caller meant it to be (a test whose input silently shrank
would check nothing); --max-pages bounds the pages loaded (default 60; every
page takes a browser start).
"""
import argparse
import collections
import json
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_html_report  # noqa: E402
import run_chromium  # noqa: E402

CONSOLE = re.compile(r":CONSOLE|Uncaught")


def fail(msg):
    sys.exit("chromium_report: " + msg)


def load(chromium, page, work, name):
    log = os.path.join(work, name + ".log")
    dom = os.path.join(work, name + ".dom")
    run_chromium.load(chromium, page, log, dump_dom=dom)
    with open(log, encoding="utf-8", errors="replace") as f:
        bad = [line.rstrip() for line in f if CONSOLE.search(line)]
    if bad:
        fail("%s: console message(s) in the browser:\n  %s" % (page, "\n  ".join(bad[:5])))
    if os.path.getsize(dom) == 0:
        fail("%s: the browser returned no DOM (see %s)" % (page, log))
    return check_html_report.parse(dom).root


def check_index(chromium, report, findings, work):
    root = load(chromium, os.path.join(report, "index.html"), work, "index")
    rows = root.find_all(tag="tr", cls="finding")
    where = collections.Counter(r.find(tag="td", cls="where").text() for r in rows)
    want = collections.Counter(check_html_report.loc_text(f) for f in findings)
    missing = want - where
    if missing:
        fail("index.html: %d finding(s) not in the DOM, e.g. %s"
             % (sum(missing.values()), sorted(missing)[0]))
    extra = where - want
    if extra:
        fail("index.html: %d row(s) of no finding, e.g. %s" % (sum(extra.values()), sorted(extra)[0]))
    shown = root.find(id="shown")
    n = len(findings)
    if shown is None or shown.text() != "%d of %d findings shown" % (n, n):
        fail("index.html: the script did not show every finding (%r)"
             % (shown.text() if shown is not None else None))
    hidden = [r for r in rows if "hidden" in r.attrs]
    if hidden:
        fail("index.html: %d row(s) hidden with no filter set" % len(hidden))
    return rows


def cross_file(f):
    return any(n["file"] and n["file"] != f["file"] for n in f["notes"])


def check_pages(chromium, report, findings, rows, work, max_pages):
    href = {}
    for r in rows:
        cell = r.find(tag="td", cls="where")
        href.setdefault(cell.text(), cell.find(tag="a").attrs["href"])
    chosen, seen_checks = [], set()
    for f in findings:
        if cross_file(f):
            chosen.append(f)
    for f in findings:
        if f["check"] not in seen_checks and not cross_file(f):
            chosen.append(f)
        seen_checks.add(f["check"])
    chosen = chosen[:max_pages]
    for i, f in enumerate(chosen):
        loc = check_html_report.loc_text(f)
        root = load(chromium, os.path.join(report, href[loc]), work, "page-%d" % i)
        got = root.find(id="location")
        if got is None or got.text() != loc:
            fail("%s: the page shows location %r, not %r"
                 % (href[loc], got.text() if got is not None else None, loc))
        steps = {li.find(cls="where").text() for li in root.find_all(tag="li", cls="step")
                 if li.find(cls="where") is not None}
        for n in f["notes"]:
            if n["file"] and check_html_report.loc_text(n) not in steps:
                fail("%s: the note at %s is not in the DOM" % (href[loc], check_html_report.loc_text(n)))
    return len(chosen)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("chromium")
    ap.add_argument("report")
    ap.add_argument("findings")
    ap.add_argument("--work")
    ap.add_argument("--min-findings", type=int, default=1)
    ap.add_argument("--min-files", type=int, default=1)
    ap.add_argument("--min-cross-file", type=int, default=0)
    ap.add_argument("--max-pages", type=int, default=60)
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.report, "index.html")):
        fail("%s is not an HTML report (no index.html)" % a.report)
    try:
        with open(a.findings, encoding="utf-8") as f:
            findings = json.load(f)["findings"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail("%s: not the JSON output of seqlint (%s)" % (a.findings, e))
    files = {f["file"] for f in findings if f["file"]}
    crossing = [f for f in findings if cross_file(f)]
    if len(findings) < a.min_findings:
        fail("%d findings, fewer than the %d expected" % (len(findings), a.min_findings))
    if len(files) < a.min_files:
        fail("findings in %d files, fewer than the %d expected" % (len(files), a.min_files))
    if len(crossing) < a.min_cross_file:
        fail("%d cross-file findings, fewer than the %d expected" % (len(crossing), a.min_cross_file))
    with tempfile.TemporaryDirectory(prefix="seqlint-chromium-report-") as tmp:
        work = a.work or tmp
        os.makedirs(work, exist_ok=True)
        rows = check_index(a.chromium, a.report, findings, work)
        pages = check_pages(a.chromium, a.report, findings, rows, work, a.max_pages)
    print("ok: %d findings in %d files (%d cross-file, %d checks) in the DOM; "
          "the index and %d finding pages load without console messages"
          % (len(findings), len(files), len(crossing), len({f["check"] for f in findings}), pages))


if __name__ == "__main__":
    main()
