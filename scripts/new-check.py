#!/usr/bin/env python3
"""Makes the skeleton of a new seqlint check, in every place a check lives:

  checkers/Catalogue.def           a SEQLINT_CHECK row (name, factory, default,
                                   descriptions), after the last one
  <checks dir>/<Name>Check.cpp     the check's class and its create function;
                                   <checks dir> is the folder that holds the
                                   existing *Check.cpp files, wherever it is
  docs/checks/<name>.md            the page, with the sections every check
                                   page has, to fill in
  test/checkers/<name>/bugs.c      a positive case (expects the warning: it
                                   fails until the check finds the bug)
  test/checkers/<name>/correct.c   a negative case (expects no diagnostic)
  README.md                        a row in the check table

  scripts/new-check.py NAME --summary TEXT [--description TEXT] [--off]
                       [--root DIR]

NAME is the check's name without "seqlint-": lower case words joined by '-'
(e.g. "barrier-double-fence"). --summary is the one-line description
(--help, SARIF's shortDescription, the README row); --description the
full one (default: the summary). --off makes the check off by default.
--root is the seqlint checkout (default: the one holding this script).
Nothing is written when NAME exists already or an input is malformed
(exit 2, with the reason). test/tools/check-catalogue.test applies the
catalogue's consistency rules to the result.
"""
import argparse
import os
import re
import sys
import textwrap

NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)+$")
ROW = re.compile(r'^SEQLINT_CHECK\(\s*"([^"]+)"\s*,\s*(\w+)\s*,', re.M)
FACTORY_DEF = re.compile(r"std::unique_ptr<Check>\s+create\w+Check\s*\(\s*\)\s*\{")


class Error(Exception):
    pass


def c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def c_strings(text, indent, width=88):
    """TEXT as adjacent C string literals, each line at most WIDTH columns."""
    chunks = textwrap.wrap(text, width - indent - 3, drop_whitespace=False,
                           break_on_hyphens=False) or [""]
    return ("\n" + " " * indent).join(c_string(c) for c in chunks)


def checks_dir(root):
    """The one folder under checkers/ that holds the check sources: the
    *Check.cpp files that define a create...Check() factory."""
    found = set()
    for dp, _, files in os.walk(os.path.join(root, "checkers")):
        for f in files:
            if f.endswith("Check.cpp"):
                with open(os.path.join(dp, f), encoding="utf-8") as fh:
                    if FACTORY_DEF.search(fh.read()):
                        found.add(dp)
    if len(found) != 1:
        raise Error("cannot tell where the checks live: %s hold *Check.cpp files with a "
                    "create...Check() factory" % (", ".join(sorted(found)) or "no folders"))
    return found.pop()


def check_header_include(folder):
    """How the check sources of FOLDER include the Check base class."""
    for f in sorted(os.listdir(folder)):
        if f.endswith("Check.cpp"):
            with open(os.path.join(folder, f), encoding="utf-8") as fh:
                m = re.search(r'^#include "((?:[\w./-]*/)?Check\.h)"', fh.read(), re.M)
            if m:
                return m.group(1)
    raise Error("no *Check.cpp in %s includes Check.h" % folder)


def class_name(name):
    return "".join(w[:1].upper() + w[1:] for w in name.split("-")) + "Check"


def catalogue_row(name, factory, on, summary, description):
    return ("SEQLINT_CHECK(%s, %s, %d,\n              %s,\n              %s)\n"
            % (c_string(name), factory, 1 if on else 0, c_strings(summary, 14),
               c_strings(description, 14)))


def check_source(name, cls, factory, include, summary):
    bar = "=" * max(0, 70 - len(cls) - 12)
    return """//===- {cls}.cpp {bar}===//
//
// {name}: {summary}
// A skeleton made by scripts/new-check.py: find the bug in functionDone()
// (or translationUnitDone() for findings across functions), report it with
// make() + emit(), and make test/checkers/{name}/ pass.
//
//===----------------------------------------------------------------------===//
#include "{include}"

namespace seqlint {{
namespace {{

class {cls} : public Check {{
public:
  {cls}() : Check("{name}") {{}}

  void functionDone(const FunctionTrace &T, Classifier &Cl) override {{
    // Not written yet: no finding.
  }}
}};

}} // namespace

std::unique_ptr<Check> {factory}() {{
  return std::make_unique<{cls}>();
}}

}} // namespace seqlint
""".format(cls=cls, bar=bar, name=name, summary=summary, include=include, factory=factory)


def doc_page(name, on, summary):
    default = ("" if on else
               "**Off by default** (enable with `-fplugin-arg-seqlint-checks=%s` or "
               "`Checks: '%s'` in `.seqlint.yaml`): TODO say why.\n\n" % (name, name))
    return """# seqlint-{name}

{default}**What it flags.** {summary} TODO: the pattern, where it is reported, the
notes, and what is not flagged.

**Why.** TODO: what goes wrong at run time.

**Bad**
```c
/* TODO: the smallest code with the bug (test/checkers/{name}/bugs.c) */
```

**Good**
```c
/* TODO: the same code, fixed (test/checkers/{name}/correct.c) */
```

**Fix.** TODO: what to change; the fix-it, if the fix is mechanical.

**Suppress.** `// NOLINT(seqlint-{name})` on the line, or
`-fplugin-arg-seqlint-checks=-{name}`.
""".format(name=name, default=default, summary=summary)


