#!/usr/bin/env bash
# Robustness: compile csmith's random C programs with the seqlint plugin and
# count the crashes (must be zero).
#
# SEQLINT_PLUGIN_ARGS adds plugin arguments (e.g. -fplugin-arg-seqlint-checks=*
# to run the off-by-default checks too).
#
# Programs are generated with fixed seeds FIRST..FIRST+N-1 (default 1..500), so
# a run is reproducible and a crash can be replayed by its seed. Each one is
# compiled with
#   clang-19 -fsyntax-only -fplugin=PLUGIN -fplugin-arg-seqlint-no-werror -I/usr/include/csmith
# A crash is an exit status >= 128 (or killed by a signal) or a stderr containing
# "PLEASE submit a bug report" or "Stack dump". Other non-zero exits (a compile
# error) are counted apart: they are not crashes of the plugin.
#
# Usage: tools/robustness/csmith.sh [--plugin PATH] [--clang PATH] [-n N]
#                                   [--first-seed S] [-j N] [--workdir DIR] [--keep]
# Defaults: --plugin build/lib/seqlint.so, --clang clang-19, -n 500, --first-seed 1,
#           -j 2, --workdir a fresh temporary directory (removed unless --keep or a
#           crash happened; crashing programs are kept there with their stderr).
# Needs the Debian packages csmith and libcsmith-dev (installed when missing and
# running as root).
# Prints "N programs, N crashes" last. Exit status: 0 no crash; 1 crashes; 2 setup error.
set -euo pipefail

PROG=${0##*/}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PLUGIN=$ROOT/build/lib/seqlint.so
CLANG=clang-19
COUNT=500
FIRST=1
JOBS=2
WORKDIR=
KEEP=0

die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case $1 in
	--plugin)     PLUGIN=$2; shift 2 ;;
	--plugin=*)   PLUGIN=${1#*=}; shift ;;
	--clang)      CLANG=$2; shift 2 ;;
	--clang=*)    CLANG=${1#*=}; shift ;;
	-n)           COUNT=$2; shift 2 ;;
	--first-seed) FIRST=$2; shift 2 ;;
	--first-seed=*) FIRST=${1#*=}; shift ;;
	-j)           JOBS=$2; shift 2 ;;
	-j*)          JOBS=${1#-j}; shift ;;
	--workdir)    WORKDIR=$2; shift 2 ;;
	--workdir=*)  WORKDIR=${1#*=}; shift ;;
	--keep)       KEEP=1; shift ;;
	-h|--help)    sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	*)            die "unknown argument: $1 (see --help)" ;;
	esac
done

if ! command -v csmith >/dev/null 2>&1 || [ ! -f /usr/include/csmith/csmith.h ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "$PROG: installing csmith libcsmith-dev"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q csmith libcsmith-dev >/dev/null ||
			die "apt-get install csmith libcsmith-dev failed (run apt-get update first?)"
	else
		die "needs csmith and its headers: apt-get install csmith libcsmith-dev"
	fi
fi
CSMITH_INC=$(ls -d /usr/include/csmith* 2>/dev/null | head -n 1)
[ -f "$PLUGIN" ] || die "plugin not found: $PLUGIN (cmake --build build)"
PLUGIN=$(cd "$(dirname "$PLUGIN")" && pwd)/$(basename "$PLUGIN")
command -v "$CLANG" >/dev/null 2>&1 || die "compiler not found: $CLANG"

if [ -z "$WORKDIR" ]; then
	WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/seqlint-csmith.XXXXXX")
else
	mkdir -p "$WORKDIR"
fi

# One program: generate, compile, classify. Writes one status line per seed.
one() {
	local seed=$1 src=$WORKDIR/p$1.c err=$WORKDIR/p$1.stderr rc=0
	# (in WORKDIR: csmith writes a platform.info into its working directory)
	if ! (cd "$WORKDIR" && csmith --seed "$seed" -o "$src" >/dev/null 2>&1); then
		echo "$seed nogen"; return 0
	fi
	"$CLANG" -fsyntax-only -fno-crash-diagnostics -fplugin="$PLUGIN" \
		-fplugin-arg-seqlint-no-werror ${SEQLINT_PLUGIN_ARGS:-} -I"$CSMITH_INC" "$src" >/dev/null 2>"$err" || rc=$?
	if [ "$rc" -ge 128 ] || grep -q -e 'PLEASE submit a bug report' -e 'Stack dump' "$err"; then
		echo "$seed crash $rc"
	elif [ "$rc" -ne 0 ]; then
		echo "$seed error $rc"
	else
		echo "$seed ok"; rm -f "$src" "$err"
	fi
}
export -f one
export WORKDIR CLANG PLUGIN CSMITH_INC

echo "$PROG: $COUNT csmith programs (seeds $FIRST..$((FIRST + COUNT - 1))), -j$JOBS, plugin $PLUGIN"
seq "$FIRST" "$((FIRST + COUNT - 1))" |
	xargs -P "$JOBS" -n 1 bash -c 'one "$0"' > "$WORKDIR/status.txt"

crashes=$(awk '$2 == "crash"' "$WORKDIR/status.txt" | wc -l)
errors=$(awk '$2 == "error"' "$WORKDIR/status.txt" | wc -l)
nogen=$(awk '$2 == "nogen"' "$WORKDIR/status.txt" | wc -l)
programs=$(awk '$2 != "nogen"' "$WORKDIR/status.txt" | wc -l)
if [ "$crashes" -gt 0 ]; then
	echo "crashing seeds (programs and stderr kept in $WORKDIR):"
	awk '$2 == "crash" { print "  seed " $1 " (exit " $3 ")" }' "$WORKDIR/status.txt" | sort -n -k2
fi
if [ "$errors" -gt 0 ]; then
	echo "$errors program(s) did not compile (not crashes), e.g.:"
	awk '$2 == "error" { print "  seed " $1 }' "$WORKDIR/status.txt" | sort -n -k2 | head -n 5
fi
[ "$nogen" -eq 0 ] || echo "csmith failed to generate $nogen program(s)"
if [ "$crashes" -eq 0 ] && [ "$KEEP" -eq 0 ] && [ "$errors" -eq 0 ]; then
	rm -rf "$WORKDIR"
fi
echo "$programs programs, $crashes crashes"
[ "$crashes" -eq 0 ]
