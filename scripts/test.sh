#!/bin/sh
# Build seqlint and run the whole lit suite (what CI runs), once per LLVM
# major: a plugin is tied to the clang it was built for, so each major gets
# its own build tree and its own run of the suite.
# Ends with one line "N passed, N failed": lit's own counts, summed over the
# majors.
# Environment: BUILD_DIR (default build: the LLVM 19 tree; other majors build
# in $BUILD_DIR-<major>, e.g. build-22), JOBS (default 2), LLVM_VERSIONS
# (default "19 22"; LLVM_VERSION=N alone tests just N), SEQLINT_REAL_WORLD_QUICK
# (default 1: test/tools/real-world-quick.test runs the library targets of
# tools/real-world/ in their --quick mode, which fetches Debian source
# packages; 0 skips it, e.g. offline).
# SEQLINT_DEB_INSTALL (default 0; .ci/run sets 1): 1 makes
# test/tools/deb-apt-install.test install the seqlint .deb with apt, run it and
# purge it (as root; it changes the system).
set -eu
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-2}
LLVM_VERSIONS=${LLVM_VERSIONS:-${LLVM_VERSION:-19 22}}
SEQLINT_REAL_WORLD_QUICK=${SEQLINT_REAL_WORLD_QUICK:-1}
export SEQLINT_REAL_WORLD_QUICK

scripts/deps.sh

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# lit prints "  Passed     : 17 (89.47%)"; absent lines mean zero.
count() {
	sed -n "s/^ *$1 *: *\([0-9][0-9]*\).*/\1/p" "$log" | tail -n 1
}
passed=0
failed=0
for v in $LLVM_VERSIONS; do
	dir=$BUILD_DIR
	if [ "$v" != 19 ]; then
		dir=$BUILD_DIR-$v
	fi
	echo "seqlint: LLVM $v in $dir"
	: >"$log"
	if cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
		-DLLVM_VERSION="$v" >/dev/null && cmake --build "$dir" -j "$JOBS"; then
		lit=/usr/lib/llvm-$v/build/utils/lit/lit.py
		[ -f "$lit" ] || lit=/usr/lib/llvm-$v/bin/lit
		python3 "$lit" -sv -j "$JOBS" "$dir/test" 2>&1 | tee "$log" || true
	else
		echo "seqlint: LLVM $v: build failed" >&2
		failed=$((failed + 1))
	fi
	n=$(count Passed); passed=$((passed + ${n:-0}))
	for k in Failed Unresolved "Timed Out" XPASS; do
		n=$(count "$k"); failed=$((failed + ${n:-0}))
	done
done

status=0
if [ "$passed" = 0 ] || [ "$failed" != 0 ]; then
	status=1
fi
echo "$passed passed, $failed failed"
exit "$status"
