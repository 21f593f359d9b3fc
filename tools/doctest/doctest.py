#!/usr/bin/env python3
"""doctest.py --plugin P --runner R [--tidy T] [--prefix INSTALLED] --work DIR DOC...

Runs the commands of the fenced blocks of DOC that a marker line right above
them makes runnable, in a fresh sandbox (file.c, a C11 writer, and writer.c,
the article's writer, both without the write barrier; include/, the kernel
stubs; a Makefile and a CMakeLists.txt (mylib from file.c);
build/compile_commands.json; examples/, a copy of the bundled examples with
their databases), so that what the docs tell users to type keeps working.

    <!-- doctest: status=0 -->          a ```sh block: each command (joined
                                        over trailing backslashes) must exit
                                        with one of the listed statuses, and
                                        print no "error:" (errors-ok lifts it)
    <!-- doctest: cmake-project status=0 expect=TEXT -->
                                        a ```cmake block: appended to the
                                        sandbox's CMakeLists.txt (mylib from
                                        file.c), configured against the
                                        seqlint installed in --prefix, built;
                                        the output must contain TEXT
    <!-- doctest-skip: why -->          a block that cannot run here (it
                                        changes the system, needs the kernel
                                        tree, is sample output...), with the
                                        reason; a block with neither marker
                                        is a failure
    <!-- doctest: console cwd=/home/me/proj -->
                                        a ```console block: each "$ cmd" runs
                                        and its output (stdout then stderr,
                                        trailing spaces trimmed, the sandbox
                                        path shown as cwd=) must be the lines
                                        that follow it, exactly

In commands, /path/to/seqlint.so, build/lib/seqlint.so and $SEQLINT are the
plugin under test, build/lib/seqlint-tidy.so the tidy module,
/path/to/seqlint/scripts/ this checkout's scripts/, and `seqlint` the runner.
Exit status 1 with a report per failing command; prints a summary line."""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
MARK = re.compile(r"^<!-- doctest:?(.*?)-->\s*$")
SKIP = re.compile(r"^<!-- doctest-skip:(.*?)-->\s*$")


def blocks(path):
    """Every fenced block of PATH: (line of its first body line, kind, opts,
    body). opts is the marker's options, {"skip": reason} for a skip
    marker, or None for a block with no marker."""
    lines = open(path).read().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            opts = None
            s = SKIP.match(lines[i - 1]) if i else None
            m = MARK.match(lines[i - 1]) if i and not s else None
            if m:
                opts = dict(kv.split("=", 1) if "=" in kv else (kv, "1")
                            for kv in m.group(1).split())
            elif s:
                opts = {"skip": s.group(1).strip()}
            kind = lines[i][3:].strip()
            j = i + 1
            body = []
            while j < len(lines) and not lines[j].startswith("```"):
                body.append(lines[j])
                j += 1
            yield i + 2, kind, opts, body
            i = j
        i += 1


def commands(body):
    out, cur = [], ""
    for line in body:
        if line.rstrip().endswith("\\"):
            cur += line.rstrip()[:-1] + " "
            continue
        cur += line
        cmd = cur.split(" #")[0].strip() if not cur.strip().startswith("#") else ""
        if cmd:
            out.append(cmd)
        cur = ""
    return out


def substitute(cmd, a):
    # One pass: a replacement is never scanned again (the plugin's own path
    # may end in build/lib/seqlint.so).
    table = {
        "/path/to/seqlint/scripts/": os.path.join(SRC, "scripts") + "/",
        "/path/to/seqlint.so": a.plugin,
        "build/lib/seqlint-tidy.so": a.tidy or "build/lib/seqlint-tidy.so",
        "build/lib/seqlint.so": a.plugin,
        "build/bin/seqlint": a.runner,
    }
    pattern = re.compile("|".join(re.escape(k) for k in table))
    return pattern.sub(lambda m: table[m.group(0)], cmd)


def sandbox(root, a):
    if os.path.exists(root):
        shutil.rmtree(root)
    shutil.copytree(os.path.join(HERE, "sandbox"), root)
    # The docs' file.c and writer.c: a C11 writer and the article's kernel-
    # style writer, both without the write barrier (the tests' own inputs).
    shutil.copy(os.path.join(SRC, "test", "plugin", "Inputs", "c11-writer.c"),
                os.path.join(root, "file.c"))
    shutil.copy(os.path.join(SRC, "test", "Inputs", "buggy-writer.c"),
                os.path.join(root, "writer.c"))
    shutil.copytree(os.path.join(SRC, "test", "Inputs", "kernel"), os.path.join(root, "include"))
    # build/compile_commands.json from the template (build/ is ignored by git)
    template = os.path.join(root, "compile_commands.json.in")
    with open(template) as f:
        db = f.read().replace("@DIR@", root)
    os.remove(template)
    os.makedirs(os.path.join(root, "build"), exist_ok=True)
    with open(os.path.join(root, "build", "compile_commands.json"), "w") as f:
        f.write(db)
    shutil.copytree(os.path.join(SRC, "examples"), os.path.join(root, "examples"),
                    ignore=shutil.ignore_patterns("compile_commands.json", "build"))
    subprocess.run([os.path.join(root, "examples", "gen-compile-commands.sh")], check=True,
                   stdout=subprocess.DEVNULL, env=dict(os.environ, CC="cc"))


