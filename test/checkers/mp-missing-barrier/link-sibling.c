// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify %s
/*
 * mp-missing-barrier: a link of a linked structure (a pointer member to the
 * record that declares it, `b->next`, `b->prev`) says where the neighbour
 * is. Setting it does not announce the other fields of the block that holds
 * it: whoever made that block reachable did. A writer that fills a block
 * and then sets the block's own link, and a reader that tests a block's
 * link and then reads that block's size, are no message-passing pair.
 * Modelled on DPDK's malloc heap (lib/eal/common/malloc_elem.c), whose
 * links are volatile: split_elem() initialises the new block (heap, state,
 * size) and then sets its prev and next; next_elem_is_adjacent() and
 * malloc_elem_join_adjacent_free() test elem->next and read elem->size.
 * A pointer member to another type, set after the fields it goes with, is
 * still a flag for them.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>

struct heap;

struct block {
	struct heap *heap;
	struct block *volatile prev;
	struct block *volatile next;
	int state;
	long size;
};

/* Not a publication of nb's fields: nb->next and nb->prev are its links. */
void block_split(struct block *b, struct block *nb, struct heap *h, long size)
{
	struct block *nx = b->next;

	nb->heap = h;
	nb->state = 0;
	nb->size = size;
	nb->prev = b;
	nb->next = nx;
}

long block_span(struct block *b)
{
	struct block *n = b->next;

	if (n)
		return b->size;
	return 0;
}

struct buffer {
	long len;
	char *volatile data; /* set once the length is known */
};

/* Bug: a pointer to another type published after the length it goes
 * with. */
void buffer_fill(struct buffer *b, char *d, long n)
{
	b->len = n; // expected-note {{'b->len' is stored here}}
	b->data = d; // expected-warning {{'b->data' is published here after the store to 'b->len' with no write barrier in between}} expected-note {{'b->data' is published here, in 'buffer_fill()', after 'b->len' is stored}}
}

long buffer_len(struct buffer *b)
{
	if (b->data) // expected-warning {{'b->len' is read after the flag 'b->data' with no read barrier}} expected-note {{'b->data' is read here, in 'buffer_len()', and 'b->len' after it}}
		return b->len; // expected-note {{'b->len' is read here}}
	return 0;
}
