#!/bin/sh
# Write examples/buggy/compile_commands.json and examples/fixed/compile_commands.json
# for this checkout, with absolute paths, matching what the Makefile runs:
#   $CC -std=gnu11 -O2 -Wall -Wextra -c <dir>/<file>.c -o build/<dir>/<file>.o
# (run from anywhere; CC defaults to cc, like the Makefile).
#
#   examples/gen-compile-commands.sh
#   build/bin/seqlint -p examples/buggy      # findings
#   build/bin/seqlint -p examples/fixed      # none
set -eu

here=$(cd "$(dirname "$0")" && pwd -P)
cc=${CC:-cc}

# JSON string body: escape backslashes and double quotes.
json_escape() {
	printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g'
}

for variant in buggy fixed; do
	mkdir -p "$here/build/$variant"
	out="$here/$variant/compile_commands.json"
	tmp="$out.tmp.$$"
	dir=$(json_escape "$here")
	first=1
	{
		printf '[\n'
		for src in "$here/$variant"/*.c; do
			[ -e "$src" ] || continue
			name=$(basename "$src" .c)
			file=$(json_escape "$src")
			obj=$(json_escape "$here/build/$variant/$name.o")
			compiler=$(json_escape "$cc")
			if [ "$first" -eq 0 ]; then
				printf ',\n'
			fi
			first=0
			printf '  {\n'
			printf '    "directory": "%s",\n' "$dir"
			printf '    "arguments": ["%s", "-std=gnu11", "-O2", "-Wall", "-Wextra", "-c", "%s", "-o", "%s"],\n' \
				"$compiler" "$file" "$obj"
			printf '    "file": "%s",\n' "$file"
			printf '    "output": "%s"\n' "$obj"
			printf '  }'
		done
		printf '\n]\n'
	} >"$tmp"
	mv "$tmp" "$out"
	echo "wrote $out"
done