def run(cmd, root, a):
    env = dict(os.environ)
    bindir = os.path.join(root, ".bin")
    os.makedirs(bindir, exist_ok=True)
    link = os.path.join(bindir, "seqlint")
    if not os.path.lexists(link):
        os.symlink(a.runner, link)
    # clang-tidy, run-clang-tidy, FileCheck...: those of the plugin's LLVM.
    env["PATH"] = os.pathsep.join(p for p in [bindir, a.llvm_bin, env.get("PATH", "")] if p)
    env["SEQLINT"] = a.plugin
    env["SEQLINT_PLUGIN"] = a.plugin
    # One stream, as on a terminal: notes (stderr) before the findings.
    r = subprocess.run(["sh", "-c", cmd], cwd=root, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True, timeout=600)
    return r.returncode, r.stdout, ""


def cmake_project(body, root, opts, a):
    """Builds the sandbox's CMake project (CMakeLists.txt: mylib from file.c)
    with the block appended, against the seqlint installed in --prefix, with
    the compiler the block names in a CMAKE_C_COMPILER=... comment. Returns
    None, or (what went wrong, the output)."""
    if not a.prefix:
        return ("needs --prefix, an installed seqlint for find_package()", "")
    text = "\n".join(body)
    m = re.search(r"CMAKE_C_COMPILER=(\S+)", text)
    with open(os.path.join(root, "CMakeLists.txt"), "a") as f:
        f.write(text + "\n")
    out = ""
    for cmd in (["cmake", "-S", ".", "-B", "cmake-build", "-DCMAKE_PREFIX_PATH=" + a.prefix]
                + (["-DCMAKE_C_COMPILER=" + m.group(1)] if m else []),
                ["cmake", "--build", "cmake-build"]):
        status, o, _ = run(" ".join("'%s'" % c for c in cmd), root, a)
        out += o
        allowed = {int(s) for s in opts.get("status", "0").split(",")}
        if status not in allowed:
            return ("exited %d at `%s`" % (status, " ".join(cmd)), out)
    if "expect" in opts and opts["expect"] not in out:
        return ("built, but its output has no %r" % opts["expect"], out)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--tidy")
    ap.add_argument("--llvm-bin", default="",
                    help="put first on PATH (the clang-tidy of the plugin's major; lit's PATH has it)")
    ap.add_argument("--work", required=True)
    ap.add_argument("--prefix", help="an installed seqlint (cmake --install), for "
                    "find_package(seqlint) in cmake-project blocks")
    ap.add_argument("docs", nargs="+")
    a = ap.parse_args()
    a.plugin, a.runner = os.path.abspath(a.plugin), os.path.abspath(a.runner)
    if a.prefix:
        a.prefix = os.path.abspath(a.prefix)
    if a.tidy:
        a.tidy = os.path.abspath(a.tidy)
    failures = ran = skipped = 0
    for doc in a.docs:
        for n, (line, kind, opts, body) in enumerate(blocks(doc)):
            where = "%s:%d" % (os.path.relpath(doc, SRC), line)
            # Every block runs or says why it cannot: a new block is never
            # left out unseen.
            if opts is None:
                failures += 1
                print("doctest: %s: a ```%s block that neither runs nor is skipped: mark it "
                      "<!-- doctest: status=N --> (or console) or <!-- doctest-skip: why -->"
                      % (where, kind))
                continue
            if "skip" in opts:
                skipped += 1
                if not opts["skip"]:
                    failures += 1
                    print("doctest: %s: <!-- doctest-skip: --> without a reason" % where)
                continue
            root = os.path.realpath(os.path.join(a.work, "%s-%d" % (os.path.basename(doc), n)))
            os.makedirs(a.work, exist_ok=True)
            sandbox(root, a)
            if "cmake-project" in opts:
                ran += 1
                problem = cmake_project(body, root, opts, a)
                if problem:
                    failures += 1
                    print("doctest: %s: the CMake project %s" % (where, problem[0]))
                    for l in problem[1].splitlines()[-20:]:
                        print("    | " + l)
            elif "console" in opts:
                i = 0
                while i < len(body):
                    if not body[i].startswith("$ "):
                        i += 1
                        continue
                    cmd = body[i][2:]
                    j = i + 1
                    while j < len(body) and not body[j].startswith("$ "):
                        j += 1
                    want = [l.rstrip() for l in body[i + 1:j]]
                    status, out, err = run(substitute(cmd, a), root, a)
                    got = (out + err).replace(root, opts.get("cwd", root)).splitlines()
                    got = [l.rstrip() for l in got]
                    ran += 1
                    if got != want:
                        failures += 1
                        print("doctest: %s: `%s` printed something else:" % (where, cmd))
                        for l in got:
                            print("    | " + l)
                    i = j
            else:
                allowed = {int(s) for s in opts.get("status", "0").split(",")}
                for cmd in commands(body):
                    status, out, err = run(substitute(cmd, a), root, a)
                    ran += 1
                    bad = status not in allowed
                    if "errors-ok" not in opts and re.search(r"(^|\s)error:", out + err):
                        bad = True
                    if bad:
                        failures += 1
                        print("doctest: %s: `%s` exited %d (expected %s):" %
                              (where, cmd, status, ",".join(map(str, sorted(allowed)))))
                        for l in (out + err).splitlines()[:20]:
                            print("    | " + l)
    print("doctest: %d commands, %d failed; %d blocks skipped, each with its reason"
          % (ran, failures, skipped))
    return 1 if failures or not ran else 0


if __name__ == "__main__":
    sys.exit(main())
