#!/usr/bin/env python3
"""Loads a page of an HTML report in headless Chromium (Debian's chromium).

  run_chromium.py CHROMIUM --log LOG (--dump-dom OUT | --screenshot PNG)
                  (PAGE | --finding REPORT FILE:LINE:COL)

--dump-dom writes the DOM after the scripts ran; --screenshot a 1200x900 PNG.
--log receives the browser's log with the page's console messages
("...:CONSOLE...] "message", source: ..."); the page is loaded with a
profile of its own under $TMPDIR. --finding loads the page of the finding at
FILE:LINE:COL (found through REPORT/index.html)."""
import argparse
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_html_report  # noqa: E402


def finding_page(report, where):
    index = check_html_report.parse(os.path.join(report, "index.html"))
    for row in index.root.find_all(tag="tr", cls="finding"):
        cell = row.find(tag="td", cls="where")
        if cell.text() == where:
            return os.path.join(report, cell.find(tag="a").attrs["href"])
    sys.exit("run_chromium: no finding at %s in %s" % (where, report))


def load(chromium, page, log, dump_dom=None, screenshot=None):
    """Loads PAGE (a path, with an optional #fragment) in headless Chromium;
    the browser's log goes to LOG, the DOM after the scripts ran to DUMP_DOM,
    or a screenshot to SCREENSHOT. Returns the DOM (bytes) or None."""
    url = "file://" + os.path.abspath(page)
    with tempfile.TemporaryDirectory(prefix="seqlint-chromium-") as profile:
        cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
               "--enable-logging=stderr", "--v=0", "--no-first-run",
               "--user-data-dir=" + profile, "--hide-scrollbars", "--window-size=1200,900"]
        if screenshot:
            cmd.append("--screenshot=" + os.path.abspath(screenshot))
        else:
            cmd.append("--dump-dom")
        cmd.append(url)
        env = dict(os.environ, HOME=profile)
        with open(log, "w") as f:
            out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=f, env=env,
                                 timeout=120).stdout
    if dump_dom:
        with open(dump_dom, "wb") as f:
            f.write(out)
    return None if screenshot else out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("chromium")
    ap.add_argument("--log", required=True)
    ap.add_argument("--dump-dom")
    ap.add_argument("--screenshot")
    ap.add_argument("--finding", nargs=2, metavar=("REPORT", "LOC"))
    ap.add_argument("page", nargs="?")
    a = ap.parse_intermixed_args()
    page = finding_page(*a.finding) if a.finding else a.page
    load(a.chromium, page, a.log, a.dump_dom, a.screenshot)


if __name__ == "__main__":
    main()
