#!/usr/bin/env bash
# Plugin cost in instructions (valgrind callgrind), immune to machine load:
# one compile command with and without the plugin, side by side, and the
# ratio; plus the share of the plugin's top functions.
#
# Usage: bench/plugin/instructions.sh [--plugin PATH] [--db DIR] FILE [FILE...]
#   FILE: a file of DIR/compile_commands.json (default /var/tmp/seqlint-kernel),
#   e.g. net/sunrpc/sched.c. Each is measured with -fsyntax-only and with -O2 -c.
set -euo pipefail
plugin=build/lib/seqlint.so
db=/var/tmp/seqlint-kernel
files=()
while [ $# -gt 0 ]; do
	case "$1" in
	--plugin) plugin=$2; shift 2 ;;
	--db) db=$2; shift 2 ;;
	-h|--help) sed -n '2,9p' "$0"; exit 0 ;;
	*) files+=("$1"); shift ;;
	esac
done
[ ${#files[@]} -gt 0 ] || { echo "instructions.sh: name at least one file" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
plugin=$(readlink -f "$plugin")
snap=$(mktemp /tmp/seqlint-bench-XXXX.so)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$snap"' EXIT
cp "$plugin" "$snap"

count() { # args: outfile command...
	local out=$1; shift
	valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>"$out.log" || true
	sed -n 's/.*I *refs: *//p' "$out.log" | tr -d ,
}

printf '%-32s %-14s %14s %14s %8s\n' file mode plain plugin ratio
for f in "${files[@]}"; do
	entry=$(python3 - "$db/compile_commands.json" "$f" <<'PY'
import json, shlex, sys, os
db, want = sys.argv[1], sys.argv[2]
for e in json.load(open(db)):
    path = os.path.normpath(os.path.join(e["directory"], e["file"]))
    if path.endswith("/" + want) or e["file"] == want:
        args = e.get("arguments") or shlex.split(e["command"])
        out, skip = [], False
        for a in args:
            if skip: skip = False; continue
            if a == "-o": skip = True; continue
            if a in ("-c", "-Werror") or a.startswith(("-Wp,-MMD", "-Wp,-MD")): continue
            out.append(a)
        print(e["directory"]); print(shlex.join(out)); break
PY
)
	[ -n "$entry" ] || { echo "instructions.sh: $f not in $db/compile_commands.json" >&2; exit 2; }
	dir=$(echo "$entry" | sed -n 1p)
	cmd=$(echo "$entry" | sed -n 2p)
	cc=$(command -v clang-19)
	for mode in syntax c; do
		extra="-fsyntax-only"
		[ $mode = c ] && extra="-c -o $tmp/out.o"
		# shellcheck disable=SC2086
		p=$(cd "$dir" && eval "count $tmp/p.out $cc ${cmd#* } $extra")
		# shellcheck disable=SC2086
		q=$(cd "$dir" && eval "count $tmp/q.out $cc ${cmd#* } $extra -fplugin=$snap -fplugin-arg-seqlint-no-werror")
		printf '%-32s %-14s %14s %14s %8s\n' "$f" "$mode" "$p" "$q" \
			"$(python3 -c "print('%.3f' % ($q / $p))")"
	done
done
