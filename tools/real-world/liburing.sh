#!/usr/bin/env bash
# seqlint real-world target: liburing (Debian bookworm source package
# `liburing`, 2.3): the library (src/, with the ring barriers of
# src/include/liburing/barrier.h), the tests (test/) and the examples (examples/).
# Opt-in; not part of the default test suite. What it does:
#   1. installs the Debian packages it needs (as root), unpacks the source
#      package into <workdir>/src (`apt-get source liburing`, adding a bookworm
#      deb-src entry to apt when it has none; or the .dsc in $SEQLINT_SRC_CACHE);
#   2. `./configure --cc=clang-19 --cxx=clang++-19`, then `make` under bear (the
#      library, the tests and the examples are built, not run); keeps the .c
#      entries of src/, test/ and examples/ (the two C++ tests are left out);
#   3. with --run PLUGIN.so: the seqlint runner twice, default checks and
#      --checks='*', --format=json, between two runs of plain clang-19
#      -fsyntax-only over the same database (for the time ratio); prints entries,
#      files analysed, crashes, findings per check and the time ratios
#      (wall-clock and CPU).
# --quick: the library, then only the 8 files (tests, examples) with the most
# io_uring_smp_*/IO_URING_READ_ONCE/WRITE_ONCE/atomic uses; results in <workdir>/quick/.
#
# Usage: tools/real-world/liburing.sh [--workdir DIR] [-j N] [--quick] [--run PLUGIN.so]
# Writes: <workdir>[/quick]/db/compile_commands.json, findings-{default,all}.{json,tsv},
#         runner-{default,all}.stderr, plain.log, summary.txt.
# Exit: 0 ok, 1 a crash (clang or the runner), 2 usage or setup error.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

rw_init liburing
DIRS=(src test examples)
QUICK_RE='io_uring_smp_[a-z_]+|IO_URING_(READ|WRITE)_ONCE|atomic_thread_fence|__atomic_[a-z_]+|atomic_(load|store|fetch)[a-z_]*'
rw_parse_args "$@"

setup() {
	local db=$OUT/db/compile_commands.json
	rw_have_db && return
	rw_prepare liburing clang-19 make bear dpkg-dev python3
	local raw=$SRC/compile_commands.build.json
	if [ ! -f config-host.mak ] || [ ! -f .seqlint-configured ]; then
		say "./configure --cc=clang-19 --cxx=clang++-19"
		./configure --cc=clang-19 --cxx=clang++-19 >"$OUT/configure.log" 2>&1 ||
			{ tail -n 20 "$OUT/configure.log" >&2; die "configure failed (see $OUT/configure.log)"; }
		touch .seqlint-configured
	fi
	step "build under bear (log: $OUT/build.log)"
	local t0
	t0=$(now)
	if [ "$QUICK" = 1 ]; then
		bear --append --output "$raw" -- make -j"$JOBS" -C src >"$OUT/build.log" 2>&1 ||
			{ tail -n 20 "$OUT/build.log" >&2; die "make -C src failed"; }
		find src test examples -name '*.c' | sort >"$OUT/candidates.txt"
		rw_select_quick "$OUT/candidates.txt" "$QUICK_RE" >"$OUT/files.txt"
		say "quick: $(wc -l <"$OUT/files.txt") files: $(tr "\n" " " <"$OUT/files.txt")"
		local f d b targets=()
		while read -r f; do
			d=$(dirname "$f") b=$(basename "$f" .c)
			case $d in
			test) targets=("$b.t" "$b.o") ;;
			examples) targets=("$b") ;;
			*) continue ;;  # the library, built above
			esac
			local ok=0 t
			for t in "${targets[@]}"; do
				if bear --append --output "$raw" -- make -C "$d" "$t" >>"$OUT/build.log" 2>&1; then
					ok=1
					break
				fi
			done
			[ "$ok" = 1 ] || warn "make -C $d ${targets[*]} failed (see $OUT/build.log)"
		done <"$OUT/files.txt"
		rw_restrict_db "$raw" "$db" "$OUT/files.txt"
	else
		bear --append --output "$raw" -- make -k -j"$JOBS" >"$OUT/build.log" 2>&1 ||
			warn "the build failed in part (see $OUT/build.log)"
		rw_restrict_db "$raw" "$db"
	fi
	say "build: $(elapsed "$t0" "$(now)") s"
}

setup
rw_finish
