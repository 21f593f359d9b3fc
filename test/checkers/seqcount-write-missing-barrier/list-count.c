// RUN: %clang_plugin -fplugin-arg-seqlint-checks=* -fsyntax-only -Xclang -verify %s
/*
 * A list's length is no seqcount. A command queue moves a pending element
 * from the execution list to the completion list in steps: it first pushes
 * a spacer onto the completion list, issues mb() so that a lockless
 * "both lists empty?" check never sees both empty at once, moves the
 * element, and removes the spacer. Each push steps the completion list's
 * count up and each removal steps it down, so the count is incremented
 * twice around stores to the list with a barrier between: the shape of an
 * open-coded seqcount writer, and every plain store to a list link
 * elsewhere looked like one "outside the write sections". A count that is
 * stepped down anywhere in the file counts things; a sequence only goes
 * up. A counter that only goes up, bracketing the same stores, is still a
 * writer.
 * Modelled on DPDK's drivers/net/bnx2x/ecore_sp.c (ecore_exe_queue_step()
 * and ECORE_LIST_PUSH_TAIL()/ECORE_LIST_REMOVE_ENTRY()); rewritten.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

struct link { struct link *next, *prev; };
struct list { struct link *head, *tail; int cnt; };
struct elem { struct link link; int len; };
struct exeq { struct list exe, pending; int chunk; };

#define LIST_PUSH_TAIL(e, l)                \
	do {                                \
		(e)->next = NULL;           \
		(e)->prev = (l)->tail;      \
		if ((l)->tail)              \
			(l)->tail->next = (e); \
		else                        \
			(l)->head = (e);    \
		(l)->tail = (e);            \
		(l)->cnt++;                 \
	} while (0)

#define LIST_REMOVE(e, l)                              \
	do {                                           \
		if ((e)->prev)                         \
			(e)->prev->next = (e)->next;   \
		else                                   \
			(l)->head = (e)->next;         \
		if ((e)->next)                         \
			(e)->next->prev = (e)->prev;   \
		else                                   \
			(l)->tail = (e)->prev;         \
		(l)->cnt--;                            \
	} while (0)

int exeq_step(struct exeq *q)
{
	struct elem spacer = {0};
	int len = 0;

	while (q->exe.head) {
		struct elem *e = (struct elem *)q->exe.head;

		if (len + e->len > q->chunk)
			break;
		len += e->len;
		LIST_PUSH_TAIL(&spacer.link, &q->pending);
		mb();
		LIST_REMOVE(&e->link, &q->exe);
		LIST_PUSH_TAIL(&e->link, &q->pending);
		LIST_REMOVE(&spacer.link, &q->pending);
	}
	return len;
}

/* Adding a command: plain list stores, under the caller's lock. */
void exeq_add(struct exeq *q, struct elem *e)
{
	LIST_PUSH_TAIL(&e->link, &q->exe);
}

/* A count that only goes up, around the same kind of stores: a writer. */
struct stat { unsigned int seq; u64 bytes, pkts; };

void stat_add(struct stat *s, u64 b)
{
	WRITE_ONCE(s->seq, s->seq + 1); // expected-note {{the write section of 's->seq' begins here; no write barrier follows it}}
	s->bytes += b; // expected-warning {{store to 's->bytes' is not ordered after the odd increment of seqcount 's->seq'}}
	s->pkts++;
	smp_wmb();
	WRITE_ONCE(s->seq, s->seq + 1);
}
