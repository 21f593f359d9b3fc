#!/usr/bin/env python3
"""expect_exit.py N CMD [ARGS...]: run CMD (stdin, stdout and stderr inherited)
and exit 0 if it exited with status N, else 1 with a message. lit's `not` only
tells zero from non-zero; the runner's exit codes 1 and 2 mean different things."""
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: expect_exit.py N CMD [ARGS...]\n")
        return 2
    want = int(sys.argv[1])
    try:
        got = subprocess.call(sys.argv[2:])
    except OSError as e:
        sys.stderr.write("expect_exit: cannot run %s: %s\n" % (sys.argv[2], e))
        return 1
    if got != want:
        how = "was killed by signal %d" % -got if got < 0 else "exited with %d" % got
        sys.stderr.write("expect_exit: %s %s, expected %d\n" % (sys.argv[2], how, want))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
