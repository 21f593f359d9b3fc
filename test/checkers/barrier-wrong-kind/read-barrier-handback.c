// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,barrier-wrong-kind -fsyntax-only -Xclang -verify %s
/*
 * barrier-wrong-kind: a read barrier before a FIFO's hand-back names the
 * slot load it fails to order.
 *
 * A FIFO shared with another process copies the slots it takes into the
 * caller's array, then issues a read barrier "so that the slots are read
 * before the read index moves", then stores the read index. A read barrier
 * orders loads against loads only: the slot loads are not ordered before
 * the index store, and the producer can overwrite a slot still being
 * read. The finding names that slot load, the access the barrier was
 * written for, not the copy into the caller's private array.
 * Modelled on DPDK's drivers/net/avp/rte_avp_fifo.h (avp_fifo_get());
 * rewritten.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

struct fifo {
	volatile unsigned int write;
	volatile unsigned int read;
	unsigned int len;
	void *volatile buffer[];
};

unsigned int fifo_get(struct fifo *f, void **data, unsigned int num)
{
	unsigned int i, n, new_read = f->read, w = f->write;

	n = (f->len + w - new_read) & (f->len - 1);
	if (num > n)
		num = n;
	for (i = 0; i < num; i++) {
		data[i] = f->buffer[new_read]; // expected-note {{the access before the barrier is the load of 'f->buffer[]'}}
		new_read = (new_read + 1) & (f->len - 1);
	}
	smp_rmb(); // expected-warning {{smp_rmb() does not order the load of 'f->buffer[]' before it against the store to 'f->read' after it; use smp_mb()}}
	f->read = new_read; // expected-note {{the access after the barrier is the store to 'f->read'}}
	return num;
}
