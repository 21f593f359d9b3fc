#!/usr/bin/env bash
# seqlint real-world target: the user-space C of the Linux tree's tools/
# (libperf, libbpf, perf's ring-buffer and record code, and the bpf, kvm,
# net, mm, rseq, perf_events, futex, membarrier and x86 selftests). No
# __KERNEL__ here: these files include the kernel's user-space ABI
# (tools/include/uapi) and share rings with it, the code the uapi evidence of
# mp-missing-barrier is for. Each file is compiled as given, with the
# tools/ include paths; about two in three compile (the rest need generated
# headers; clang's errors are counted, not seqlint's). Opt-in; not part of
# the default test suite.
#
# Usage: tools/real-world/kernel-tools.sh [--workdir DIR] [--source DIR] [--clang CLANG] --run PLUGIN.so [-j N]
# --source: the unpacked Linux tree (default: the one kernel.sh set up,
# <workdir>/linux-6.12); --clang: the clang the plugin was built for
# (default clang-19). Prints files, files that did not compile, crashes
# and findings per check; writes <workdir>/tools-results/ and
# <workdir>/tools-findings.tsv.
# Environment: SEQLINT_PLUGIN_ARGS (e.g. -fplugin-arg-seqlint-checks=*).
# Exit: 0 ok, 1 a crash, 2 usage/setup error.
set -euo pipefail

workdir=/var/tmp/seqlint-kernel
source_dir=""
clang=clang-19
plugin=""
jobs=$(nproc)
while [ $# -gt 0 ]; do
	case "$1" in
	--workdir) workdir=$2; shift 2 ;;
	--source) source_dir=$2; shift 2 ;;
	--clang) clang=$2; shift 2 ;;
	--run) plugin=$(readlink -f "$2"); shift 2 ;;
	-j) jobs=$2; shift 2 ;;
	-h|--help) sed -n '2,19p' "$0"; exit 0 ;;
	*) echo "kernel-tools.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
if [ -z "$plugin" ] || [ ! -f "$plugin" ]; then
	echo "kernel-tools.sh: --run PLUGIN.so is required (e.g. build/lib/seqlint.so)" >&2
	exit 2
fi
[ -n "$source_dir" ] || source_dir=$workdir/linux-6.12
if [ ! -d "$source_dir/tools/lib/perf" ]; then
	echo "kernel-tools.sh: no Linux tree at $source_dir (run tools/real-world/kernel.sh first, or give --source)" >&2
	exit 2
fi
command -v "$clang" >/dev/null || { echo "kernel-tools.sh: $clang not found" >&2; exit 2; }

cd "$source_dir"
results=$workdir/tools-results
rm -rf "$results"
mkdir -p "$results"
# shellcheck disable=SC2086
ls tools/lib/perf/*.c tools/lib/bpf/*.c tools/lib/api/*/*.c \
	tools/perf/util/mmap.c tools/perf/util/auxtrace.c tools/perf/util/evlist.c \
	tools/perf/util/session.c tools/perf/util/record.c tools/perf/builtin-record.c \
	tools/perf/builtin-trace.c tools/testing/selftests/bpf/*.c \
	tools/testing/selftests/rseq/*.c tools/testing/selftests/net/*.c \
	tools/testing/selftests/mm/*.c tools/testing/selftests/perf_events/*.c \
	tools/testing/selftests/kvm/*.c tools/testing/selftests/kvm/lib/*.c \
	tools/testing/selftests/futex/functional/*.c tools/testing/selftests/membarrier/*.c \
	tools/testing/selftests/x86/*.c tools/virtio/*.c 2>/dev/null | sort >"$results/files.txt" || true
[ -s "$results/files.txt" ] || { echo "kernel-tools.sh: no tools/ sources under $source_dir" >&2; exit 2; }

export clang plugin results SEQLINT_PLUGIN_ARGS
analyse() {
	local f=$1 out
	out="$results/${f//\//_}"
	# No -w: the plugin honours it; -Wno-everything hides clang's own only.
	# shellcheck disable=SC2086
	"$clang" -fsyntax-only -fplugin="$plugin" -fplugin-arg-seqlint-no-werror ${SEQLINT_PLUGIN_ARGS:-} \
		-D_GNU_SOURCE -Itools/include -Itools/include/uapi -Itools/arch/x86/include \
		-Itools/arch/x86/include/uapi -Itools/lib/perf/include -Itools/lib -Itools/lib/bpf \
		-Itools/perf/util -Itools/perf -Itools/perf/include -Itools/testing/selftests \
		-Itools/testing/selftests/kvm/include -Itools/testing/selftests/kvm/include/x86_64 \
		-Itools/testing/selftests/bpf -I"$(dirname "$f")" \
		-Wno-everything "$f" >"$out.stdout" 2>"$out.stderr" && rc=0 || rc=$?
	echo "$rc" >"$out.rc"
}
export -f analyse
xargs -P "$jobs" -I{} bash -c 'analyse "$@"' _ {} <"$results/files.txt"

files=$(find "$results" -name '*.rc' | wc -l)
crashes=$({ grep -l -E "PLEASE submit a bug report|Stack dump" "$results"/*.stderr 2>/dev/null || true; } | wc -l)
failed=$({ grep -L '^0$' "$results"/*.rc || true; } | wc -l)
grep -h -E "warning: .*\[seqlint-" "$results"/*.stderr 2>/dev/null |
	sed -E 's/^([^:]+):([0-9]+):([0-9]+): warning: (.*) \[(seqlint-[a-z-]+)\]( \[-W[^]]*\])?$/\1\t\2\t\3\t\5\t\4/' |
	sort -u >"$workdir/tools-findings.tsv" || true
echo "files analysed: $files"
echo "clang crashed:  $crashes"
echo "did not compile (generated headers missing; not seqlint): $failed"
echo "seqlint findings: $(wc -l <"$workdir/tools-findings.tsv")"
cut -f4 "$workdir/tools-findings.tsv" | sort | uniq -c | sed 's/^/  /'
[ "$crashes" = 0 ]
