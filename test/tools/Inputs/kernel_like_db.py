#!/usr/bin/env python3
"""Writes a kernel-like project for the runner: the held-out corpora
(test/held-out/*/ — kernel, QEMU, DPDK, CK and ring code written against the
stub kernel headers of test/Inputs/kernel) and the program-wide pairing inputs
(test/checkers/barrier-unpaired/Inputs/program-wide, a writer and readers in
different files), copied under OUT/src/, and OUT/compile_commands.json with
one entry per file: -I the stub headers (unless the file's FLAGS say
--no-kernel-stubs), plus the file's own "// FLAGS:" line.
Files that need DPDK's headers (FLAGS: @dpdk@) are left out: the set must not
depend on what else is installed. Prints the number of files.

  kernel_like_db.py SRC_ROOT OUT_DIR COMPILER
"""
import json
import os
import re
import shutil
import sys

FLAGS = re.compile(r"^//\s*FLAGS:\s*(.*)$", re.M)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: kernel_like_db.py SRC_ROOT OUT_DIR COMPILER")
    src_root, out, compiler = (os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]),
                               sys.argv[3])
    kernel_inc = os.path.join(src_root, "test", "Inputs", "kernel")
    held_out = os.path.join(src_root, "test", "held-out")
    pairs = os.path.join(src_root, "test", "checkers", "barrier-unpaired", "Inputs",
                         "program-wide")
    for d in (kernel_inc, held_out, pairs):
        if not os.path.isdir(d):
            sys.exit("kernel_like_db: %s is not a directory (SRC_ROOT is the seqlint checkout)" % d)
    sources = []  # (corpus, path)
    for corpus in sorted(os.listdir(held_out)):
        d = os.path.join(held_out, corpus)
        if os.path.isdir(d):
            sources += [(corpus, os.path.join(d, f)) for f in sorted(os.listdir(d))
                        if f.endswith(".c")]
    sources += [("program-wide", os.path.join(pairs, f)) for f in sorted(os.listdir(pairs))
                if f.endswith((".c", ".h"))]
    entries = []
    for corpus, path in sources:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        flags = " ".join(FLAGS.findall(text)).split()
        if "@dpdk@" in flags:
            continue
        dst_dir = os.path.join(out, "src", corpus)
        os.makedirs(dst_dir, exist_ok=True)
        dst = os.path.join(dst_dir, os.path.basename(path))
        shutil.copyfile(path, dst)
        if not path.endswith(".c"):
            continue
        # A user-space case (FLAGS: --no-kernel-stubs) sees the system's
        # <linux/...> headers, not the stubs.
        stubs = ["-I", kernel_inc]
        if "--no-kernel-stubs" in flags:
            stubs = []
            flags = [f for f in flags if f != "--no-kernel-stubs"]
        entries.append({
            "directory": dst_dir,
            "arguments": [compiler, "-std=gnu11", "-Wno-unused"] + stubs + flags
                         + ["-c", dst, "-o", dst[:-2] + ".o"],
            "file": dst,
        })
    with open(os.path.join(out, "compile_commands.json"), "w", encoding="utf-8") as f:
        json.dump(entries, f, indent=1)
    print("%d files" % len(entries))


if __name__ == "__main__":
    main()
