#!/usr/bin/env python3
"""Refactor guard: a change that should not change behaviour must leave the
plugin's output byte for byte as it was.

For every C file of the test suite (test/checkers, test/held-out, or the
files and directories given), compile it with the plugin as the metamorphic
harness does (its RUN lines' flags, a held-out case's FLAGS line, -I
test/Inputs/kernel unless its RUN line is `%clang -fplugin=%plugin`,
-iquote its directory), with every check on
(-fplugin-arg-seqlint-checks=*) and -fplugin-arg-seqlint-dump-events, and
keep what the compiler prints (stdout, stderr, exit status). Then compare
with the same for another build of the plugin, or with a saved baseline:

    # once, from the code before the refactoring (a build of it):
    refactor-guard.py --plugin /tmp/flow-base/lib/seqlint.so --save /tmp/flow-baseline
    # before each commit:
    refactor-guard.py --plugin build-dev/lib/seqlint.so --baseline /tmp/flow-baseline
    # or two builds side by side:
    refactor-guard.py --plugin build-dev/lib/seqlint.so --against OLD/seqlint.so

Prints each run that differs (a unified diff, first --max-diff lines) and
`guard: R runs over F files, D differ, O reordered`; exit status 1 when
D > 0 (or a baseline run is missing). A run whose diagnostics are the same
but in another order (each with its notes and snippets; the event dump must
still be identical) is listed as REORDERED and does not fail (a baseline
from before access-plain-shared's order was fixed holds one of its old,
run-dependent orders). Keep baselines outside the repository: the paths
in the output are the files' own, so run the guard from the same tree the
baseline was made in. Standard library only.
"""

import argparse
import concurrent.futures
import difflib
import hashlib
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "metamorphic"))
import run as metamorphic  # noqa: E402  (tools/metamorphic/run.py)

SRC_ROOT = os.path.abspath(os.path.join(HERE, ".."))
DEFAULT_DIRS = [os.path.join(SRC_ROOT, "test", "checkers"),
                os.path.join(SRC_ROOT, "test", "held-out")]


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clang", default="clang-19", help="clang that loads the plugin")
    p.add_argument("--plugin", required=True, help="the plugin under test")
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", metavar="DIR", help="write the outputs to DIR (a baseline)")
    mode.add_argument("--baseline", metavar="DIR", help="compare with a baseline saved in DIR")
    mode.add_argument("--against", metavar="PLUGIN", help="compare with another plugin build")
    p.add_argument("-j", type=int, default=2, help="compiles in parallel (default 2)")
    p.add_argument("--max-diff", type=int, default=40, help="diff lines shown per run")
    p.add_argument("files", nargs="*", help="C files or directories (default: the test suite)")
    return p.parse_args(argv)


def guard_flags(flags):
    """A RUN line's flags with its check list replaced by every check and
    the event dump added."""
    out, i = [], 0
    while i < len(flags):
        f = flags[i]
        if f.startswith("-fplugin-arg-seqlint-checks="):
            i += 1
            continue
        if (f == "-Xclang" and i + 3 < len(flags) and flags[i + 1] == "-plugin-arg-seqlint"
                and flags[i + 3].startswith("checks=")):
            i += 4
            continue
        out.append(f)
        i += 1
    return out + ["-fplugin-arg-seqlint-checks=*", "-fplugin-arg-seqlint-dump-events"]


def runs_of(path, subst, feats):
    """(name, flags) of each compile of path; [] when the file needs a
    feature this machine lacks."""
    configs, why = metamorphic.file_configs(path, subst, feats)
    if not configs:
        if why.startswith("requires "):
            return []
        configs = [[]]  # a dump-events or %t test: the plain compile
    rel = os.path.relpath(path, SRC_ROOT)
    return [("%s#%d" % (rel, n), guard_flags(flags)) for n, flags in enumerate(configs)]


def output_of(clang, plugin, inputs, path, flags):
    stubs, flags = metamorphic.stub_includes(inputs, flags)
    cmd = ([clang, "-fsyntax-only", "-fplugin=" + plugin] + stubs
           + ["-iquote", os.path.dirname(os.path.abspath(path))]
           + flags + ["-fno-color-diagnostics", path])
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       cwd=SRC_ROOT, env=dict(os.environ, LC_ALL="C"))
    return (b"== " + " ".join(cmd[1:]).replace(plugin, "PLUGIN").encode() + b"\n"
            + b"== stdout\n" + r.stdout + b"== stderr\n" + r.stderr
            + b"== exit %d\n" % r.returncode)


DIAG_RE = re.compile(rb"^\S.*:\d+:\d+: (?:fatal error|error|warning|remark): ")
ATTACHED_RE = re.compile(rb"^(?:\S.*:\d+:\d+: note: |\s*\d*\s\|)")


def canonical(out):
    """out with its diagnostics (each with its notes and source snippets)
    sorted, everything else in place: what the compiler said whatever the
    order it said it in."""
    rest, diags = [], []
    for line in out.split(b"\n"):
        if DIAG_RE.match(line):
            diags.append([line])
        elif diags and ATTACHED_RE.match(line) and rest[-1:] == [None]:
            diags[-1].append(line)
            continue
        else:
            rest.append(line)
            continue
        rest.append(None)  # where a diagnostic stood
    return [l for l in rest if l is not None], sorted(diags)


def saved_name(name):
    return hashlib.sha1(name.encode()).hexdigest()[:16] + ".out"


def main(argv):
    args = parse_args(argv)
    inputs = os.path.join(SRC_ROOT, "test", "Inputs")
    subst = metamorphic.substitutions(SRC_ROOT, inputs)
    feats = metamorphic.features(args.clang, subst)
    files = sorted(set(os.path.abspath(f) for f in
                       metamorphic.expand_files(args.files or DEFAULT_DIRS)))
    runs = [(name, path, flags) for path in files for name, flags in runs_of(path, subst, feats)]

    def one(run):
        name, path, flags = run
        new = output_of(args.clang, args.plugin, inputs, path, flags)
        if args.save:
            with open(os.path.join(args.save, saved_name(name)), "wb") as f:
                f.write(new)
            return None
        if args.against:
            return new, output_of(args.clang, args.against, inputs, path, flags)
        try:
            with open(os.path.join(args.baseline, saved_name(name)), "rb") as f:
                return new, f.read()
        except OSError:
            return new, None

    if args.save:
        os.makedirs(args.save, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        results = list(pool.map(one, runs))
    if args.save:
        print("guard: saved %d runs over %d files to %s" % (len(runs), len(files), args.save))
        return 0
    differ = reordered = 0
    for (name, _, _), (new, old) in zip(runs, results):
        if old == new:
            continue
        if old is not None and canonical(old) == canonical(new):
            # The same diagnostics in another order: seqlint emits some of
            # them in an order that varies from run to run (a bug of its
            # own, not of the change), so this is not a difference.
            reordered += 1
            print("REORDERED %s: the same diagnostics in another order" % name)
            continue
        differ += 1
        if old is None:
            print("MISSING %s: not in the baseline" % name)
            continue
        print("DIFFERS %s" % name)
        diff = difflib.unified_diff(old.decode(errors="replace").splitlines(),
                                    new.decode(errors="replace").splitlines(),
                                    "before", "after", lineterm="", n=1)
        for n, line in enumerate(diff):
            if n == args.max_diff:
                print("  ...")
                break
            print("  " + line)
    print("guard: %d runs over %d files, %d differ, %d reordered"
          % (len(runs), len(files), differ, reordered))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
