#!/usr/bin/env python3
"""The runner's own cost, measured from the compilers' side.

runner-gaps.py [--db DIR] [--runner BIN] [--plugin SO] [--jobs 1,2]

Wall-time comparisons of whole runs (run.sh --parts set) carry several
percent of noise. This measures the runner's overhead directly: every
compiler of the database is replaced by a wrapper that records when it
starts and ends (the wrapper then runs the entry's own compiler), the runner
analyses the database, and the report says how long the compile slots stood
idle while files were still waiting:

  -j1: runner wall time - time inside the compilers (start-up, the gaps
       between one compile's end and the next one's start, the end);
  -jN: slot time with fewer than N compilers running before the last compile
       started, as a share of N x wall time (the tail, when no file is left
       to start, is not the runner's).

The wrapper's own cost (a shell and two `date` calls per file) counts as
compile time, so the figures are the runner's alone. Prints one line per -j.
"""
import argparse
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

WRAPPER = """#!/bin/sh
s=$(date +%%s%%N)
%s "$@"
rc=$?
echo "$s $(date +%%s%%N)" >> "%s"
exit $rc
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", default=os.environ.get("SEQLINT_KERNEL_WORKDIR", "/var/tmp/seqlint-kernel"))
    ap.add_argument("--runner", default=os.path.join(ROOT, "build", "bin", "seqlint"))
    ap.add_argument("--plugin", default=os.path.join(ROOT, "build", "lib", "seqlint.so"))
    ap.add_argument("--jobs", default="1,2")
    a = ap.parse_args()
    db = json.load(open(os.path.join(a.db, "compile_commands.json")))
    tmp = tempfile.mkdtemp(prefix="seqlint-gaps-")
    try:
        log = os.path.join(tmp, "times.log")
        wrappers = {}
        for e in db:
            args = e.get("arguments") or e["command"].split(" ", 1)
            cc = args[0]
            if cc not in wrappers:
                w = os.path.join(tmp, "cc%d.sh" % len(wrappers))
                real = shutil.which(cc, path=os.environ.get("PATH")) if "/" not in cc else \
                    os.path.join(e["directory"], cc)
                with open(w, "w") as f:
                    f.write(WRAPPER % (real, log))
                os.chmod(w, os.stat(w).st_mode | stat.S_IXUSR)
                wrappers[cc] = w
            if "arguments" in e:
                e["arguments"] = [wrappers[cc]] + e["arguments"][1:]
            else:
                e["command"] = wrappers[cc] + " " + args[1]
        os.mkdir(os.path.join(tmp, "db"))
        json.dump(db, open(os.path.join(tmp, "db", "compile_commands.json"), "w"))
        plugin = os.path.join(tmp, "seqlint.so")
        shutil.copy(a.plugin, plugin)
        for j in [int(x) for x in a.jobs.split(",")]:
            if os.path.exists(log):
                os.unlink(log)
            t0 = time.time_ns()
            p = subprocess.run([a.runner, "-p", os.path.join(tmp, "db"), "-j", str(j),
                                "--plugin=" + plugin, "-o", os.devnull],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               universal_newlines=True)
            t1 = time.time_ns()
            if p.returncode not in (0, 1):
                sys.exit("runner-gaps.py: the runner failed (%d): %s" % (p.returncode, p.stderr[-500:]))
            rows = sorted(tuple(map(int, l.split())) for l in open(log))
            wall = (t1 - t0) / 1e9
            inside = sum(b - a_ for a_, b in rows) / 1e9
            if j == 1:
                idle = wall - inside
                share = idle / inside * 100
                print("-j1: %d compiler runs, wall %.2f s, inside the compilers %.2f s: "
                      "runner overhead %.2f s = %.2f%%" % (len(rows), wall, inside, idle, share))
                continue
            last_start = max(s for s, _ in rows)
            events = sorted([(s, 1) for s, _ in rows] + [(e_, -1) for _, e_ in rows])
            idle, cur, t = 0, 0, t0
            for x, d in events:
                if x > last_start:
                    break
                if cur < j:
                    idle += (j - cur) * (x - t)
                cur += d
                t = x
            print("-j%d: %d compiler runs, wall %.2f s, %d slots idle %.2f s while files "
                  "waited = %.2f%% of %d x wall" % (j, len(rows), wall, j, idle / 1e9,
                                                    idle / 1e9 / j / wall * 100, j))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
