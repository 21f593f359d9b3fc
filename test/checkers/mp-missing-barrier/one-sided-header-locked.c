// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify %s
/*
 * mp-missing-barrier, one side: a block laid out as an index and a flexible
 * array (a header ring, one-sided-header-ring.c) is memory another agent
 * polls, unless the block holds a lock that the file takes: then its
 * fields are guarded by that lock, not published to a lock-free reader.
 * Modelled on DPDK's IPsec anti-replay window (lib/ipsec/sa.h, struct
 * replay_sqn: an rte_rwlock_t, the last sequence number and the window's
 * bitmap in one block; ipsec_sqn.h's esn_inb_update_sqn() clears the
 * buckets it moves past and then stores the new sequence number, with the
 * writer's lock taken by rsn_update_start()): judged like a store under
 * a lock, reported only when a reader loads the index with an acquire
 * (a consumer that takes no lock). The same layout without a lock is
 * still reported.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>

struct window {
	spinlock_t lock;
	u64 last;
	u64 bits[];
};

struct sa {
	struct window *win;
	u32 mask;
};

static struct window *window_update_start(struct sa *sa)
{
	spin_lock(&sa->win->lock);
	return sa->win;
}

static void window_update_end(struct sa *sa)
{
	spin_unlock(&sa->win->lock);
}

extern u64 extend_seq(u64 last, u64 low);

/* Correct: the window's lock guards its fields. */
static void window_advance(struct window *w, const struct sa *sa, u64 seq)
{
	u64 b, last;

	seq = extend_seq(w->last, seq);
	last = w->last >> 6;

	for (b = last + 1; b <= (seq >> 6); b++)
		w->bits[b & sa->mask] = 0;
	w->last = seq;
}

void sa_inbound(struct sa *sa, u64 seq)
{
	struct window *w = window_update_start(sa);

	window_advance(w, sa, seq);
	window_update_end(sa);
}

struct log {
	u64 head;
	u64 slot[];
};

/* Bug: the same layout, no lock in the block: a ring another agent
 * polls. */
void log_append(struct log *l, u64 v, u64 mask)
{
	u64 h = l->head;

	l->slot[h & mask] = v; // expected-note {{the store to 'l->slot[]' is here}}
	l->head = h + 1; // expected-warning {{'l->head' is published here after the store to 'l->slot[]' with no write barrier in between}} expected-note {{shared with the other side: a ring laid out as its index and a flexible array of slots in one block}}
}

/* A block with the producers' lock inside, and a consumer that takes no
 * lock and loads the index with an acquire: the producers' lock orders
 * nothing for it. */
struct mpsc {
	spinlock_t prod_lock;
	u32 head;
	u64 slot[];
};

static void mpsc_put_locked(struct mpsc *q, u64 v, u32 mask)
{
	u32 h = q->head;

	q->slot[h & mask] = v; // expected-note {{the store to 'q->slot[]' is here}}
	q->head = h + 1; // expected-warning {{'q->head' is published here after the store to 'q->slot[]' with no write barrier in between}} expected-note {{shared with the other side: a ring laid out as its index and a flexible array of slots in one block}}
}

void mpsc_put(struct mpsc *q, u64 v, u32 mask)
{
	spin_lock(&q->prod_lock);
	mpsc_put_locked(q, v, mask);
	spin_unlock(&q->prod_lock);
}

u64 mpsc_get(struct mpsc *q, u32 *tail, u32 mask)
{
	if (smp_load_acquire(&q->head) == *tail)
		return 0;
	return q->slot[(*tail)++ & mask];
}
