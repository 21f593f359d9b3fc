#!/usr/bin/env python3
"""Checks an HTML report (seqlint --format=html) against the JSON output of
the same run: every finding has its row in index.html, in the same order, with
its check, file, severity, location and message, and a page of its own with
the location, the message, the source line of the finding marked, and every
note as a numbered step with its location and message. No page refers to
anything outside the report. Prints "ok: N findings" or fails.

  check_html_report.py REPORT_DIR FINDINGS.json
  check_html_report.py --page REPORT_DIR FILE:LINE:COL   prints the page of
                                                         the finding there
"""
import html.parser
import json
import os
import re
import sys


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children = []  # Nodes and strings

    def classes(self):
        return (self.attrs.get("class") or "").split()

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.walk()

    def find_all(self, tag=None, cls=None, id=None):
        return [n for n in self.walk()
                if (tag is None or n.tag == tag) and (cls is None or cls in n.classes())
                and (id is None or n.attrs.get("id") == id)]

    def find(self, **kw):
        found = self.find_all(**kw)
        return found[0] if found else None


VOID = {"meta", "link", "br", "img", "input", "hr"}


class Parser(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.cur = self.root
        self.urls = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("href", "src") and v is not None:
                self.urls.append(v)
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse(path):
    p = Parser()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    p.close()
    return p


def fail(msg):
    sys.exit("check_html_report: " + msg)


def loc_text(o):
    if not o["file"]:
        return "(no location)"
    s = o["file"]
    if o["line"]:
        s += ":%d" % o["line"]
        if o["column"]:
            s += ":%d" % o["column"]
    return s


def check_urls(page, urls):
    for u in urls:
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", u) or u.startswith("//"):
            fail("%s refers to %r outside the report" % (page, u))


def print_page(report, where):
    index = parse(os.path.join(report, "index.html"))
    for row in index.root.find_all(tag="tr", cls="finding"):
        cell = row.find(tag="td", cls="where")
        if cell.text() == where:
            with open(os.path.join(report, cell.find(tag="a").attrs["href"]),
                      encoding="utf-8") as f:
                sys.stdout.write(f.read())
            return
    fail("no finding at %s in %s" % (where, report))


def main():
    if sys.argv[1] == "--page":
        return print_page(sys.argv[2], sys.argv[3])
    report, findings_json = sys.argv[1], sys.argv[2]
    with open(findings_json) as f:
        findings = json.load(f)["findings"]
    index = parse(os.path.join(report, "index.html"))
    check_urls("index.html", index.urls)
    rows = index.root.find_all(tag="tr", cls="finding")
    if len(rows) != len(findings):
        fail("index.html has %d findings, the JSON %d" % (len(rows), len(findings)))
    pages = sorted(os.listdir(os.path.join(report, "findings")))
    if len(pages) != len(findings):
        fail("findings/ has %d pages for %d findings" % (len(pages), len(findings)))
    for i, (row, f) in enumerate(zip(rows, findings)):
        want = {"data-check": f["check"], "data-file": f["file"] or "(none)",
                "data-severity": f["level"]}
        for k, v in want.items():
            if row.attrs.get(k) != v:
                fail("row %d: %s is %r, not %r" % (i + 1, k, row.attrs.get(k), v))
        where = row.find(tag="td", cls="where")
        msg = row.find(tag="td", cls="msg")
        if where.text() != loc_text(f):
            fail("row %d: location %r, not %r" % (i + 1, where.text(), loc_text(f)))
        if not msg.text().startswith(f["message"]):
            fail("row %d: message %r, not %r" % (i + 1, msg.text(), f["message"]))
        href = where.find(tag="a").attrs["href"]
        path = os.path.join(report, href)
        if not os.path.isfile(path):
            fail("row %d: no page %s" % (i + 1, href))
        page = parse(path)
        check_urls(href, page.urls)
        root = page.root
        if root.find(id="location").text() != loc_text(f):
            fail("%s: location %r" % (href, root.find(id="location").text()))
        if root.find(id="message").text() != f["message"]:
            fail("%s: message %r" % (href, root.find(id="message").text()))
        step = root.find(id="step-F")
        if step is None:
            fail("%s: no step F" % href)
        hit = step.find(tag="tr", cls="hit")
        if f["line"] and (hit is None or hit.find(tag="td", cls="ln").text() != str(f["line"])):
            fail("%s: the line of the finding is not marked" % href)
        for k, n in enumerate(f["notes"], 1):
            li = root.find(id="step-%d" % k)
            if li is None:
                fail("%s: no step %d" % (href, k))
            if li.find(cls="where").text() != loc_text(n):
                fail("%s: step %d at %r, not %r" % (href, k, li.find(cls="where").text(),
                                                   loc_text(n)))
            if li.find(cls="note").text() != n["message"]:
                fail("%s: step %d says %r" % (href, k, li.find(cls="note").text()))
            hit = li.find(tag="tr", cls="hit")
            if n["line"] and (hit is None or
                              hit.find(tag="td", cls="ln").text() != str(n["line"])):
                fail("%s: the line of step %d is not marked" % (href, k))
        if root.find(id="step-%d" % (len(f["notes"]) + 1)) is not None:
            fail("%s: more steps than notes" % href)
    print("ok: %d findings" % len(findings))


if __name__ == "__main__":
    main()
