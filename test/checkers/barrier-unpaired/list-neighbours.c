// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,barrier-unpaired,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * barrier-unpaired: data and flag must lie in one object, or in objects on
 * one chain of pointers from the same root. Unlinking an entry from a
 * doubly-linked list stores into its two neighbours: `entry->next->prev`
 * and `entry->prev->next` are fields of two different objects, so the
 * second store publishes nothing the first one wrote, even though a
 * careful emptiness test reads the list head with smp_load_acquire().
 * Modelled on Linux's list.h (__list_del(), list_del_init_careful(),
 * list_empty_careful(), in a header), seen through at the callers, as the kernel's
 * io_uring, fs/locks.c and fs/aio.c use them. A cursor whose data hangs
 * one pointer further from the same root (`c->tree->root` with the flag
 * `c->ready`) still pairs.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>
#include "Inputs/list-careful.h"

struct waiter {
	struct list_head node;
	int task;
};

/* Correct: the unlink's stores are into the neighbours. */
void waiter_remove(struct waiter *w)
{
	list_del_init_careful(&w->node);
}

void waiter_drop(struct waiter *w)
{
	list_del(&w->node);
}

int waiter_gone(struct waiter *w)
{
	return list_empty_careful(&w->node);
}

/* --- one chain of pointers: the pair still holds --- */
struct tree {
	int root;
};

struct cursor {
	struct tree *tree;
	int ready;
};

/* Bug: the reader's acquire has no partner. */
void cursor_publish(struct cursor *c, int v)
{
	c->tree->root = v;
	WRITE_ONCE(c->ready, 1); // expected-warning {{'c->ready' is published here after the store to 'c->tree->root' with no write barrier in between, but its reader in 'cursor_read()' orders its loads with smp_load_acquire(): that ordering has no partner here}}
}

int cursor_read(struct cursor *c)
{
	if (smp_load_acquire(&c->ready))
		return c->tree->root;
	return 0;
}
