// access-plain-reread: a location read with a marked load and checked, then
// re-read plainly: the value used is not the value checked (double fetch).
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-reread -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>

struct buf {
	spinlock_t lock;
	int len;
	char *data;
	int ready;
};

int consume(char *p, int n);

/* The length is checked with READ_ONCE and then re-read for the copy. */
int buf_read(struct buf *b, char *out, int max)
{
	if (READ_ONCE(b->len) > max)
		return -1;
	return consume(out, b->len); // expected-warning {{[seqlint-access-plain-reread]}}
}

/* The flag is published with release and checked with acquire; the data
 * pointer is then read plainly twice... the second read of the flag too. */
int buf_ready(struct buf *b)
{
	if (!smp_load_acquire(&b->ready))
		return 0;
	return b->ready + 1; // expected-warning {{[seqlint-access-plain-reread]}}
}

/* A marked check in a loop condition, re-read in the body. */
int buf_drain(struct buf *b)
{
	int n = 0;

	while (READ_ONCE(b->ready)) {
		n += b->ready; // expected-warning {{[seqlint-access-plain-reread]}}
		consume(b->data, 1);
	}
	return n;
}
