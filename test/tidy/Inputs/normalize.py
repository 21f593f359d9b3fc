#!/usr/bin/env python3
"""Reduce clang (plugin) or clang-tidy output to comparable lines.

Reads diagnostics on stdin and prints, sorted, one line per seqlint warning:

    file:line:col: check

`file` is the file's directory name and base name (clang prints paths as
given, clang-tidy makes them absolute), `check` the bracketed check name
(seqlint-<check>). With --full, the message and the notes (location and text)
of each warning follow on the same line, so two outputs compare equal only if
they say the same thing at the same places. Anything else (source snippets,
carets, "N warnings generated.", other tools' warnings) is ignored.
"""
import os
import re
import sys

DIAG = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): "
                  r"(?P<kind>warning|error|note): (?P<text>.*)$")
# clang >= 22 puts the plugin's warnings in a -W group and appends it:
# "... [seqlint-<check>] [-Wuser-defined-warnings]" (or [-Werror,-W...]).
CHECK = re.compile(r"^(?P<msg>.*) \[(?P<check>seqlint-[A-Za-z0-9-]+)(?:,-warnings-as-errors)?\]"
                   r"(?: \[-W[A-Za-z0-9=,-]+\])?$")


def shortname(path):
    """The last two components of path: `seqcount-read-no-retry/bugs.c`."""
    parent = os.path.basename(os.path.dirname(path))
    return os.path.join(parent, os.path.basename(path)) if parent else os.path.basename(path)


def main():
    full = "--full" in sys.argv[1:]
    findings = []  # [key, message, notes]
    current = None
    for raw in sys.stdin:
        m = DIAG.match(raw.rstrip("\n"))
        if not m:
            continue
        where = "%s:%s:%s" % (shortname(m["file"]), m["line"], m["col"])
        if m["kind"] == "note":
            if current is not None:
                current[2].append("%s %s" % (where, m["text"]))
            continue
        c = CHECK.match(m["text"])
        if not c:
            current = None
            continue
        current = ["%s: %s" % (where, c["check"]), c["msg"], []]
        findings.append(current)
    lines = []
    for key, msg, notes in findings:
        if full:
            lines.append(" | ".join([key, msg] + ["note " + n for n in notes]))
        else:
            lines.append(key)
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    main()
