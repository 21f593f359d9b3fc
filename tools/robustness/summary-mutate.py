#!/usr/bin/env python3
"""Robustness of the program-wide join against damaged summaries.

summary-mutate.py --clang CLANG --plugin SO --summaries DIR [-n 300] [--seed 1]

Takes the valid summaries in DIR (*.mp.json, written by
-fplugin-arg-seqlint-summary=), and N times damages one of them — a value
replaced by one of another type or out of range, a key removed, the file cut
short, a byte changed — and runs the join on the damaged set:

    CLANG -fplugin=SO -fsyntax-only -x c /dev/null -fplugin-arg-seqlint-join=...

Every run must end with exit status 0 (the damage left a valid summary, or one
whose sides are dropped) or 1 with a "seqlint:" error that names the summary;
a signal, a crash report or an error without that text is a failure. Fixed
seeds: a failure is replayed by its seed, and its damaged file is kept.
Prints "N runs, N failures (N rejected with an error, N accepted)"; exit
status 1 on any failure.
"""
import argparse
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

ODD_VALUES = [None, True, False, 0, -1, 1 << 40, 2 ** 31 - 1, 1.5, "", "x" * 300,
              "F:", [], [0], [0, 0, 0], [99999, 1, 1], [0, 0], {}, {"a": 1}]


def paths(v, prefix=()):
    """Every (path, value) inside a JSON value."""
    yield prefix, v
    if isinstance(v, dict):
        for k, x in v.items():
            yield from paths(x, prefix + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from paths(x, prefix + (i,))


def set_at(root, path, value, delete=False):
    cur = root
    for p in path[:-1]:
        cur = cur[p]
    if delete:
        del cur[path[-1]]
    else:
        cur[path[-1]] = value


def damage(text, rng):
    """One damaged version of a summary's text."""
    kind = rng.choice(["value", "value", "value", "delete", "truncate", "byte"])
    if kind == "truncate":
        return text[:rng.randrange(len(text))], "truncated"
    if kind == "byte":
        i = rng.randrange(len(text))
        return text[:i] + chr(rng.randrange(32, 127)) + text[i + 1:], "byte %d" % i
    root = json.loads(text)
    spots = [p for p, _ in paths(root) if p]
    if not spots:
        return text[:-1], "truncated"
    path = rng.choice(spots)
    if kind == "delete":
        set_at(root, path, None, delete=True)
        return json.dumps(root), "deleted %s" % (path,)
    value = rng.choice(ODD_VALUES)
    set_at(root, path, value)
    return json.dumps(root), "%s = %r" % (path, value)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clang", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--summaries", required=True)
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", default=None, help="where failing inputs go")
    a = ap.parse_args()

    files = sorted(glob.glob(os.path.join(a.summaries, "*.mp.json")))
    if not files:
        sys.exit("summary-mutate.py: no *.mp.json in %s" % a.summaries)
    texts = {f: open(f).read() for f in files}
    work = tempfile.mkdtemp(prefix="seqlint-summary-mutate-")
    failures = rejected = 0
    try:
        for n in range(a.n):
            seed = a.seed + n
            rng = random.Random(seed)
            victim = rng.choice(files)
            shutil.rmtree(work)
            os.mkdir(work)
            for f in files:
                shutil.copy(f, work)
            bad, what = damage(texts[victim], rng)
            target = os.path.join(work, os.path.basename(victim))
            with open(target, "w") as out:
                out.write(bad)
            p = subprocess.run([a.clang, "-fplugin=" + a.plugin, "-fsyntax-only", "-x", "c",
                                "/dev/null", "-fplugin-arg-seqlint-join=" + work],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, errors="replace")
            err = p.stderr
            ok = (p.returncode == 0 and "PLEASE submit" not in err) or \
                 (p.returncode == 1 and "error: seqlint: " in err and
                  os.path.basename(victim) in err and "PLEASE submit" not in err)
            if ok and p.returncode == 1:
                rejected += 1
            if not ok:
                failures += 1
                print("seed %d: %s in %s: exit %d\n%s" % (seed, what, os.path.basename(victim),
                                                       p.returncode, err[-2000:]))
                if a.keep:
                    os.makedirs(a.keep, exist_ok=True)
                    shutil.copy(target, os.path.join(a.keep, "seed%d.mp.json" % seed))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%d runs, %d failures (%d rejected with an error, %d accepted)"
          % (a.n, failures, rejected, a.n - failures - rejected))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
