#!/usr/bin/env bash
# seqlint real-world targets: runs the library targets of tools/real-world/
# (ck.sh, liburing.sh, postgresql.sh, qemu.sh, dpdk-lib.sh) one after the other with the
# same options and prints one summary table. Opt-in; not part of the default
# test suite. Each target's own output goes to <workdir>/libraries-<name>.log.
#
# Usage: tools/real-world/libraries.sh --run PLUGIN.so [--runner PATH] [-j N]
#            [--quick] [--only "ck liburing postgresql qemu dpdk-lib"] [--workdir-base DIR]
#   --run PLUGIN.so     the plugin (required); --runner: the seqlint runner
#                       (default: next to the plugin)
#   -j N                parallel jobs (default: nproc)
#   --quick             each target's --quick mode (a handful of files; for CI)
#   --only LIST         run only these targets (default: all five)
#   --workdir-base DIR  work directories DIR/seqlint-<name> (default /var/tmp)
#   --skip-install      passed on: do not install Debian packages
# Exit: 0 ok, 1 a crash in some target, 2 usage or setup error in some target.
set -euo pipefail

PROG=${0##*/}
HERE=$(cd "$(dirname "$0")" && pwd)
TARGETS=(ck liburing postgresql qemu dpdk-lib)
BASE=/var/tmp
PASS=()
PLUGIN=
QUICK=0
die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 2; }
usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' |
		if [ "$1" -eq 0 ]; then cat; else cat >&2; fi
	exit "$1"
}
while [ $# -gt 0 ]; do
	case $1 in
	--run)    [ $# -ge 2 ] || die "--run needs the plugin"; PLUGIN=$2; PASS+=(--run "$2"); shift 2 ;;
	--run=*)  PLUGIN=${1#*=}; PASS+=("$1"); shift ;;
	--runner) [ $# -ge 2 ] || die "--runner needs a path"; PASS+=(--runner "$2"); shift 2 ;;
	--runner=*) PASS+=("$1"); shift ;;
	-j|--jobs) [ $# -ge 2 ] || die "$1 needs a number"; PASS+=(-j "$2"); shift 2 ;;
	-j*|--jobs=*) PASS+=("$1"); shift ;;
	--quick)  QUICK=1; PASS+=(--quick); shift ;;
	--skip-install) PASS+=(--skip-install); shift ;;
	--only)   [ $# -ge 2 ] || die "--only needs a list"; read -r -a TARGETS <<<"$2"; shift 2 ;;
	--only=*) read -r -a TARGETS <<<"${1#*=}"; shift ;;
	--workdir-base) [ $# -ge 2 ] || die "$1 needs a directory"; BASE=$2; shift 2 ;;
	--workdir-base=*) BASE=${1#*=}; shift ;;
	-h|--help) usage 0 ;;
	*) printf '%s: error: unknown argument: %s\n\n' "$PROG" "$1" >&2; usage 2 ;;
	esac
done
[ -n "$PLUGIN" ] || { printf '%s: error: --run PLUGIN.so is required\n\n' "$PROG" >&2; usage 2; }
for t in "${TARGETS[@]}"; do
	[ -x "$HERE/$t.sh" ] || die "unknown target '$t' (ck, liburing, postgresql, qemu, dpdk-lib)"
done

SUB='' LOGSUF=''
if [ "$QUICK" = 1 ]; then SUB=/quick LOGSUF=-quick; fi
status=0
declare -A RC SECS
for t in "${TARGETS[@]}"; do
	wd=$BASE/seqlint-$t
	mkdir -p "$wd"
	log=$wd/libraries-$t$LOGSUF.log
	out=$wd$SUB
	rm -f "$out"/summary-*.tsv
	printf '==> %s (log: %s)\n' "$t" "$log"
	t0=$SECONDS
	"$HERE/$t.sh" --workdir "$wd" "${PASS[@]}" >"$log" 2>&1 && rc=0 || rc=$?
	RC[$t]=$rc
	SECS[$t]=$((SECONDS - t0))
	printf '    exit %d after %d s\n' "$rc" "${SECS[$t]}"
	if [ "$rc" -ne 0 ]; then
		tail -n 5 "$log" | sed 's/^/    | /'
		if [ "$rc" -eq 1 ] && [ "$status" -ne 2 ]; then status=1; else status=2; fi
	fi
done

echo
printf '%-11s %7s %8s %7s %6s %9s %9s %12s %12s %7s %7s\n' target entries analysed crashes failed \
	'find.def' 'find.all' 'ratio def' 'ratio all' 'set up' 'total'
printf '%-11s %7s %8s %7s %6s %9s %9s %12s %12s %7s %7s\n' '' '' '' 'def/all' 'd/a' '' '' \
	'wall/CPU' 'wall/CPU' 's' 's'
for t in "${TARGETS[@]}"; do
	out=$BASE/seqlint-$t$SUB
	if [ ! -f "$out/summary-default.tsv" ] || [ ! -f "$out/summary-all.tsv" ]; then
		printf '%-11s (no result: exit %s; see %s)\n' "$t" "${RC[$t]}" \
			"$BASE/seqlint-$t/libraries-$t$LOGSUF.log"
		continue
	fi
	IFS=$'\t' read -r _ entries _ setup <"$out/summary-entries.tsv"
	IFS=$'\t' read -r an_d cr_d fa_d n_d _ r_d c_d _ _ <"$out/summary-default.tsv"
	IFS=$'\t' read -r an_a cr_a fa_a n_a _ r_a c_a _ _ <"$out/summary-all.tsv"
	analysed=$an_d; [ "$an_d" = "$an_a" ] || analysed="$an_d/$an_a"
	printf '%-11s %7s %8s %7s %6s %9s %9s %12s %12s %7s %7s\n' "$t" "$entries" "$analysed" \
		"$cr_d/$cr_a" "$fa_d/$fa_a" "$n_d" "$n_a" "$r_d/$c_d" "$r_a/$c_a" "$setup" "${SECS[$t]}"
done
echo
echo "findings per check (default run | all checks):"
for t in "${TARGETS[@]}"; do
	out=$BASE/seqlint-$t$SUB
	[ -f "$out/summary-all.tsv" ] || continue
	d=$(cut -f5 "$out/summary-default.tsv")
	a=$(cut -f5 "$out/summary-all.tsv")
	printf '  %-11s %s | %s\n' "$t" "$d" "$a"
	printf '  %-11s findings: %s/findings-{default,all}.tsv\n' '' "$out"
done
exit "$status"
