#!/usr/bin/env python3
"""Metamorphic test harness for seqlint (see README.md next to this file).

For each test file: compile it with the plugin as its RUN line does, rewrite
it with seqlint-metamorph into semantically equivalent variants (rename,
helper), compile each variant the same way, and compare the findings in the
file itself as sets of (check, line). Both rewrites keep every line number,
so a finding that moved, vanished or appeared is a finding seqlint reports
differently on equivalent code: a generalization bug.

    run.py --clang clang-19 --plugin build/lib/seqlint.so \\
           --metamorph build/bin/seqlint-metamorph test/checkers/**/*.c

Prints one line per file and rewrite (SAME, CHANGED with the lost and new
findings, N/A, SKIP, BROKEN) and a summary:

    variants run: N, findings changed: M

Exit status 1 when M > 0 or a variant is BROKEN (it does not compile: a bug
of the harness, not of seqlint). --allow-changed FILE lists known-changed
`file:rewrite reason` pairs: they are reported as KNOWN and do not fail.
Standard library only.
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

REWRITES = ("rename", "helper")

# file:line:col: warning: message [seqlint-check] (clang 22 appends
# " [-Wuser-defined-warnings]"); -Werror turns the warning into an error.
FINDING_RE = re.compile(
    r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?:warning|error): .*"
    r"\[seqlint-(?P<check>[a-z0-9-]+)\](?: \[-W[^\]]*\])?\s*$")
ERROR_RE = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?:fatal )?error: (?P<msg>.*)$")
RUN_RE = re.compile(r"^\s*(?://|#)\s*RUN:\s?(?P<cmd>.*)$")
REQUIRES_RE = re.compile(r"^\s*(?://|#)\s*REQUIRES:\s*(?P<feats>.*)$")
HELPER_LINE_RE = re.compile(r"static inline void h\d+\(")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clang", default="clang-19", help="clang that loads the plugin")
    p.add_argument("--plugin", required=True, help="seqlint.so")
    p.add_argument("--metamorph", required=True, help="seqlint-metamorph binary")
    p.add_argument("--inputs", help="test/Inputs directory (default: next to test/checkers)")
    p.add_argument("--src-root", help="repository root, for %%src_root (default: from this script)")
    p.add_argument("--allow-changed", help="file of known-changed 'file:rewrite reason' lines")
    p.add_argument("--rewrite", action="append", choices=REWRITES,
                   help="run only this rewrite (repeatable; default: all)")
    p.add_argument("--fake-rewrite", metavar="SED",
                   help="self-test only: an extra rewrite 'fake' that replaces the regex "
                        "OLD by NEW in the file, given as s/OLD/NEW/ (no line may move)")
    p.add_argument("-j", type=int, default=2, help="files in parallel (default 2)")
    p.add_argument("-v", "--verbose", action="store_true", help="print the commands")
    p.add_argument("files", nargs="+", help="test files, or directories to search for .c files")
    return p.parse_args(argv)


# --- RUN lines ------------------------------------------------------------

def run_lines(path):
    """The file's RUN commands, continuation lines joined, and REQUIRES."""
    cmds, reqs, cur = [], [], ""
    with open(path, errors="replace") as f:
        for line in f:
            m = REQUIRES_RE.match(line)
            if m:
                reqs += [r.strip() for r in m.group("feats").split(",") if r.strip()]
            m = RUN_RE.match(line)
            if not m:
                continue
            part = m.group("cmd").rstrip()
            if part.endswith("\\"):
                cur += part[:-1] + " "
                continue
            cmds.append((cur + part).strip())
            cur = ""
    return cmds, reqs


FLAGS_RE = re.compile(r"^\s*//\s*FLAGS:\s?(?P<flags>.*)$")


# First of a file's flags when it is compiled without test/Inputs/kernel.
NO_STUBS = "--no-kernel-stubs"


def held_out_case(path):
    return re.match(r"[a-z]+\d?-(bug|ok)-\d+", os.path.basename(path)) is not None


def held_out_flags(path, subst):
    """The flags the held-out scorer compiles a case with, or None when the
    file is no held-out case (or its flags cannot be had here)."""
    if not held_out_case(path):
        return None
    flags = ["-fplugin-arg-seqlint-checks=*"]
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = FLAGS_RE.match(line)
            if not m:
                continue
            text = m.group("flags").strip()
            if "@dpdk@" in text:
                if "%dpdk_cflags" not in subst:
                    return None
                text = text.replace("@dpdk@", subst["%dpdk_cflags"])
            flags += shlex.split(text)
    # A user-space case (// FLAGS: --no-kernel-stubs) sees the system's
    # <linux/...> headers, not test/Inputs/kernel.
    if NO_STUBS in flags:
        flags = [NO_STUBS] + [f for f in flags if f != NO_STUBS]
    return flags


