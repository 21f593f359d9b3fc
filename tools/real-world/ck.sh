#!/usr/bin/env bash
# seqlint real-world target: Concurrency Kit 0.7.1, Debian bookworm source
# package `ck`: the library (src/), its headers (include/, seen through the
# files that include them) and the regression programs (regressions/).
# Opt-in; not part of the default test suite. What it does:
#   1. installs the Debian packages it needs (as root), unpacks the source
#      package into <workdir>/src (`apt-get source ck`, adding a bookworm
#      deb-src entry to apt when it has none; or the .dsc in $SEQLINT_SRC_CACHE);
#   2. `CC=clang-19 ./configure --cores=2` (as Debian's build), then under bear:
#      `make` (the library) and `make -k -C regressions` (validate and benchmark
#      programs, built, not run); keeps the .c entries of src/ and regressions/;
#   3. with --run PLUGIN.so: the seqlint runner twice, default checks and
#      --checks='*', --format=json, between two runs of plain clang-19
#      -fsyntax-only over the same database (for the time ratio); prints entries,
#      files analysed, crashes, findings per check and the time ratios
#      (wall-clock and CPU).
# --quick: the library and the regression directories of the 8 files with the
# most ck_pr_fence_*/ck_pr_barrier/ck_sequence_* uses, results in <workdir>/quick/.
#
# Usage: tools/real-world/ck.sh [--workdir DIR] [-j N] [--quick] [--run PLUGIN.so]
# Writes: <workdir>[/quick]/db/compile_commands.json, findings-{default,all}.{json,tsv},
#         runner-{default,all}.stderr, plain.log, summary.txt.
# Exit: 0 ok, 1 a crash (clang or the runner), 2 usage or setup error.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

rw_init ck
DIRS=(src regressions)
QUICK_RE='ck_pr_fence_[a-z_]+|ck_pr_barrier|ck_sequence_[a-z_]+'
rw_parse_args "$@"

setup() {
	local db=$OUT/db/compile_commands.json
	rw_have_db && return
	rw_prepare ck clang-19 make bear dpkg-dev xz-utils python3
	local raw=$SRC/compile_commands.build.json
	if [ ! -f build/ck.build ] || [ ! -f .seqlint-configured ]; then
		say "CC=clang-19 ./configure --cores=2"
		CC=clang-19 ./configure --cores=2 >"$OUT/configure.log" 2>&1 ||
			{ tail -n 20 "$OUT/configure.log" >&2; die "configure failed (see $OUT/configure.log)"; }
		touch .seqlint-configured
	fi
	step "build under bear (log: $OUT/build.log)"
	local t0
	t0=$(now)
	# --append: entries of an interrupted earlier build are kept.
	bear --append --output "$raw" -- make -j"$JOBS" >"$OUT/build.log" 2>&1 ||
		{ tail -n 20 "$OUT/build.log" >&2; die "make (library) failed"; }
	if [ "$QUICK" = 1 ]; then
		find src regressions -name '*.c' | sort >"$OUT/candidates.txt"
		rw_select_quick "$OUT/candidates.txt" "$QUICK_RE" >"$OUT/files.txt"
		say "quick: $(wc -l <"$OUT/files.txt") files: $(tr "\n" " " <"$OUT/files.txt")"
		local f d
		while read -r f; do
			d=$(dirname "$f")
			case $d in
			src) ;;  # built above
			*) bear --append --output "$raw" -- make -C "$d" "$(basename "$f" .c)" >>"$OUT/build.log" 2>&1 ||
				bear --append --output "$raw" -- make -k -C "$d" >>"$OUT/build.log" 2>&1 ||
				warn "make -C $d failed (see $OUT/build.log)" ;;
			esac
		done <"$OUT/files.txt"
		rw_restrict_db "$raw" "$db" "$OUT/files.txt"
	else
		# The regressions are built, not run (`make check` would run them).
		bear --append --output "$raw" -- make -k -j"$JOBS" -C regressions >>"$OUT/build.log" 2>&1 ||
			warn "some regressions did not build (see $OUT/build.log)"
		rw_restrict_db "$raw" "$db"
	fi
	say "build: $(elapsed "$t0" "$(now)") s"
}

setup
rw_finish
