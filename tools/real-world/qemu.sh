#!/usr/bin/env bash
# seqlint real-world target: QEMU (Debian bookworm source package `qemu`, 7.2):
# util/ (RCU, AIO, QemuEvent, seqlock users), hw/virtio/ (virtqueue and vhost
# rings), block/ (the block layer, io_uring and linux-aio back ends) and
# accel/tcg/ (translation-block cache, cpu_exec).
# Opt-in; not part of the default test suite. What it does:
#   1. installs the Debian packages it needs (as root), unpacks the source
#      package into <workdir>/src (`apt-get source qemu`, adding a bookworm
#      deb-src entry to apt when it has none; or the .dsc in $SEQLINT_SRC_CACHE);
#   2. a minimal configure (not `apt-get build-dep qemu`): --cc=clang-19
#      --target-list=x86_64-softmmu --without-default-features, then only
#      tcg, kvm, vhost-{kernel,net,user,vdpa}, linux-aio, linux-io-uring and a
#      system libfdt (required by x86_64-softmmu); meson writes
#      compile_commands.json at configure time. Nothing is compiled: ninja builds
#      only the generated headers (QAPI, trace, config) that the selected
#      objects depend on (their order-only inputs, `ninja -t query`);
#      keeps the .c entries of util/, hw/virtio/, block/ and accel/tcg/;
#   3. with --run PLUGIN.so: the seqlint runner twice, default checks and
#      --checks='*', --format=json, between two runs of plain clang-19
#      -fsyntax-only over the same database (for the time ratio); prints entries,
#      files analysed, crashes, findings per check and the time ratios
#      (wall-clock and CPU).
# --quick: the same configure; the headers of, and the analysis of, the 8
# files (taken in turn from the four directories) with the most
# smp_*mb*/qatomic_*/seqlock_* uses; results in <workdir>/quick/.
#
# Usage: tools/real-world/qemu.sh [--workdir DIR] [-j N] [--quick] [--run PLUGIN.so]
# Writes: <workdir>[/quick]/db/compile_commands.json, findings-{default,all}.{json,tsv},
#         runner-{default,all}.stderr, plain.log, summary.txt.
# Exit: 0 ok, 1 a crash (clang or the runner), 2 usage or setup error.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

rw_init qemu
DIRS=(util hw/virtio block accel/tcg)
QUICK_RE='smp_(wmb|rmb|mb|mb_acquire|mb_release|read_barrier_depends)|qatomic_[a-z_0-9]+|seqlock_[a-z_]+|atomic_thread_fence'
CONFIGURE=(--cc=clang-19 --cxx=clang++-19 --target-list=x86_64-softmmu --without-default-features
	--enable-tcg --enable-kvm --enable-vhost-kernel --enable-vhost-net --enable-vhost-user
	--enable-vhost-vdpa --enable-linux-aio --enable-linux-io-uring --enable-fdt=system
	--disable-werror --disable-docs --disable-install-blobs)
rw_parse_args "$@"

# The generated files that the objects of the database's entries depend on
# (order-only inputs in build.ninja).
generated_inputs() {
	python3 -c 'import json,sys
for e in json.load(open(sys.argv[1])):
    if e.get("output"): print(e["output"])' "$1" >"$OUT/objects.txt"
	[ -s "$OUT/objects.txt" ] || die "no \"output\" in the entries of $1"
	xargs ninja -C "$BUILD" -t query <"$OUT/objects.txt" | sed -n 's/^ *|| //p' | sort -u
}

qemu_configure() { (cd "$BUILD" && ../configure "${CONFIGURE[@]}"); }

setup() {
	local db=$OUT/db/compile_commands.json
	rw_have_db && return
	rw_prepare qemu clang-19 meson ninja-build pkg-config python3 dpkg-dev xz-utils \
		libglib2.0-dev libpixman-1-dev libfdt-dev libaio-dev liburing-dev
	BUILD=$SRC/build-seqlint
	local t0
	rw_configure_once "configure ${CONFIGURE[*]}" qemu_configure
	step "generated headers (log: $OUT/build.log)"
	t0=$(now)
	rw_db_from_build "$BUILD/compile_commands.json" "$db"
	generated_inputs "$db" >"$OUT/generated.txt"
	say "building $(wc -l <"$OUT/generated.txt") generated files"
	if [ -s "$OUT/generated.txt" ]; then
		xargs ninja -C "$BUILD" -j"$JOBS" <"$OUT/generated.txt" >"$OUT/build.log" 2>&1 ||
			{ tail -n 20 "$OUT/build.log" >&2; die "ninja failed on the generated headers"; }
	fi
	say "generated headers: $(elapsed "$t0" "$(now)") s"
}

setup
rw_finish
