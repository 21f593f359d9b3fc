#!/usr/bin/env python3
"""Compares the options of `seqlint --help` with those of the man page.

    check_manpage.py HELP.txt seqlint.1

HELP.txt is the runner's --help output; seqlint.1 the roff source (or a
gzip-compressed one). Every option the help lists must have an entry (.TP)
in the man page's OPTIONS section, and every option there must be in the
help. Prints the options found and exits 1 on a difference."""
import gzip
import re
import sys

OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def help_options(text):
    opts = set()
    in_options = False
    for line in text.splitlines():
        if line.startswith("Options:"):
            in_options = True
            continue
        if in_options:
            if not line.strip():
                break
            # "  -j, --jobs <n>     run ..." : the option column only.
            m = re.match(r"^  (-\S.*?)(?:\s{2,}|$)", line)
            if m:
                opts.update(OPTION.findall(m.group(1)))
    return opts


def roff_text(line):
    line = re.sub(r"\\f[BIRP]|\\f\(..", "", line)
    return line.replace("\\-", "-").replace('"', " ")


def man_options(text):
    opts = set()
    section = None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(".SH"):
            section = line[3:].strip().strip('"')
        elif section == "OPTIONS" and line.startswith(".TP") and i + 1 < len(lines):
            tag = re.sub(r"^\.\w+\s*", "", lines[i + 1])
            opts.update(OPTION.findall(roff_text(tag)))
    return opts


def main():
    help_text = open(sys.argv[1], encoding="utf-8").read()
    path = sys.argv[2]
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        man = f.read()
    in_help, in_man = help_options(help_text), man_options(man)
    if not in_help:
        print("no options found in the help text", file=sys.stderr)
        return 1
    status = 0
    for opt in sorted(in_help - in_man):
        print("%s: in --help, not in the man page's OPTIONS" % opt, file=sys.stderr)
        status = 1
    for opt in sorted(in_man - in_help):
        print("%s: in the man page's OPTIONS, not in --help" % opt, file=sys.stderr)
        status = 1
    print("options: " + " ".join(sorted(in_help | in_man)))
    return status


if __name__ == "__main__":
    sys.exit(main())