def stub_includes(inputs, flags):
    """(-I <inputs>/kernel unless the file opts out, the other flags)."""
    if flags[:1] == [NO_STUBS]:
        return [], flags[1:]
    return ["-I" + os.path.join(inputs, "kernel")], flags


def plugin_flags(cmd, subst):
    """The flags of one RUN command that matter to the findings, or
    (None, reason) when the command is not a plain -fsyntax-only run of the
    plugin on the file."""
    for bad, why in (("dump-events", "dumps events"), ("parseable-fixits", "tests fix-its"),
                     ("%t", "uses temporary files"), ("cd ", "runs in another directory")):
        if bad in cmd:
            return None, why
    head = cmd.split("|")[0]
    try:
        toks = shlex.split(head)
    except ValueError:
        return None, "unparsable RUN line"
    # `%clang -fplugin=%plugin`: a file that must not see the kernel stubs
    # of test/Inputs/kernel (it includes the system's <linux/...> headers).
    own = toks[:2] == ["%clang", "-fplugin=%plugin"]
    if own:
        toks = ["%clang_plugin"] + toks[2:]
    if "%clang_plugin" not in toks or "-fsyntax-only" not in toks or "%s" not in toks:
        return None, "not '%clang_plugin -fsyntax-only ... %s'"
    toks = toks[toks.index("%clang_plugin") + 1:]
    flags, i = ([NO_STUBS] if own else []), 0
    while i < len(toks):
        t = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if t in ("%s", "-fsyntax-only") or t.startswith("2>") or t.startswith(">"):
            i += 1
        elif t == "-Xclang" and (nxt == "-verify" or nxt.startswith("-verify")):
            i += 2
        elif t.startswith("-verify"):
            i += 1
        elif t == "-Xclang" and nxt == "-plugin-arg-seqlint" and i + 3 < len(toks):
            flags += toks[i:i + 4]
            i += 4
        elif t in ("-D", "-I", "-U", "-include", "-isystem", "-iquote") and nxt:
            flags += [t, nxt]
            i += 2
        elif (t.startswith(("-D", "-I", "-U", "-std=", "-fplugin-arg-seqlint-", "-W", "-w"))
              or t.startswith("-f")):
            flags.append(t)
            i += 1
        elif t.startswith("%"):
            if t not in subst:
                return None, "unknown substitution %s" % t
            flags += shlex.split(subst[t])
            i += 1
        else:
            return None, "unexpected RUN argument %r" % t
    return [expand(f, subst) for f in flags], None


def expand(flag, subst):
    for k in sorted(subst, key=len, reverse=True):
        flag = flag.replace(k, subst[k])
    return flag


def substitutions(src_root, inputs):
    subst = {"%src_root": src_root, "%inputs": inputs,
             "%kernel_inc": os.path.join(inputs, "kernel")}
    try:
        r = subprocess.run(["pkg-config", "--cflags", "libdpdk"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, universal_newlines=True, timeout=30)
        if r.returncode == 0:
            subst["%dpdk_cflags"] = r.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return subst


def features(clang, subst):
    """The lit features we can tell without lit (see test/lit.cfg.py)."""
    feats = {"plugin"}
    if "%dpdk_cflags" in subst and os.path.exists("/usr/include/dpdk/rte_seqcount.h"):
        feats.add("dpdk-headers")
    if os.path.exists("/usr/include/ck_sequence.h"):
        feats.add("ck-headers")
    if os.path.exists("/usr/include/linux/perf_event.h"):
        feats.add("linux-uapi-headers")
    try:
        out = subprocess.run([clang, "--version"], stdout=subprocess.PIPE,
                             universal_newlines=True).stdout
        m = re.search(r"clang version (\d+)", out)
        if m:
            feats.add("llvm-" + m.group(1))
    except OSError:
        pass
    return feats


# --- compiling and comparing --------------------------------------------

def compile_findings(args, path, flags, include_dir):
    """(findings, errors) of the plugin on path: findings a set of (check,
    line) in path itself; errors the compiler errors that are not findings."""
    stubs, flags = stub_includes(args.inputs, flags)
    cmd = ([args.clang, "-fsyntax-only", "-fplugin=" + args.plugin]
           + stubs + ["-iquote", include_dir]
           + flags + ["-fno-color-diagnostics", path])
    if args.verbose:
        print("+ " + " ".join(shlex.quote(c) for c in cmd), file=sys.stderr)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, env=dict(os.environ, LC_ALL="C"))
    found, errors = set(), []
    for line in r.stdout.splitlines():
        m = FINDING_RE.match(line)
        if m:
            if os.path.abspath(m.group("file")) == os.path.abspath(path):
                found.add((m.group("check"), int(m.group("line"))))
            continue
        m = ERROR_RE.match(line)
        if m:
            errors.append(line)
    return found, errors


