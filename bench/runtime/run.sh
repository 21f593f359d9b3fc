#!/bin/sh
# Build and run the runtime benchmark (not part of the lit suite).
#   bench/runtime/run.sh [bench options]     e.g. --trials=21 --ms=100 --gap=0
# Needs: libck-dev, libdpdk-dev (headers only), a C compiler.  CC=clang-19 to
# use clang; CFLAGS to override -O2.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${BENCH_OUT:-${TMPDIR:-/tmp}/seqlint-bench}
cc=${CC:-cc}
mkdir -p "$out"

# DPDK: rte_seqcount.h / rte_seqlock.h are header-only; we need the include
# dirs and rte_config.h, not the libraries.
if pkg-config --exists libdpdk 2>/dev/null; then
	dpdk_cflags=$(pkg-config --cflags-only-I libdpdk)
else
	dpdk_cflags="-I/usr/include/dpdk -I/usr/include/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/dpdk"
fi

# shellcheck disable=SC2086
"$cc" -std=gnu11 ${CFLAGS:--O2} -pthread -I"$root/runtime/include" $dpdk_cflags \
	-include rte_config.h -DALLOW_EXPERIMENTAL_API \
	"$here/bench.c" -o "$out/bench"
echo "# compiler: $("$cc" --version | head -n 1); flags: ${CFLAGS:--O2}"
echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
exec "$out/bench" "$@"
