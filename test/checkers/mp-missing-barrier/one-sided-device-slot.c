// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify %s
/*
 * mp-missing-barrier, one side: a polled word of a device descriptor
 * orders the rest of that descriptor, which the device wrote first. When
 * the word is an element of an array (`c->mem[i]`, `r->desc[i].status`),
 * the descriptor is that element: a field of the structure that holds the
 * array (`c->total`) is no part of it, even through the same pointer.
 * Modelled on DPDK's EAL configuration (lib/eal/common/eal_common_dynmem.c:
 * eal_dynmem_calc_num_pages_per_socket() tests
 * `internal_conf->socket_mem[socket]`, a volatile array, and then reads
 * `internal_conf->memory`). Descriptors in an embedded array are still
 * judged.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

struct config {
	volatile u64 mem[8];
	volatile u64 total;
};

/* Correct: mem[] and total are configuration, not one descriptor. */
u64 config_total(struct config *c, int node)
{
	if (c->mem[node] != 0)
		return c->total;
	return 0;
}

struct desc {
	volatile u32 status;
	u32 len;
	u64 addr;
};

struct ring {
	struct desc d[16];
	unsigned int next;
};

/* Bug: the descriptor's other words read before its status is ordered. */
u64 ring_poll(struct ring *r)
{
	unsigned int i = r->next & 15;

	if (!(r->d[i].status & 1)) // expected-warning {{'r->d[].addr' is read after 'r->d[].status' is loaded and tested, with no read barrier}} expected-note {{shared with the other side}}
		return 0;
	r->next++;
	return r->d[i].addr; // expected-note {{the load of 'r->d[].addr' is here}}
}
