// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier, one side: a pointer store publishes the object it
 * points to, with the stores into that object before it as its data. A
 * back link is no such data: unlinking an entry of a doubly-linked list
 * stores into the next node the address of the previous one, whose `next`
 * then points to it (`next->prev = prev; WRITE_ONCE(prev->next, next)`).
 * A reader that arrives at `next` through `prev->next` already knows
 * `prev`. Modelled on Linux's list.h __list_del() and __list_add_rcu(),
 * written in a .c file as user-space projects copy them. Insertion still
 * publishes the new node's forward link.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>

struct node {
	struct node *next, *prev;
	int key;
};

/* Correct: an unlink; the only store into `next` is its back link. */
static void node_unlink(struct node *prev, struct node *next)
{
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
}

void node_del(struct node *n)
{
	node_unlink(n->prev, n->next);
}

/* Bug: the new node's forward link and key are published unordered. */
void node_insert_after(struct node *prev, struct node *new, int key)
{
	struct node *next = prev->next;

	new->key = key;
	new->next = next;
	new->prev = prev;
	next->prev = new;
	WRITE_ONCE(prev->next, new); // expected-warning {{'prev->next' is published here after the store to}}
}

/* The lockless reader that makes the list shared. */
int node_find(struct node *head, int key)
{
	struct node *n;

	for (n = smp_load_acquire(&head->next); n != head; n = smp_load_acquire(&n->next))
		if (n->key == key)
			return 1;
	return 0;
}
