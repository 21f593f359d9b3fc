#!/usr/bin/env bash
# seqlint plugin overhead, side by side with plain clang, in one run.
#
#   1. compile: the TOP (10) largest files of a compile database, -O2 -c and
#      -fsyntax-only, with and without the plugin, REPS (5) interleaved runs
#      each: per-file ratios and the median ratio (targets 1.03x and 1.15x);
#   2. set: every file of the database through the seqlint runner vs plain
#      clang -fsyntax-only vs clang+plugin run directly, at -j1 and -j2;
#   3. scaling: generated files of 10, 100, 1000, 10000 functions (gen.py):
#      plugin cost per function, which must stay flat.
# Writes the report to bench/plugin/RESULTS.md (or --out) and prints it.
#
# Usage: bench/plugin/run.sh [--db DIR] [--plugin SO] [--runner BIN] [--out FILE]
#                            [--parts compile,set,scaling] [--top N] [--reps N]
#                            [--set-reps N] [--jobs 1,2] [--sizes 10,100,1000,10000]
#                            [--select preprocessed|source]
# Defaults: --db /var/tmp/seqlint-kernel (made by tools/real-world/kernel.sh;
#           without it, parts 1 and 2 are skipped; --db examples: the bundled
#           examples/{buggy,fixed}/*.c, for the runner's cost on a small set),
#           --plugin build/lib/seqlint.so (copied to a temporary file first, so a
#           rebuild during the run changes nothing), --runner build/bin/seqlint.
# Run it on an otherwise idle machine: it times single compiles.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DB=${SEQLINT_KERNEL_WORKDIR:-/var/tmp/seqlint-kernel}
PLUGIN=$ROOT/build/lib/seqlint.so
RUNNER=$ROOT/build/bin/seqlint
OUT=$ROOT/bench/plugin/RESULTS.md
PARTS=compile,set,scaling
PASS=()
CMDLINE="bench/plugin/run.sh $*"

die() { printf 'run.sh: error: %s\n' "$*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case $1 in
	--db)      DB=$2; shift 2 ;;
	--plugin)  PLUGIN=$2; shift 2 ;;
	--runner)  RUNNER=$2; shift 2 ;;
	--out)     OUT=$2; shift 2 ;;
	--parts)   PARTS=$2; shift 2 ;;
	--top|--reps|--set-reps|--jobs|--sizes|--select|--json)
	           PASS+=("$1" "$2"); shift 2 ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	*)         die "unknown argument: $1 (see --help)" ;;
	esac
done

[ -f "$PLUGIN" ] || die "plugin not found: $PLUGIN (cmake --build build)"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/seqlint-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
if [ "$DB" = examples ]; then
	# The bundled examples (buggy and fixed, 8 files) as one database, compiled
	# with clang-19 the way examples/Makefile compiles them.
	mkdir -p "$TMP/examples-db"
	python3 - "$ROOT/examples" "$TMP/examples-db/compile_commands.json" <<'PY'
import glob, json, os, sys
ex, out = sys.argv[1], sys.argv[2]
db = [{'directory': ex, 'file': f,
       'arguments': ['clang-19', '-std=gnu11', '-O2', '-Wall', '-Wextra', '-c', f,
                     '-o', os.devnull]}
      for v in ('buggy', 'fixed') for f in sorted(glob.glob(os.path.join(ex, v, '*.c')))]
json.dump(db, open(out, 'w'), indent=1)
PY
	DB=$TMP/examples-db
fi
if [ ! -f "$DB/compile_commands.json" ]; then
	echo "run.sh: no $DB/compile_commands.json (tools/real-world/kernel.sh makes it):" \
		"running the scaling part only" >&2
	PARTS=scaling
fi
case ",$PARTS," in *,set,*) [ -x "$RUNNER" ] || die "runner not found: $RUNNER" ;; esac

cp "$PLUGIN" "$TMP/seqlint.so"

python3 "$ROOT/bench/plugin/bench.py" --plugin "$TMP/seqlint.so" \
	--plugin-src "${PLUGIN#"$ROOT"/}" --runner "$RUNNER" --db "$DB" --out "$OUT" \
	--parts "$PARTS" --command-line "$CMDLINE" "${PASS[@]}"
