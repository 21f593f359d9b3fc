#!/bin/sh
# usage: pkgconfig-consumer.sh PREFIX CC WORKDIR
# Finds seqlint-runtime.pc under PREFIX, prints what pkg-config says, builds
# a small program with exactly those flags and runs it.
set -eu
prefix=$1 cc=$2 work=$3
mkdir -p "$work"
pc=$(find "$prefix" -name seqlint-runtime.pc | head -n 1)
[ -n "$pc" ] || { echo "seqlint-runtime.pc not installed under $prefix" >&2; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
cflags=$(pkg-config --cflags seqlint-runtime)
echo "cflags: $cflags"
echo "version: $(pkg-config --modversion seqlint-runtime)"
echo "headers: $(cd "$prefix/include" && ls seqlint/seqcount.h seqlint/linux.h seqlint/barrier.h seqlint/arch/generic.h | tr '\n' ' ')"
cat > "$work/consumer.c" <<'C'
#include <seqlint/linux.h>
#include <stdio.h>
struct pt { int x, y; };
static seqcount_t seq = SEQCNT_ZERO(seq);
static struct pt shared;
int main(void)
{
	struct pt in = { 1, 2 }, out;
	seqlint_write_object(&seq, &shared, &in);
	seqlint_read_object(&seq, &shared, &out);
	if (out.x != 1 || out.y != 2)
		return 1;
	printf("consumer: seqlint runtime works (%s)\n", SEQLINT_ARCH);
	return 0;
}
C
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Wextra -Werror $cflags "$work/consumer.c" -o "$work/consumer"
"$work/consumer"
