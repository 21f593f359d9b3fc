#!/usr/bin/env bash
# seqlint real-world target: DPDK's libraries (lib/: EAL, ring, stack, RCU,
# hash, mempool, eventdev, vhost, ipsec, power, ...), Debian bookworm source
# package `dpdk` (22.11). tools/real-world/dpdk.sh covers the example
# applications and the AF_PACKET PMD; this target is the libraries
# themselves, built with DPDK's own build system.
# Opt-in; not part of the default test suite. What it does:
#   1. installs the Debian packages it needs (as root), unpacks the source
#      package into <workdir>/src (`apt-get source dpdk`, adding a bookworm
#      deb-src entry to apt when it has none; or the .dsc in $SEQLINT_SRC_CACHE);
#   2. `CC=clang-19 meson setup` with the tests, the examples and the drivers
#      left out (the libraries' headers are generated at configure time);
#      meson writes compile_commands.json then. Nothing is compiled; keeps the
#      .c entries of lib/;
#   3. with --run PLUGIN.so: the seqlint runner twice, default checks and
#      --checks='*', --format=json, between two runs of plain clang-19
#      -fsyntax-only over the same database (for the time ratio); prints entries,
#      files analysed, crashes, findings per check and the time ratios
#      (wall-clock and CPU).
# --quick: the 8 files of lib/ with the most rte_smp_*mb/rte_atomic_*/
# __atomic_*/rte_seqlock_* uses; results in <workdir>/quick/.
#
# Usage: tools/real-world/dpdk-lib.sh [--workdir DIR] [-j N] [--quick] [--run PLUGIN.so]
# Writes: <workdir>[/quick]/db/compile_commands.json, findings-{default,all}.{json,tsv},
#         runner-{default,all}.stderr, plain.log, summary.txt.
# Exit: 0 ok, 1 a crash (clang or the runner), 2 usage or setup error.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

rw_init dpdk-lib
DIRS=(lib)
QUICK_RE='rte_smp_[a-z]+|rte_io_[rw]?mb|rte_atomic_thread_fence|rte_atomic[0-9]*_[a-z_]+|__atomic_[a-z_]+|rte_seqlock_[a-z_]+|rte_seqcount_[a-z_]+'
# Every driver class off (bus/ stays: the libraries need it), no tests, no
# examples: the database is the libraries'.
SETUP=(-Dtests=false -Dexamples= -Denable_docs=false
	"-Ddisable_drivers=baseband/*,common/*,compress/*,crypto/*,dma/*,event/*,gpu/*,mempool/*,ml/*,net/*,raw/*,regex/*,vdpa/*")
rw_parse_args "$@"

dpdk_configure() { CC=clang-19 meson setup "$BUILD" "${SETUP[@]}"; }

setup() {
	local db=$OUT/db/compile_commands.json
	rw_have_db && return
	rw_prepare dpdk clang-19 meson ninja-build pkg-config python3 python3-pyelftools \
		libnuma-dev dpkg-dev xz-utils
	BUILD=$SRC/build-seqlint
	rw_configure_once "CC=clang-19 meson setup ${SETUP[*]}" dpdk_configure
	step "compile database"
	rw_db_from_build "$BUILD/compile_commands.json" "$db"
}

setup
rw_finish
