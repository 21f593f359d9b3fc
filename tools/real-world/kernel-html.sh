#!/usr/bin/env bash
# seqlint real-world check of the HTML report: the runner's report of a real
# Linux tree, loaded in headless Chromium.
#
# Opt-in; not part of the default test suite, and it builds nothing: it needs
# the work directory of tools/real-world/kernel.sh (its compile_commands.json,
# restricted to the files that use seqcounts and barriers). What it does:
#   1. runs the seqlint runner on that database, every check on, twice: JSON
#      (<workdir>/html/findings.json) and HTML (<workdir>/html/report/);
#   2. loads the report in headless Chromium (test/tools/Inputs/chromium_report.py,
#      what test/tools/html-chromium-kernel-like.test runs on the held-out
#      corpora): every finding's file:line:col is in the index's DOM and shown,
#      the index and the pages of the cross-file findings and of the first
#      finding of each check load without a console message, each page with
#      its notes' locations. Browser logs and DOM dumps: <workdir>/html/browser/.
#
# Usage: tools/real-world/kernel-html.sh [--workdir DIR] [--runner PATH]
#                                        [--chromium PATH] [-j N] [--max-pages N]
# Environment: SEQLINT_KERNEL_WORKDIR (default /var/tmp/seqlint-kernel),
#              SEQLINT_RUNNER (default: build/bin/seqlint of this checkout).
# Exit status: 0 the report passed; 1 it failed (the reason is printed);
#              2 usage or setup error (no database, no runner, no chromium).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# say, die: the messages of every real-world target.
# shellcheck source=tools/real-world/common.sh
. "$HERE/common.sh"
PROG=${0##*/}
WORKDIR=${SEQLINT_KERNEL_WORKDIR:-/var/tmp/seqlint-kernel}
RUNNER=${SEQLINT_RUNNER:-$ROOT/build/bin/seqlint}
CHROMIUM=$(command -v chromium || true)
MAX_PAGES=60

# This script's header comment, without common.sh's options (it takes none).
usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' >&"$(( ${1:-0} ? 2 : 1 ))"
	exit "${1:-0}"
}

while [ $# -gt 0 ]; do
	case $1 in
	--workdir|-w) [ $# -ge 2 ] || die "$1 needs a directory"; WORKDIR=$2; shift 2 ;;
	--workdir=*)  WORKDIR=${1#*=}; shift ;;
	--runner)     [ $# -ge 2 ] || die "$1 needs the path of the seqlint runner"; RUNNER=$2; shift 2 ;;
	--runner=*)   RUNNER=${1#*=}; shift ;;
	--chromium)   [ $# -ge 2 ] || die "$1 needs the path of chromium"; CHROMIUM=$2; shift 2 ;;
	--chromium=*) CHROMIUM=${1#*=}; shift ;;
	-j|--jobs)    [ $# -ge 2 ] || die "$1 needs a number"; JOBS=$2; shift 2 ;;
	-j*)          JOBS=${1#-j}; shift ;;
	--max-pages)  [ $# -ge 2 ] || die "$1 needs a number"; MAX_PAGES=$2; shift 2 ;;
	-h|--help)    usage 0 ;;
	*)            printf '%s: error: unknown argument %s\n' "$PROG" "$1" >&2; usage 2 ;;
	esac
done

case $JOBS in ''|*[!0-9]*) die "-j needs a number, not '$JOBS'" ;; esac
case $MAX_PAGES in ''|*[!0-9]*) die "--max-pages needs a number, not '$MAX_PAGES'" ;; esac
[ -f "$WORKDIR/compile_commands.json" ] ||
	die "no $WORKDIR/compile_commands.json: run tools/real-world/kernel.sh --workdir $WORKDIR first"
[ -x "$RUNNER" ] || die "no seqlint runner at $RUNNER (build it, or pass --runner PATH)"
[ -n "$CHROMIUM" ] && [ -x "$CHROMIUM" ] ||
	die "no chromium (Debian: apt-get install chromium; or pass --chromium PATH)"

OUT=$WORKDIR/html
rm -rf "$OUT/report" "$OUT/browser"
mkdir -p "$OUT"
# Exit 1 means findings: expected on a kernel. 2 means a file not analysed;
# the report is still checked, but the run says so.
run() {
	local rc=0
	"$RUNNER" -p "$WORKDIR" -j "$JOBS" --checks='*' "$@" 2>> "$OUT/runner.log" || rc=$?
	[ "$rc" -le 2 ] || die "the runner failed (exit $rc; see $OUT/runner.log)"
	[ "$rc" -ne 2 ] || say "warning: some files were not analysed (see $OUT/runner.log)"
}
: > "$OUT/runner.log"
say "runner: JSON into $OUT/findings.json"
run --format=json -o "$OUT/findings.json"
say "runner: HTML into $OUT/report/"
run --format=html -o "$OUT/report"
say "chromium: loading the report"
exec python3 "$ROOT/test/tools/Inputs/chromium_report.py" "$CHROMIUM" "$OUT/report" \
	"$OUT/findings.json" --work "$OUT/browser" --max-pages "$MAX_PAGES"
