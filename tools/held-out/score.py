#!/usr/bin/env python3
"""Score seqlint on a held-out corpus: recall on bug cases, false positives
on correct ones.

A corpus is a directory of C files written before the analyzer was tuned
and kept as first written (test/held-out/README.md):

  <prefix>-bug-NN-<slug>.c   a bug; each line that carries the marker
                             /* EXPECT: seqlint-<check> */ is where a user
                             expects the finding
  <prefix>-ok-NN-<slug>.c    tricky correct code: any finding is false
  // FLAGS: ...              optional extra compiler flags (@dpdk@ stands
                             for `pkg-config --cflags libdpdk`;
                             --no-kernel-stubs: user-space code, compiled
                             without the --include stubs, against the
                             system's <linux/...> headers)

A bug counts as found when a warning of the expected check is reported on
the marked line (in the case file), or at the call of a helper with its
"inside '<helper>'" note on the marked line (seqlint reports what a helper
does at the call that makes it wrong). A finding of another check, or of the
right check elsewhere, is listed as "elsewhere" and does not count. Every
finding on a correct case, and every finding in a bug case that matches no
marker, is a false positive.

Exit status: 0; 1 when --min-recall or --max-fp is not met or a case does
not compile; 2 on bad usage.
"""
import argparse
import os
import re
import subprocess
import sys

MARK = re.compile(r"/\*\s*EXPECT:\s*seqlint-([a-z0-9-]+)\s*\*/")
FLAGS = re.compile(r"^//\s*FLAGS:\s*(.*)$", re.M)
# clang 22 files the plugin's findings under -Wuser-defined-warnings and
# appends the group's name after seqlint's own tag.
DIAG = re.compile(r"^(.*?):(\d+):(\d+): (warning|error): (.*?)"
                  r"(?: \[seqlint-([a-z0-9-]+)\])?(?: \[-W[a-z0-9-]+(?:,[^\]]*)?\])?$")
NOTE = re.compile(r"^(.*?):(\d+):(\d+): note: inside '")
CASE = re.compile(r"^(?P<prefix>[a-z0-9]+)-(?P<kind>bug|ok)-\d+.*\.c$")


def dpdk_flags():
    try:
        out = subprocess.run(["pkg-config", "--cflags", "libdpdk"], capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.split() if out.returncode == 0 else None


def case_flags(text, dpdk):
    flags = []
    for line in FLAGS.findall(text):
        for tok in line.split():
            if tok == "@dpdk@":
                if dpdk is None:
                    return None
                flags.extend(dpdk)
            else:
                flags.append(tok)
    return flags


NO_STUBS = "--no-kernel-stubs"


def run_case(args, path, flags):
    stubs = ["-I", args.include]
    if NO_STUBS in flags:
        stubs = []
        flags = [f for f in flags if f != NO_STUBS]
    cmd = [args.clang, "-fsyntax-only", "-Wno-unused", "-fplugin=" + args.plugin,
           "-fplugin-arg-seqlint-checks=" + args.checks] + stubs + flags + [path]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    findings, errors = [], []
    base = os.path.realpath(path)
    for line in p.stderr.splitlines():
        n = NOTE.match(line)
        if n and findings and os.path.exists(n.group(1)) and \
                os.path.realpath(n.group(1)) == os.path.realpath(path):
            findings[-1][4].add(int(n.group(2)))
            continue
        m = DIAG.match(line)
        if not m:
            continue
        file, lno, sev, msg, check = m.group(1), int(m.group(2)), m.group(4), m.group(5), m.group(6)
        if sev == "error" and not check:
            errors.append(line)
            continue
        if not check:
            continue
        same = os.path.exists(file) and os.path.realpath(file) == base
        findings.append((lno if same else None, check, msg, line, set()))
    if p.returncode != 0 and not errors and not findings:
        errors.append(p.stderr.strip() or "exit status %d" % p.returncode)
    return findings, errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="+", help="corpus directories")
    ap.add_argument("--clang", default="clang-19")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--include", required=True, help="the kernel stub headers (test/Inputs/kernel)")
    ap.add_argument("--checks", default="*", help="plugin check globs (default: every check)")
    ap.add_argument("--prefix", action="append", default=[],
                    help="score only cases with this prefix (repeatable)")
    ap.add_argument("--min-recall", type=int, default=None, help="fail below this many bugs found")
    ap.add_argument("--max-fp", type=int, default=None, help="fail above this many false positives")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every case")
    args = ap.parse_args()

    if not os.path.exists(args.plugin):
        print("score.py: no plugin at %s" % args.plugin, file=sys.stderr)
        return 2
    dpdk = dpdk_flags()
    bugs = found = fp = skipped = broken = 0
    per_prefix = {}
    for corpus in args.corpus:
        if not os.path.isdir(corpus):
            print("score.py: %s: not a directory" % corpus, file=sys.stderr)
            return 2
        for name in sorted(os.listdir(corpus)):
            m = CASE.match(name)
            if not m or (args.prefix and m.group("prefix") not in args.prefix):
                continue
            path = os.path.join(corpus, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            flags = case_flags(text, dpdk)
            if flags is None:
                skipped += 1
                print("SKIP  %s (needs DPDK headers)" % name)
                continue
            marks = {}
            for i, line in enumerate(text.splitlines(), 1):
                for check in MARK.findall(line):
                    marks.setdefault(i, set()).add(check)
            findings, errors = run_case(args, path, flags)
            pp = per_prefix.setdefault(m.group("prefix"), [0, 0, 0])
            if errors:
                broken += 1
                print("BROKEN %s: %s" % (name, errors[0]))
                continue
            matched = set()
            extra = []
            for lno, check, msg, line, inside in findings:
                hit = [l for l in [lno] + sorted(inside) if l in marks and check in marks[l]]
                if hit:
                    matched.add((hit[0], check))
                else:
                    extra.append((lno, check, msg, line))
            if m.group("kind") == "bug":
                want = {(l, c) for l, cs in marks.items() for c in cs}
                if not want:
                    broken += 1
                    print("BROKEN %s: a bug case with no EXPECT marker" % name)
                    continue
                bugs += len(want)
                found += len(want & matched)
                pp[0] += len(want)
                pp[1] += len(want & matched)
                status = "FOUND" if want <= matched else ("PART" if matched else "MISS")
            else:
                status = "OK" if not extra else "FP"
            fp += len(extra)
            pp[2] += len(extra)
            if args.verbose or status in ("MISS", "PART", "FP"):
                print("%-6s %s" % (status, name))
                for lno, check, msg, _line in extra:
                    where = "line %s" % lno if lno else "another file"
                    tag = "elsewhere" if m.group("kind") == "bug" else "finding"
                    print("       %s: %s: %s [%s]" % (tag, where, msg[:100], check))
    for prefix in sorted(per_prefix):
        b, f, p = per_prefix[prefix]
        print("prefix %-4s bugs found %d of %d, false positives %d" % (prefix, f, b, p))
    print("recall: %d of %d bugs found; false positives: %d; broken: %d; skipped: %d"
          % (found, bugs, fp, broken, skipped))
    status = 0
    if broken:
        status = 1
    if args.min_recall is not None and found < args.min_recall:
        print("score.py: recall %d is below the floor %d" % (found, args.min_recall))
        status = 1
    if args.max_fp is not None and fp > args.max_fp:
        print("score.py: %d false positives, more than the ceiling %d" % (fp, args.max_fp))
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
