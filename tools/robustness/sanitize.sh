#!/usr/bin/env bash
# Robustness: the whole lit suite against a plugin built with ASan + UBSan.
#
# Configures BUILD_DIR (default build-asan) with -DSEQLINT_SANITIZE=ON and the
# default compilers (g++/gcc: they link the sanitizer runtimes as shared
# libraries everywhere, so the instrumented runner and plugin share the one
# preloaded runtime; CC/CXX override, see README.md for clang), builds it, and
# runs lit on BUILD_DIR/test. Clang itself is not instrumented, so the sanitizer
# runtime must be the first library of every process that loads the plugin:
# test/CMakeLists.txt finds it (`c++ -print-file-name=libasan.so`, or
# libclang_rt.asan-x86_64.so for clang++) and lit.cfg.py sets, for every RUN line,
#   LD_PRELOAD=<that runtime> ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
#   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1
# (clang frees nothing at exit on purpose, hence no leak detection). By hand:
#   LD_PRELOAD=$(g++ -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
#     clang-19 -fplugin=build-asan/lib/seqlint.so ...
#
# Usage: tools/robustness/sanitize.sh [--build-dir DIR] [-j N] [-- <lit args>]
# Prints lit's summary. Exit status: lit's (0: every test passed); 2 setup error.
set -euo pipefail

PROG=${0##*/}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$ROOT/build-asan
JOBS=2
LIT_ARGS=()

die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case $1 in
	--build-dir)   BUILD=$2; shift 2 ;;
	--build-dir=*) BUILD=${1#*=}; shift ;;
	-j)            JOBS=$2; shift 2 ;;
	-j*)           JOBS=${1#-j}; shift ;;
	--)            shift; LIT_ARGS=("$@"); break ;;
	-h|--help)     sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	*)             die "unknown argument: $1 (see --help)" ;;
	esac
done

COMPILERS=()
[ -z "${CC:-}" ] || COMPILERS+=("-DCMAKE_C_COMPILER=$CC")
[ -z "${CXX:-}" ] || COMPILERS+=("-DCMAKE_CXX_COMPILER=$CXX")
# clang links its ASan runtime statically into executables: the instrumented
# runner would then clash with the preloaded shared runtime ("incompatible ASan
# runtimes"); link it against the shared one instead.
case ${CC:-} in
*clang*)
	RTDIR=$(dirname "$("$CC" -print-file-name=libclang_rt.asan-x86_64.so)")
	COMPILERS+=("-DCMAKE_EXE_LINKER_FLAGS=-shared-libsan -Wl,-rpath,$RTDIR") ;;
esac
GEN=()
command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
mkdir -p "$BUILD"
echo "==> configuring $BUILD (SEQLINT_SANITIZE=ON${CXX:+, $CXX})"
cmake -S "$ROOT" -B "$BUILD" "${GEN[@]}" -DSEQLINT_SANITIZE=ON "${COMPILERS[@]}" \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >"$BUILD/configure.log" 2>&1 ||
	{ tail -n 30 "$BUILD/configure.log" >&2; die "configure failed (log: $BUILD/configure.log)"; }
echo "==> building (-j$JOBS)"
cmake --build "$BUILD" -j "$JOBS" >"$BUILD/build.log" 2>&1 ||
	{ tail -n 40 "$BUILD/build.log" >&2; die "build failed (log: $BUILD/build.log)"; }

RT=$(sed -n 's/^config.sanitizer_runtime = "\([^"]*\)".*/\1/p' "$BUILD/test/lit.site.cfg.py")
[ -n "$RT" ] && [ -f "$RT" ] || die "no sanitizer runtime in $BUILD/test/lit.site.cfg.py"
nm -D "$BUILD/lib/seqlint.so" | grep ' U __asan_' >/dev/null ||
	die "$BUILD/lib/seqlint.so is not instrumented (SEQLINT_SANITIZE ignored?)"
echo "==> preloading $RT"
# Smoke check: the instrumented plugin loads and runs in clang-19.
LD_PRELOAD=$RT ASAN_OPTIONS=detect_leaks=0 clang-19 -fsyntax-only -fplugin="$BUILD/lib/seqlint.so" \
	-I "$ROOT/test/Inputs/kernel" "$ROOT/test/Inputs/kernel/smoke.c" ||
	die "the instrumented plugin does not load or run in clang-19"

LIT=$(sed -n 's/^SEQLINT_LIT:FILEPATH=//p' "$BUILD/CMakeCache.txt")
[ -n "$LIT" ] || LIT=/usr/lib/llvm-19/build/utils/lit/lit.py
echo "==> lit $BUILD/test"
rc=0
python3 "$LIT" -sv -j "$JOBS" "${LIT_ARGS[@]}" "$BUILD/test" || rc=$?
exit "$rc"
