#!/bin/sh
# Quick start: install what is missing (Debian 12, as root), build seqlint,
# and run it over the bundled examples: examples/buggy has real seqcount
# bugs (findings expected), examples/fixed is the corrected twin (none).
set -eu
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}

# Only what running seqlint needs (LLVM 22, QEMU, the cross compilers and npm
# are the test command's), and only the plugin and the runner: findings in a
# few minutes on a fresh 2-core machine. scripts/test.sh builds the rest.
scripts/deps.sh --run
# Without build-essential there is no cc/c++: build with the clang just
# installed (and write the examples' database with it).
if ! command -v cc >/dev/null 2>&1 || ! command -v c++ >/dev/null 2>&1; then
	CC=${CC:-clang-19}
	CXX=${CXX:-clang++-19}
	export CC CXX
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$JOBS" --target seqlint seqlint-runner
examples/gen-compile-commands.sh

status=0
echo
echo "==> seqlint -p examples/buggy  (the bugs)"
build/bin/seqlint -p examples/buggy || status=$?
if [ "$status" -ne 1 ]; then
	echo "quickstart: expected findings in examples/buggy (exit 1), got exit $status" >&2
	exit 1
fi
echo
echo "==> seqlint -p examples/fixed  (the fixes: no findings)"
build/bin/seqlint -p examples/fixed
echo
echo "quickstart: seqlint found the bugs in examples/buggy and none in examples/fixed."
echo "Next: scripts/test.sh runs the test suite; docs/integration.md shows how to use"
echo "seqlint in your build (clang -fplugin, clang-tidy, CI with SARIF)."