def make_variant(args, rewrite, path, flags, out):
    """Writes the variant to out; returns (status, message) with status one
    of 'ok', 'n/a', 'broken'."""
    if rewrite == "fake":
        return fake_variant(args.fake_rewrite, path, out)
    stubs, flags = stub_includes(args.inputs, flags)
    meta_flags = [f for f in flags if not f.startswith(("-fplugin-arg", "-W", "-w"))]
    meta_flags = drop_plugin_xclang(meta_flags)
    cmd = ([args.metamorph, "--rewrite=" + rewrite, "-o", out, path, "--"]
           + stubs + meta_flags)
    if args.verbose:
        print("+ " + " ".join(shlex.quote(c) for c in cmd), file=sys.stderr)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if r.returncode == 3:
        return "n/a", ""
    if r.returncode != 0:
        return "broken", "seqlint-metamorph exit %d: %s" % (r.returncode, r.stderr.strip()[-400:])
    return "ok", ""


def drop_plugin_xclang(flags):
    out, i = [], 0
    while i < len(flags):
        if flags[i] == "-Xclang" and i + 1 < len(flags) and flags[i + 1] == "-plugin-arg-seqlint":
            i += 4
            continue
        out.append(flags[i])
        i += 1
    return out


def fake_variant(sed, path, out):
    """The self-test's injected rewrite: a regex replacement on every line."""
    m = re.match(r"^s/(.*)/(.*)/$", sed or "")
    if not m:
        return "broken", "--fake-rewrite wants s/OLD/NEW/"
    with open(path) as f:
        text = f.read()
    new = re.sub(m.group(1), m.group(2), text)
    if new == text:
        return "n/a", ""
    with open(out, "w") as f:
        f.write(new)
    return "ok", ""


def helper_lines(path):
    with open(path, errors="replace") as f:
        return {i + 1 for i, l in enumerate(f) if HELPER_LINE_RE.search(l)}


def fmt(findings, helpers=frozenset()):
    return ", ".join("%d:%s%s" % (line, check, " (inside an inserted helper)" if line in helpers else "")
                     for check, line in sorted(findings, key=lambda f: (f[1], f[0])))


def file_configs(path, subst, feats):
    """(configs, why): the distinct flag lists the file is compiled with
    (its RUN lines, or a held-out case's FLAGS), or ([], why not)."""
    cmds, reqs = run_lines(path)
    missing = [r for r in reqs if r not in feats]
    if missing:
        return [], "requires " + ", ".join(missing)
    configs, why = [], "no RUN line"
    if not cmds:
        # A held-out case (test/held-out/*): every check on, as the scorer
        # runs it, with its `// FLAGS:` line.
        flags = held_out_flags(path, subst)
        if flags is not None:
            configs.append(flags)
        elif held_out_case(path):
            why = "held-out case with flags this machine lacks"
    for cmd in cmds:
        flags, reason = plugin_flags(cmd, subst)
        if flags is None:
            why = reason
        elif flags not in configs:
            configs.append(flags)
    return configs, why


