#!/usr/bin/env python3
"""gha_job.py [--build] [--drop-env] SRC_ROOT WORK_DIR

Runs the GitHub Actions job documented in docs/integration.md ("GitHub
Actions: code scanning") the way its debian:12 container would, without a
container: the commands see a PATH holding only the programs of the packages
its `apt-get install` line names, of their dependencies (Depends and
Pre-Depends, not Recommends: the line says --no-install-recommends), and of
Debian's Essential packages; and the job's `env:`.

Steps run: the "Build seqlint" step against SRC_ROOT (instead of a clone):
its CMake configure, and with --build the build too. --drop-env runs
without the job's env (to show what the env is for).

Exit status: that of the first failing command, 0 if all pass. Requires the
packages to be installed on this machine (it reads their file lists)."""
import os
import re
import shlex
import subprocess
import sys


def job_yaml(src_root):
    text = open(os.path.join(src_root, "docs", "integration.md")).read()
    at = text.index("### GitHub Actions: code scanning")
    start = text.index("```yaml\n", at) + len("```yaml\n")
    return text[start:text.index("```", start)]


def install_line(yaml):
    lines = yaml.splitlines()
    i = next(k for k, l in enumerate(lines) if "apt-get install" in l)
    text = lines[i]
    while text.rstrip().endswith("\\"):
        i += 1
        text = text.rstrip()[:-1] + " " + lines[i]
    words = text.split("apt-get install", 1)[1].split()
    return [w for w in words if not w.startswith("-")]


def job_env(yaml):
    env = {}
    m = re.search(r"\n    env:\n((?:      \S+: .*\n)+)", yaml)
    if m:
        for line in m.group(1).splitlines():
            k, v = line.strip().split(":", 1)
            env[k.strip()] = v.split("#")[0].strip().strip("'\"")
    return env


def build_step(yaml):
    m = re.search(r"- name: Build seqlint\n\s+run: \|\n((?:          .*\n)+)", yaml)
    return [l.strip() for l in m.group(1).splitlines() if l.strip()]


def closure(pkgs):
    out = subprocess.run(["apt-cache", "depends", "--recurse", "--no-recommends",
                          "--no-suggests", "--no-conflicts", "--no-breaks", "--no-replaces",
                          "--no-enhances"] + pkgs, stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    names = {l.strip() for l in out.splitlines() if l and not l.startswith(" ")}
    return {n.split(":")[0] for n in names if not n.startswith("<")}


def essential():
    out = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Essential}\\n"],
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    return {l.split()[0] for l in out.splitlines() if l.endswith(" yes")}


def programs(pkgs):
    progs = {}
    for p in sorted(pkgs):
        r = subprocess.run(["dpkg", "-L", p], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, universal_newlines=True)
        for f in r.stdout.splitlines():
            d = os.path.dirname(f)
            if d in ("/usr/bin", "/bin", "/usr/sbin", "/sbin") and os.access(f, os.X_OK) \
                    and not os.path.isdir(f):
                progs.setdefault(os.path.basename(f), f)
    return progs


def main():
    args = sys.argv[1:]
    build = "--build" in args
    drop_env = "--drop-env" in args
    args = [a for a in args if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    src, work = (os.path.abspath(a) for a in args)
    yaml = job_yaml(src)
    pkgs = install_line(yaml)
    env_vars = {} if drop_env else job_env(yaml)
    print("gha_job: packages: %s" % " ".join(pkgs))
    print("gha_job: env: %s" % " ".join("%s=%s" % kv for kv in sorted(env_vars.items())))
    installed = closure(pkgs) | essential()
    missing = [p for p in pkgs if subprocess.run(["dpkg", "-s", p], stdout=subprocess.DEVNULL,
                                                 stderr=subprocess.DEVNULL).returncode]
    if missing:
        sys.exit("gha_job: not installed here: %s" % " ".join(missing))
    bindir = os.path.join(work, "bin")
    os.makedirs(bindir, exist_ok=True)
    for name, path in programs(installed).items():
        link = os.path.join(bindir, name)
        if not os.path.lexists(link):
            os.symlink(path, link)
    # Debian's alternatives (cc, c++, ld...) are set up by the packages'
    # postinst: follow /etc/alternatives for the names the closure provides.
    alt = "/etc/alternatives"
    for name in os.listdir(alt):
        target = os.path.realpath(os.path.join(alt, name))
        if os.path.basename(target) in os.listdir(bindir) and \
                os.path.realpath(os.path.join(bindir, os.path.basename(target))) == target and \
                not os.path.lexists(os.path.join(bindir, name)):
            os.symlink(target, os.path.join(bindir, name))
    env = {"PATH": bindir, "HOME": work, "LC_ALL": "C"}
    env.update(env_vars)
    for cmd in build_step(yaml):
        cmd = cmd.replace("/opt/seqlint/build", os.path.join(work, "build"))
        if cmd.startswith("git clone"):
            continue  # the source is SRC_ROOT
        cmd = cmd.replace("/opt/seqlint", src)
        if cmd.startswith("cmake --build") and not build:
            continue
        print("gha_job: $ %s" % cmd)
        sys.stdout.flush()
        r = subprocess.run(shlex.split(cmd), env=env, cwd=work)
        if r.returncode:
            print("gha_job: the step failed (exit %d)" % r.returncode)
            sys.exit(r.returncode)
    print("gha_job: the build step passed")


if __name__ == "__main__":
    main()
