#!/usr/bin/env bash
# seqlint real-world target: the PostgreSQL 15 backend (Debian bookworm source
# package `postgresql-15`): src/backend, where storage/, postmaster/,
# access/transam/, replication/ and utils/activity/ hold the barrier,
# atomics and changecount code.
# Opt-in; not part of the default test suite. What it does:
#   1. installs the Debian packages it needs (as root), unpacks the source
#      package into <workdir>/src (`apt-get source postgresql-15`, adding a
#      bookworm deb-src entry to apt when it has none; or the .dsc in
#      $SEQLINT_SRC_CACHE);
#   2. a minimal `./configure CC=clang-19 --without-readline --without-zlib
#      --without-icu` (none of Debian's build dependencies: the release tarball
#      has the bison/flex output), `make -C src/backend generated-headers`, then
#      `make -k -C src/backend` under bear (also builds the src/port and
#      src/common objects it links); keeps the .c entries of src/backend;
#   3. with --run PLUGIN.so: the seqlint runner twice, default checks and
#      --checks='*', --format=json, between two runs of plain clang-19
#      -fsyntax-only over the same database (for the time ratio); prints entries,
#      files analysed, crashes, findings per check and the time ratios
#      (wall-clock and CPU).
# --quick: configure and the generated headers only, then the objects of the 8
# files (taken in turn from storage, postmaster, access/transam, replication,
# utils/activity; among the files `make -n` says are built) with the most
# pg_*_barrier/pg_atomic_*/changecount uses; results in <workdir>/quick/.
#
# Usage: tools/real-world/postgresql.sh [--workdir DIR] [-j N] [--quick] [--run PLUGIN.so]
# Writes: <workdir>[/quick]/db/compile_commands.json, findings-{default,all}.{json,tsv},
#         runner-{default,all}.stderr, plain.log, summary.txt.
# Exit: 0 ok, 1 a crash (clang or the runner), 2 usage or setup error.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

rw_init postgresql
DIRS=(src/backend)
QUICK_DIRS=(src/backend/storage src/backend/postmaster src/backend/access/transam
	src/backend/replication src/backend/utils/activity)
QUICK_RE='pg_(read|write|memory|compiler)_barrier|pg_atomic_[a-z0-9_]+|pgstat_(begin|end)_changecount_[a-z]+|PGSTAT_(BEGIN|END)_[A-Z_]+_ACTIVITY|pgstat_(begin|end)_read_activity'
rw_parse_args "$@"
if [ "$QUICK" = 1 ] && [ -z "$DIRS_OVERRIDE" ]; then DIRS=("${QUICK_DIRS[@]}"); fi

# The .c files (relative to $SRC) that `make -n` compiles under src/backend.
dry_run_files() {
	make -C src/backend -n -w >"$OUT/dryrun.log" 2>&1 || true
	python3 - "$OUT/dryrun.log" "$SRC" <<'PY'
import os, re, sys
log, root = sys.argv[1], os.path.realpath(sys.argv[2])
stack, out = [], set()
enter = re.compile(r"make(\[\d+\])?: Entering directory '(.*)'")
leave = re.compile(r"make(\[\d+\])?: Leaving directory")
for line in open(log, errors='replace'):
    m = enter.match(line)
    if m:
        stack.append(m.group(2))
        continue
    if leave.match(line):
        if stack:
            stack.pop()
        continue
    if stack and ' -c ' in line:
        m = re.search(r'\s(\S+\.c)\s*$', line)
        if m:
            out.add(os.path.relpath(os.path.realpath(os.path.join(stack[-1], m.group(1))), root))
print('\n'.join(sorted(out)))
PY
}

setup() {
	local db=$OUT/db/compile_commands.json
	rw_have_db && return
	rw_prepare postgresql-15 clang-19 make bear dpkg-dev bzip2 perl python3
	local raw=$SRC/compile_commands.build.json t0
	if [ ! -f src/Makefile.global ] || [ ! -f .seqlint-configured ]; then
		say "./configure CC=clang-19 --without-readline --without-zlib --without-icu (log: $OUT/configure.log)"
		t0=$(now)
		./configure CC=clang-19 --without-readline --without-zlib --without-icu \
			>"$OUT/configure.log" 2>&1 ||
			{ tail -n 20 "$OUT/configure.log" >&2; die "configure failed (see $OUT/configure.log)"; }
		touch .seqlint-configured
		say "configure: $(elapsed "$t0" "$(now)") s"
	fi
	step "build under bear (log: $OUT/build.log)"
	t0=$(now)
	make -C src/backend generated-headers >"$OUT/build.log" 2>&1 ||
		{ tail -n 20 "$OUT/build.log" >&2; die "make -C src/backend generated-headers failed"; }
	if [ "$QUICK" = 1 ]; then
		dry_run_files >"$OUT/candidates.txt"
		[ -s "$OUT/candidates.txt" ] || die "the dry run lists no compiled file (see $OUT/dryrun.log)"
		rw_select_quick "$OUT/candidates.txt" "$QUICK_RE" >"$OUT/files.txt"
		say "quick: $(wc -l <"$OUT/files.txt") files: $(tr "\n" " " <"$OUT/files.txt")"
		local f
		while read -r f; do
			bear --append --output "$raw" -- make -C "$(dirname "$f")" "$(basename "$f" .c).o" \
				>>"$OUT/build.log" 2>&1 || warn "make of $f failed (see $OUT/build.log)"
		done <"$OUT/files.txt"
		rw_restrict_db "$raw" "$db" "$OUT/files.txt"
	else
		bear --append --output "$raw" -- make -k -j"$JOBS" -C src/backend >>"$OUT/build.log" 2>&1 ||
			warn "the build failed in part (see $OUT/build.log)"
		rw_restrict_db "$raw" "$db"
	fi
	say "build: $(elapsed "$t0" "$(now)") s"
}

setup
rw_finish
