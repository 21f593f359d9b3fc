"""limit_fsize.py BYTES CMD...: runs CMD with files limited to BYTES, as a
full disk would stop them: a write past the limit fails with EFBIG (SIGXFSZ
ignored) instead of killing the process."""
import os
import resource
import signal
import sys

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
os.execvp(sys.argv[2], sys.argv[2:])