def check_file(args, path, rewrites, subst, feats, tmp_root):
    """Result lines for one file: a list of (rewrite, status, text)."""
    configs, why = file_configs(path, subst, feats)
    if not configs:
        return [("*", "SKIP", why)]

    base = os.path.basename(path)
    tmp = tempfile.mkdtemp(prefix="metamorph-", dir=tmp_root)
    # Original and variants are compiled from copies in sibling directories
    # with the same name, so that the path is no difference between them.
    orig = os.path.join(tmp, "original", base)
    os.makedirs(os.path.dirname(orig))
    shutil.copyfile(path, orig)
    include_dir = os.path.dirname(os.path.abspath(path))
    results = []
    for rewrite in rewrites:
        variant = os.path.join(tmp, rewrite, base)
        os.makedirs(os.path.dirname(variant))
        status, msg = make_variant(args, rewrite, path, configs[0], variant)
        if status == "n/a":
            results.append((rewrite, "N/A", "rewrite does not apply"))
            continue
        if status == "broken":
            results.append((rewrite, "BROKEN", msg))
            continue
        helpers = helper_lines(variant) - helper_lines(orig)
        diffs = []
        for n, flags in enumerate(configs):
            before, errs0 = compile_findings(args, orig, flags, include_dir)
            after, errs1 = compile_findings(args, variant, flags, include_dir)
            new_errs = [e for e in errs1 if e.split(": ", 1)[-1] not in
                        {x.split(": ", 1)[-1] for x in errs0}]
            if new_errs:
                status = "BROKEN"
                diffs.append("variant does not compile: " + new_errs[0])
                break
            lost, new = before - after, after - before
            if lost or new:
                tag = " (RUN %d)" % (n + 1) if len(configs) > 1 else ""
                diffs.append("lost [%s] new [%s]%s" % (fmt(lost), fmt(new, helpers), tag))
        if status == "BROKEN":
            results.append((rewrite, "BROKEN", "; ".join(diffs)))
        elif diffs:
            results.append((rewrite, "CHANGED", "; ".join(diffs)))
        else:
            results.append((rewrite, "SAME", ""))
    shutil.rmtree(tmp, ignore_errors=True)
    return results


def load_allowed(path):
    """{(file suffix, rewrite): reason} from a known-changed list."""
    allowed = {}
    if not path:
        return allowed
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, reason = line.partition(" ")
            file, sep, rewrite = key.rpartition(":")
            if not sep or rewrite not in REWRITES + ("fake",) or not reason.strip():
                sys.exit("%s:%d: want 'file:rewrite reason'" % (path, n))
            allowed[(os.path.normpath(file), rewrite)] = reason.strip()
    return allowed


def allowed_reason(allowed, path, rewrite):
    norm = os.path.normpath(os.path.abspath(path))
    for (file, rw), reason in allowed.items():
        if rw == rewrite and (norm == file or norm.endswith(os.sep + file)):
            return reason
    return None


def expand_files(paths):
    """Files as given; directories give every .c file under them."""
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in os.walk(p):
                for n in names:
                    if n.endswith(".c"):
                        yield os.path.join(d, n)
        else:
            yield p


def main(argv):
    args = parse_args(argv)
    here = os.path.dirname(os.path.abspath(__file__))
    src_root = os.path.abspath(args.src_root or os.path.join(here, "..", ".."))
    args.inputs = os.path.abspath(args.inputs or os.path.join(src_root, "test", "Inputs"))
    for tool in (args.plugin, args.metamorph):
        if not os.path.exists(tool):
            sys.exit("run.py: %s not found" % tool)
    rewrites = list(args.rewrite or REWRITES)
    if args.fake_rewrite:
        rewrites = ["fake"]
    subst = substitutions(src_root, args.inputs)
    feats = features(args.clang, subst)
    allowed = load_allowed(args.allow_changed)
    files = sorted(set(expand_files(args.files)))
    tmp_root = tempfile.mkdtemp(prefix="seqlint-metamorph-")
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
            futures = {f: pool.submit(check_file, args, f, rewrites, subst, feats, tmp_root)
                       for f in files}
            results = {f: futures[f].result() for f in files}
    finally:
        shutil.rmtree(tmp_root, ignore_errors=True)

    run = changed = known = broken = stale = 0
    used_allowed = set()
    for f in files:
        rel = os.path.relpath(f, src_root) if os.path.abspath(f).startswith(src_root) else f
        for rewrite, status, text in results[f]:
            if status in ("SAME", "CHANGED", "BROKEN"):
                run += 1
            if status == "CHANGED":
                reason = allowed_reason(allowed, f, rewrite)
                if reason is not None:
                    status, text = "KNOWN", "%s (known: %s)" % (text, reason)
                    known += 1
                    used_allowed.add((rel, rewrite))
                else:
                    changed += 1
            elif status == "BROKEN":
                broken += 1
            elif status == "SAME" and allowed_reason(allowed, f, rewrite) is not None:
                # A stale entry would hide the next regression of this pair.
                status, text = "STALE", "known-changed entry no longer changes: remove it"
                stale += 1
            print("%s %s: %s%s" % (status, rewrite, rel, (" " + text) if text else ""))
    print("variants run: %d, findings changed: %d, known changed: %d, broken: %d, "
          "stale known entries: %d" % (run, changed, known, broken, stale))
    return 1 if changed or broken or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
