#!/usr/bin/env python3
"""run_in_pty.py CMD [ARGS...]: run CMD with its stderr on a pseudo-terminal
(stdin from /dev/null, stdout inherited), then print what it wrote to the
terminal with carriage returns shown as <CR> and "ESC [ K" as <EL>, one
<CR>-separated segment per line. Exits with CMD's status."""
import errno
import os
import pty
import subprocess
import sys


def main():
    master, slave = pty.openpty()
    with open(os.devnull, "rb") as devnull:
        proc = subprocess.Popen(sys.argv[1:], stdin=devnull, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError as e:
            if e.errno == errno.EIO:  # the other side is closed
                break
            raise
        if not data:
            break
        chunks.append(data)
    os.close(master)
    status = proc.wait()
    text = b"".join(chunks).decode("utf-8", "replace")
    text = text.replace("\r\n", "\n").replace("\x1b[K", "<EL>").replace("\r", "\n<CR>")
    sys.stdout.write(text)
    if not text.endswith("\n"):
        sys.stdout.write("\n")
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main())
