#!/usr/bin/env bash
# seqlint real-world target: the DPDK 22.11 example applications that Debian
# ships in dpdk-doc (/usr/share/dpdk/examples), compiled against libdpdk-dev.
# Opt-in; not part of the default test suite.
#
# Usage: tools/real-world/dpdk.sh [--workdir DIR] --run PLUGIN.so [-j N] [--source DIR]
#   --source DIR  also the AF_PACKET PMD (drivers/net/af_packet) of an unpacked
#                 Debian dpdk source tree (`apt-get source dpdk`): a driver
#                 over a ring the kernel shares, which the examples lack
# Prints: files, compile failures (not seqlint's), crashes, findings per check;
# writes <workdir>/results/<file>.{stderr,rc} and <workdir>/findings.tsv.
# Environment: SEQLINT_PLUGIN_ARGS (extra -fplugin-arg-seqlint-..., e.g.
# -fplugin-arg-seqlint-checks=* for every check).
# Exit: 0 ok, 1 a crash, 2 usage/setup error.
set -euo pipefail

workdir=/var/tmp/seqlint-dpdk
plugin=""
source_tree=""
jobs=$(nproc)
while [ $# -gt 0 ]; do
	case "$1" in
	--workdir) workdir=$2; shift 2 ;;
	--run) plugin=$(readlink -f "$2"); shift 2 ;;
	-j) jobs=$2; shift 2 ;;
	--source) source_tree=$(readlink -f "$2"); shift 2 ;;
	-h|--help) sed -n '2,13p' "$0"; exit 0 ;;
	*) echo "dpdk.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
if [ -z "$plugin" ] || [ ! -f "$plugin" ]; then
	echo "dpdk.sh: --run PLUGIN.so is required (e.g. build/lib/seqlint.so)" >&2
	exit 2
fi
for p in libdpdk-dev dpdk-doc pkg-config clang-19; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		if [ "$(id -u)" = 0 ]; then
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p" >/dev/null
		else
			echo "dpdk.sh: missing Debian package $p" >&2
			exit 2
		fi
	fi
done
examples=/usr/share/dpdk/examples
[ -d "$examples" ] || { echo "dpdk.sh: $examples not found (dpdk-doc)" >&2; exit 2; }
pmd=""
if [ -n "$source_tree" ]; then
	pmd=$source_tree/drivers/net/af_packet/rte_eth_af_packet.c
	[ -f "$pmd" ] || { echo "dpdk.sh: --source: $pmd not found (a dpdk source tree?)" >&2; exit 2; }
fi

cflags=$(pkg-config --cflags libdpdk)
rm -rf "$workdir/results"
mkdir -p "$workdir/results"
export plugin cflags workdir examples SEQLINT_PLUGIN_ARGS
# compile OUT FILE FLAGS...: the plugin over FILE with the DPDK flags and
# FLAGS; OUT.{stdout,stderr,rc}.
compile() {
	local out=$1 f=$2
	shift 2
	# shellcheck disable=SC2086
	# No -w: the plugin honours it and would silence its own findings too;
	# -Wno-everything hides clang's warnings only (clang 19 keeps plugin
	# diagnostics out of warning groups).
	clang-19 -fsyntax-only -fplugin="$plugin" -fplugin-arg-seqlint-no-werror ${SEQLINT_PLUGIN_ARGS:-} \
		$cflags "$@" -Wno-everything "$f" >"$out.stdout" 2>"$out.stderr" && rc=0 || rc=$?
	echo "$rc" >"$out.rc"
}
analyse() {
	local f=$1 rel=${1#"$examples"/}
	compile "$workdir/results/${rel//\//_}" "$f" \
		-DALLOW_EXPERIMENTAL_API -I"$(dirname "$f")" -I"$(dirname "$(dirname "$f")")"
}
export -f compile analyse
find "$examples" -name '*.c' | sort | xargs -P "$jobs" -I{} bash -c 'analyse "$@"' _ {}
if [ -n "$pmd" ]; then
	# A driver compiles against the source's own internal headers (ethdev
	# driver API, the vdev bus, EAL), with the installed rte_config.h.
	compile "$workdir/results/pmd_$(basename "$pmd")" "$pmd" \
		-I"$source_tree/lib/ethdev" -I"$source_tree/drivers/bus/vdev" \
		-I"$source_tree/lib/eal/include" -include rte_config.h
fi

files=$(find "$workdir/results" -name '*.rc' | wc -l)
crashes=$({ grep -l -E "PLEASE submit a bug report|Stack dump" "$workdir"/results/*.stderr 2>/dev/null || true; } | wc -l)
failed=$({ grep -L '^0$' "$workdir"/results/*.rc || true; } | wc -l)
grep -h -E "warning: .*\[seqlint-" "$workdir"/results/*.stderr 2>/dev/null |
	sed -E 's/^([^:]+):([0-9]+):([0-9]+): warning: (.*) \[(seqlint-[a-z-]+)\]( \[-W[^]]*\])?$/\1\t\2\t\3\t\5\t\4/' |
	sed -e "s|$examples/||" ${source_tree:+-e "s|$source_tree/|dpdk-source/|"} >"$workdir/findings.tsv" || true
echo "files analysed: $files"
echo "clang crashed:  $crashes"
echo "did not compile (missing optional deps; not seqlint): $failed"
echo "seqlint findings: $(wc -l <"$workdir/findings.tsv")"
cut -f4 "$workdir/findings.tsv" | sort | uniq -c | sed 's/^/  /'
[ "$crashes" = 0 ]
