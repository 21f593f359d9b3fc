#!/usr/bin/env python3
"""The check catalogue's consistency rules on a source tree (no build needed):
checkers/Catalogue.def is the one list of checks, and

  - docs/checks/<name>.md exists for each check and for no other name, starts
    with "# seqlint-<name>", and says "**Off by default**" exactly when the
    catalogue has the check off by default;
  - the factory each row names is defined once, in a *.cpp under checkers/;
  - test/checkers/<name>/ exists for each check, with at least one .c file;
  - README.md's check table has one row per check (in its own order),
    linking docs/checks/<name>.md, marked "(off by default)" exactly when the
    check is.

test/tools/check-catalogue.test runs it on the checkout (and compares the
catalogue with what the built plugin and runner say); new-check.test on a
tree scripts/new-check.py added a check to. Prints "ok: N checks" or every
inconsistency, exit 1.

  catalogue_consistency.py ROOT
"""
import os
import re
import sys

ROW = re.compile(r'^SEQLINT_CHECK\(\s*"([^"]+)"\s*,\s*(\w+)\s*,\s*([01])\s*,', re.M)
README_ROW = re.compile(r"^\| \[`seqlint-([a-z0-9-]+)`\]\(([^)]*)\)([^|]*)\|", re.M)


def catalogue(root):
    path = os.path.join(root, "checkers", "Catalogue.def")
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        sys.exit("catalogue_consistency: cannot read %s: %s" % (path, e))
    rows = [(n, f, d == "1") for n, f, d in ROW.findall(text)]
    if not rows:
        sys.exit("catalogue_consistency: %s has no SEQLINT_CHECK row" % path)
    return rows


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: catalogue_consistency.py ROOT")
    root = sys.argv[1]
    rows = catalogue(root)
    names = [n for n, _, _ in rows]
    problems = []
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        problems.append("Catalogue.def names %s more than once" % ", ".join(sorted(dup)))

    docs_dir = os.path.join(root, "docs", "checks")
    docs = {f[:-3] for f in os.listdir(docs_dir) if f.endswith(".md")}
    for n in sorted(set(names) - docs):
        problems.append("%s has no docs/checks/%s.md" % (n, n))
    for n in sorted(docs - set(names)):
        problems.append("docs/checks/%s.md documents no check of Catalogue.def" % n)
    for n, _, on in rows:
        if n not in docs:
            continue
        text = open(os.path.join(docs_dir, n + ".md"), encoding="utf-8").read()
        if not text.startswith("# seqlint-%s\n" % n):
            problems.append("docs/checks/%s.md does not start with '# seqlint-%s'" % (n, n))
        if ("**Off by default**" in text) == on:
            problems.append("docs/checks/%s.md %s '**Off by default**', but the check is %s by "
                            "default" % (n, "says" if on else "does not say", "on" if on else "off"))

    sources = {}
    for dp, _, files in os.walk(os.path.join(root, "checkers")):
        for f in files:
            if f.endswith(".cpp"):
                sources[os.path.join(dp, f)] = open(os.path.join(dp, f), encoding="utf-8").read()
    for n, factory, _ in rows:
        defs = [p for p, t in sources.items()
                if re.search(r"std::unique_ptr<Check>\s+%s\s*\(\s*\)\s*\{" % re.escape(factory), t)]
        if len(defs) != 1:
            problems.append("%s: its factory %s() is defined in %d .cpp files under checkers/"
                            % (n, factory, len(defs)))

    for n in names:
        d = os.path.join(root, "test", "checkers", n)
        if not os.path.isdir(d) or not any(f.endswith(".c") for f in os.listdir(d)):
            problems.append("%s has no tests in test/checkers/%s/" % (n, n))

    readme = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    table = README_ROW.findall(readme)
    listed = [n for n, _, _ in table]
    for n in sorted(set(names) - set(listed)):
        problems.append("README.md's check table has no row for %s" % n)
    for n in sorted(set(listed) - set(names)):
        problems.append("README.md's check table has a row for %s, which is not in Catalogue.def" % n)
    for n in sorted({n for n in listed if listed.count(n) > 1}):
        problems.append("README.md's check table has %d rows for %s" % (listed.count(n), n))
    on_of = {n: on for n, _, on in rows}
    for n, link, rest in table:
        if link != "docs/checks/%s.md" % n:
            problems.append("README.md: the row of %s links %s" % (n, link))
        if n in on_of and ("(off by default)" in rest) == on_of[n]:
            problems.append("README.md: the row of %s %s '(off by default)', but the check is %s "
                            "by default" % (n, "says" if on_of[n] else "does not say",
                                            "on" if on_of[n] else "off"))
    if problems:
        sys.exit("catalogue_consistency: %d problem(s):\n  %s" % (len(problems), "\n  ".join(problems)))
    print("ok: %d checks" % len(rows))


if __name__ == "__main__":
    main()