def test_bugs(name):
    return """// RUN: %clang_plugin -fsyntax-only -Xclang -verify %s -fplugin-arg-seqlint-checks='-*,{name}'
/*
 * {name}: the bugs it must find. Made by scripts/new-check.py: replace the
 * function below with the smallest code that has the bug; until the check
 * reports it, this test fails.
 */
#include <linux/compiler.h>
#include <linux/seqlock.h>

int {ident}_bug(int *p)
{{
	return *p; // expected-warning {{{{[seqlint-{name}]}}}}
}}
""".format(name=name, ident=name.replace("-", "_"))


def test_correct(name):
    return """// RUN: %clang_plugin -fsyntax-only -Xclang -verify %s -fplugin-arg-seqlint-checks='-*,{name}'
// expected-no-diagnostics
/*
 * {name}: correct code it must not flag (the tricky correct code an
 * imprecise check would flag is the most valuable). Made by
 * scripts/new-check.py.
 */
#include <linux/compiler.h>
#include <linux/seqlock.h>

int {ident}_ok(int *p)
{{
	return READ_ONCE(*p);
}}
""".format(name=name, ident=name.replace("-", "_"))


def readme_with_row(text, name, on, summary):
    rows = list(re.finditer(r"^\| \[`seqlint-[a-z0-9-]+`\]\(docs/checks/[^)]*\).*\|\s*$", text, re.M))
    if not rows:
        raise Error("README.md has no check table (rows like | [`seqlint-<name>`](docs/checks/<name>.md) ... |)")
    row = "| [`seqlint-%s`](docs/checks/%s.md)%s | %s |" % (
        name, name, "" if on else " (off by default)", summary.replace("|", "\\|"))
    end = rows[-1].end()
    return text[:end] + "\n" + row + text[end:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name")
    ap.add_argument("--summary", required=True)
    ap.add_argument("--description")
    ap.add_argument("--off", action="store_true", help="off by default")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    a = ap.parse_args()
    try:
        name = a.name[len("seqlint-"):] if a.name.startswith("seqlint-") else a.name
        if not NAME.match(name):
            raise Error("'%s' is not a check name: lower case words joined by '-', "
                        "like barrier-double-fence" % a.name)
        summary = " ".join(a.summary.split())
        description = " ".join((a.description or a.summary).split())
        if not summary:
            raise Error("--summary is empty")
        root = os.path.abspath(a.root)
        cat_path = os.path.join(root, "checkers", "Catalogue.def")
        try:
            catalogue = open(cat_path, encoding="utf-8").read()
        except OSError as e:
            raise Error("cannot read %s: %s (is --root a seqlint checkout?)" % (cat_path, e))
        rows = list(ROW.finditer(catalogue))
        if not rows:
            raise Error("%s has no SEQLINT_CHECK row" % cat_path)
        cls = class_name(name)
        factory = "create" + cls
        if any(m.group(1) == name for m in rows):
            raise Error("%s is in Catalogue.def already" % name)
        if any(m.group(2) == factory for m in rows):
            raise Error("the factory %s is in Catalogue.def already" % factory)
        folder = checks_dir(root)
        include = check_header_include(folder)
        outputs = {
            os.path.join(folder, cls + ".cpp"): check_source(name, cls, factory, include, summary),
            os.path.join(root, "docs", "checks", name + ".md"): doc_page(name, not a.off, summary),
            os.path.join(root, "test", "checkers", name, "bugs.c"): test_bugs(name),
            os.path.join(root, "test", "checkers", name, "correct.c"): test_correct(name),
        }
        for path in outputs:
            if os.path.exists(path):
                raise Error("%s exists already" % path)
        # The row goes after the last row (and its continuation lines).
        last = rows[-1]
        depth, i = 0, last.start()
        while True:
            c = catalogue[i]
            if c == '"':
                i += 1
                while catalogue[i] != '"':
                    i += 2 if catalogue[i] == "\\" else 1
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        end = catalogue.index("\n", i) + 1
        new_catalogue = (catalogue[:end] + catalogue_row(name, factory, not a.off, summary, description)
                         + catalogue[end:])
        readme_path = os.path.join(root, "README.md")
        readme = readme_with_row(open(readme_path, encoding="utf-8").read(), name, not a.off, summary)
    except Error as e:
        print("new-check: error: %s" % e, file=sys.stderr)
        sys.exit(2)
    for path, text in outputs.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    with open(cat_path, "w", encoding="utf-8") as f:
        f.write(new_catalogue)
    with open(readme_path, "w", encoding="utf-8") as f:
        f.write(readme)
    for path in [cat_path] + list(outputs) + [readme_path]:
        print("new-check: wrote %s" % os.path.relpath(path, root))
    print("new-check: next: write the check in %s until test/checkers/%s/ passes, and the "
          "TODOs of docs/checks/%s.md" % (os.path.relpath(list(outputs)[0], root), name, name))


if __name__ == "__main__":
    main()
