// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify %s
/*
 * mp-missing-barrier: a reader that tests a pointer and then reads through
 * it (`if (e->next) s = e->next->state;`, a volatile link) reads the object the
 * pointer points to, not the one that holds the pointer. Its data pairs
 * with a writer that fills an object and then publishes its address, and
 * it is ordered by the address dependency; it does not pair with a writer
 * that fills the fields of the object holding the pointer and then sets
 * the pointer to some other object. Modelled on a heap of blocks in a
 * doubly-linked list whose links are volatile (DPDK's malloc_elem.c:
 * split_elem() sets up the new block's state and then its link to the
 * next block; malloc_elem_join_adjacent_free() tests `elem->next` and
 * reads `elem->next->state`).
 */
#include <linux/compiler.h>
#include <asm/barrier.h>

struct block {
	struct block *volatile next;
	int state;
	long size;
};

struct heap {
	struct block *volatile first;
};

/* The writer fills the holder's fields, then links it to another block:
 * the link announces nothing about the block it points to. */
void block_split(struct block *b, struct block *nb, long size)
{
	nb->state = 0;
	nb->size = size;
	nb->next = b->next;
}

/* Correct for that writer: the reader reads the next block's state. */
int block_next_free(struct block *b)
{
	if (b->next && b->next->state == 0)
		return 1;
	return 0;
}

/* Bug: a new block's fields, then its address, with no release. */
void heap_push(struct heap *h, struct block *nb)
{
	nb->state = 1;
	nb->size = 64; // expected-note {{'nb->size' is stored here}}
	h->first = nb; // expected-warning {{'h->first' is published here after the store to 'nb->size' with no write barrier in between}}
}

/* This reader reads through the published pointer: ordered by the
 * dependency, so the writer is the side to fix. */
long heap_first_size(struct heap *h)
{
	if (h->first) // expected-note {{'h->first' is read here, in 'heap_first_size()', and 'h->first->size' after it}}
		return h->first->size;
	return 0;
}
