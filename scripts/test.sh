#!/bin/sh
# Build seqlint and run the whole lit suite (what CI runs).
# Ends with one line "N passed, N failed" taken from lit's own counts.
# Environment: BUILD_DIR (default build), JOBS (default 2), LLVM_VERSION (19).
set -eu
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-2}
LLVM_VERSION=${LLVM_VERSION:-19}

scripts/deps.sh
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
	-DLLVM_VERSION="$LLVM_VERSION" >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
python3 "/usr/lib/llvm-$LLVM_VERSION/build/utils/lit/lit.py" -sv -j "$JOBS" \
	"$BUILD_DIR/test" 2>&1 | tee "$log" || true
# lit prints "  Passed     : 17 (89.47%)"; absent lines mean zero.
count() {
	sed -n "s/^ *$1 *: *\([0-9][0-9]*\).*/\1/p" "$log" | tail -n 1
}
passed=$(count Passed); passed=${passed:-0}
failed=$(count Failed); failed=${failed:-0}
for k in Unresolved "Timed Out" XPASS; do
	n=$(count "$k"); failed=$((failed + ${n:-0}))
done
if [ "$passed" = 0 ] || [ "$failed" != 0 ]; then
	status=1
fi
echo "$passed passed, $failed failed"
exit "$status"
