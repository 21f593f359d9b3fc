#!/usr/bin/env bash
# Robustness: a bounded libFuzzer run of the seqlint analysis.
#
# Builds tools/robustness/fuzz (the harness fuzz_plugin.cpp plus the checkers'
# sources, all compiled by clang++-19 with -fsanitize=fuzzer,address,undefined)
# into BUILD_DIR, seeds the corpus with test/checkers/**/*.c and examples/**/*.c
# (includes rewritten for -I test/Inputs/kernel -I examples/include), and fuzzes
# for MAX_TIME seconds. A crash, sanitizer report, leak or timeout leaves its
# input in BUILD_DIR/artifacts/ (replay: BUILD_DIR/seqlint-fuzz FILE).
#
# Usage: tools/robustness/fuzz.sh [--build-dir DIR] [--max-time SECONDS] [-j N]
#                                 [-- <extra libFuzzer flags>]
# Defaults: --build-dir build-fuzz (in the source tree), --max-time 120, -j 2 (build).
# The corpus is kept in BUILD_DIR/corpus across runs (it grows).
# Prints "fuzz: N runs in S s, corpus C inputs, K crashes" last.
# Exit status: 0 no crash; 1 a crash (or sanitizer report); 2 setup error.
set -euo pipefail

PROG=${0##*/}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$ROOT/build-fuzz
MAX_TIME=120
JOBS=2
EXTRA=()

die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case $1 in
	--build-dir)   BUILD=$2; shift 2 ;;
	--build-dir=*) BUILD=${1#*=}; shift ;;
	--max-time)    MAX_TIME=$2; shift 2 ;;
	--max-time=*)  MAX_TIME=${1#*=}; shift ;;
	-j)            JOBS=$2; shift 2 ;;
	-j*)           JOBS=${1#-j}; shift ;;
	--)            shift; EXTRA=("$@"); break ;;
	-h|--help)     sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	*)             die "unknown argument: $1 (see --help)" ;;
	esac
done

command -v clang++-19 >/dev/null 2>&1 || die "needs clang++-19 (apt-get install clang-19)"
[ -f /usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.fuzzer-x86_64.a ] ||
	ls /usr/lib/llvm-19/lib/clang/*/lib/*/libclang_rt.fuzzer*.a >/dev/null 2>&1 ||
	die "libFuzzer runtime not found (apt-get install libclang-rt-19-dev)"

echo "==> building the fuzz target in $BUILD"
GEN=()
command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
	cmake -S "$ROOT/tools/robustness/fuzz" -B "$BUILD" "${GEN[@]}" \
		-DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$BUILD.configure.log" 2>&1 ||
		{ cat "$BUILD.configure.log" >&2; die "configure failed"; }
	mv "$BUILD.configure.log" "$BUILD/configure.log"
fi
cmake --build "$BUILD" -j "$JOBS" >"$BUILD/build.log" 2>&1 ||
	{ tail -n 40 "$BUILD/build.log" >&2; die "build failed (log: $BUILD/build.log)"; }

SEEDS=$BUILD/seeds
rm -rf "$SEEDS"
mkdir -p "$SEEDS" "$BUILD/corpus" "$BUILD/artifacts"
n=0
while IFS= read -r f; do
	n=$((n + 1))
	# "../include/compat.h" (examples) → found through -I examples/include.
	sed -e 's|#include "\(\.\./\)*include/|#include "|' "$f" >"$SEEDS/$(printf '%03d' "$n")-$(basename "$f")"
done < <(find "$ROOT/test/checkers" "$ROOT/examples" -name '*.c' -not -path '*/build/*' | sort)
echo "==> $n seed files; fuzzing for ${MAX_TIME}s"

# The harness parses with Debian's uninstrumented libclang-cpp: container
# annotations of std::vector would be half-applied across the boundary.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_container_overflow=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
LOG=$BUILD/fuzz.log
rc=0
"$BUILD/seqlint-fuzz" "$BUILD/corpus" "$SEEDS" \
	-dict="$ROOT/tools/robustness/fuzz.dict" -max_total_time="$MAX_TIME" \
	-timeout=30 -rss_limit_mb=4096 -max_len=16384 -print_final_stats=1 \
	-artifact_prefix="$BUILD/artifacts/" "${EXTRA[@]}" >"$LOG" 2>&1 || rc=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$LOG" | tail -n 1)
secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$LOG" | tail -n 1)
corpus=$(find "$BUILD/corpus" -type f | wc -l)
crashes=$(grep -c -E '^==[0-9]+==ERROR|^SUMMARY: (Address|Undefined|Leak)Sanitizer|runtime error:|deadly signal|ERROR: libFuzzer' "$LOG" || true)
tail -n 15 "$LOG"
if [ "$rc" -ne 0 ] || [ "$crashes" -gt 0 ]; then
	echo "fuzz log: $LOG; artifacts:"
	ls -l "$BUILD/artifacts/" || true
	[ "$crashes" -gt 0 ] || crashes=1
fi
echo "fuzz: ${runs:-0} runs in ${MAX_TIME} s (${secs:-0}/s), corpus $corpus inputs, $crashes crashes"
[ "$crashes" -eq 0 ]
