// access-plain-shared: correct code an imprecise tool would flag.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>
#include <linux/lockdep.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/u64_stats_sync.h>

#define __init __attribute__((__section__(".init.text")))

struct conn {
	spinlock_t lock;
	int state;
	int flags;
	unsigned long hits;
	struct conn *next;
};

/* Writers hold the lock and use WRITE_ONCE for the lockless readers; the
 * plain accesses under the lock are fine: no other writer runs. */
void conn_set_state(struct conn *c, int s)
{
	spin_lock(&c->lock);
	if (c->state != s)
		WRITE_ONCE(c->state, s);
	c->state |= 0; /* plain, but under the lock */
	spin_unlock(&c->lock);
}

int conn_is_up(struct conn *c)
{
	return READ_ONCE(c->state) == 1;
}

/* The caller holds the lock (asserted). */
void conn_force_state(struct conn *c, int s)
{
	lockdep_assert_held(&c->lock);
	c->state = s;
}

/* A static helper whose every caller holds the lock. */
static void __conn_mark(struct conn *c)
{
	c->state = 3;
}
void conn_mark(struct conn *c)
{
	spin_lock(&c->lock);
	__conn_mark(c);
	spin_unlock(&c->lock);
}
void conn_mark_irq(struct conn *c)
{
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	__conn_mark(c);
	spin_unlock_irqrestore(&c->lock, flags);
}

/* Initialization before the object is published. */
struct conn *conn_create(void)
{
	struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (c)
		c->state = 1;
	return c;
}
void conn_init(struct conn *c)
{
	c->state = 0;
}
struct conn *conn_clone(struct conn *old)
{
	struct conn *c;

	c = kmalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return 0;
	c->state = READ_ONCE(old->state); /* fresh object: not shared yet */
	return c;
}
static struct conn boot_conn;
static int __init conn_boot(void)
{
	boot_conn.state = 1;
	return 0;
}

/* An intended race, marked. */
void conn_poke(struct conn *c)
{
	data_race(c->state = 4);
}

/* Fields nobody marks are not shared without a lock: plain is fine. */
void conn_count(struct conn *c)
{
	c->hits++;
	c->flags = 1;
}

/* A local copy of the object. */
int conn_snapshot(struct conn *c)
{
	struct conn copy;

	copy.state = READ_ONCE(c->state);
	copy.state++;
	return copy.state;
}

/* --- seqcount data written inside the write section --- */
struct clock {
	seqcount_t seq;
	spinlock_t lock;
	unsigned long base;
	unsigned long mult;
};

unsigned long clock_read(struct clock *k)
{
	unsigned seq;
	unsigned long v;

	do {
		seq = read_seqcount_begin(&k->seq);
		v = k->base * k->mult;
	} while (read_seqcount_retry(&k->seq, seq));
	return v;
}

void clock_update(struct clock *k, unsigned long b, unsigned long m)
{
	spin_lock(&k->lock);
	write_seqcount_begin(&k->seq);
	k->base = b;
	k->mult = m;
	write_seqcount_end(&k->seq);
	spin_unlock(&k->lock);
}

/* A helper only ever called inside the write section. */
static void clock_bump(struct clock *k)
{
	k->base++;
}
void clock_tick(struct clock *k)
{
	write_seqcount_begin(&k->seq);
	clock_bump(k);
	write_seqcount_end(&k->seq);
}

void clock_setup(struct clock *k)
{
	k->base = 0;
	k->mult = 1;
}
/* The same in CamelCase (PostgreSQL's CreateSharedBackendStatus()). */
void ClockCreateShared(struct clock *k)
{
	k->base = 0;
	k->mult = 1;
}
/* Start-up code, before the clock is running (PostgreSQL's StartupXLOG()). */
void ClockStartup(struct clock *k)
{
	k->base = 1;
}
/* A fork callback fills the new task's copy before the task first runs
 * (Linux's cpuset_fork(): task->mems_allowed = current->mems_allowed, while
 * cpuset_change_task_nodemask() writes it inside mems_allowed_seq). */
void clock_fork(struct clock *child, struct clock *parent)
{
	child->base = parent->base;
}

/* A table of private copies, allocated here and walked with a second
 * pointer, filled inside the read section (PostgreSQL's
 * pgstat_read_current_status(): MemoryContextAlloc(), then
 * localentry = localtable). */
void *MemoryContextAlloc(void *cxt, unsigned long size);
void clock_copy_all(struct clock **src, int n)
{
	struct clock *table, *entry;
	unsigned int s;
	int i;

	table = MemoryContextAlloc(0, n * sizeof(*table));
	entry = table;
	for (i = 0; i < n; i++, entry++) {
		do {
			s = read_seqcount_begin(&src[i]->seq);
			entry->base = src[i]->base;
			entry->mult = src[i]->mult;
		} while (read_seqcount_retry(&src[i]->seq, s));
		entry->base += 1;
	}
}

/* --- u64_stats: every statistic inside a write section --- */
struct ring {
	u64 pkts;
	u64 dropped;
	u32 head;
	struct u64_stats_sync syncp;
};

void ring_complete(struct ring *r, unsigned n)
{
	u64_stats_update_begin(&r->syncp);
	r->pkts += n;
	u64_stats_update_end(&r->syncp);
}

int ring_xmit(struct ring *r, int ok)
{
	if (!ok) {
		u64_stats_update_begin(&r->syncp);
		r->dropped++;
		u64_stats_update_end(&r->syncp);
		return -1;
	}
	r->head++; /* 32-bit index, not a statistic */
	return 0;
}

void ring_free(struct ring *r)
{
	r->pkts = 0; /* teardown: nobody reads it any more */
}

/* Only read inside a read section, never written in a write section: an
 * out-parameter or a key the reader computes, not the seqcount's data. */
struct key {
	unsigned hash;
	const char *name;
};
struct table {
	seqcount_t seq;
	unsigned long nbuckets;
};
unsigned long table_lookup(struct table *t, struct key *k)
{
	unsigned seq;
	unsigned long b;

	do {
		seq = read_seqcount_begin(&t->seq);
		b = k->hash % t->nbuckets;
	} while (read_seqcount_retry(&t->seq, seq));
	return b;
}
void key_hash(struct key *k)
{
	k->hash = (unsigned)(unsigned long)k->name * 31u;
}

/* Unhashing: the store before write_seqcount_invalidate() is part of the
 * one-shot write step. */
struct node {
	seqcount_t seq;
	void *pprev;
};
void node_update(struct node *n, void *p)
{
	write_seqcount_begin(&n->seq);
	n->pprev = p;
	write_seqcount_end(&n->seq);
}
void node_unhash(struct node *n)
{
	n->pprev = 0;
	write_seqcount_invalidate(&n->seq);
}

/* Writes to an out-parameter inside a read section are
 * seqcount-read-side-effect's business, not this check's. */
struct cookie {
	int len;
	int exp;
};
struct cache {
	seqlock_t lock;
	struct cookie c;
};
void cache_set(struct cache *ca, struct cookie *c)
{
	write_seqlock(&ca->lock);
	ca->c.exp = c->exp;
	write_sequnlock(&ca->lock);
}
void cache_get(struct cache *ca, struct cookie *out)
{
	unsigned seq;

	do {
		seq = read_seqbegin(&ca->lock);
		*out = ca->c;
		if (out->len <= 0)
			out->exp = 1;
	} while (read_seqretry(&ca->lock, seq));
}

/* Suspend/resume callbacks run with the other CPUs stopped. */
void clock_suspend(struct clock *k)
{
	k->base = 0;
}

/* A pointer into an object on the stack: not shared until it is queued. */
struct waiter {
	int flags;
	struct waiter *next;
};
struct waitq {
	spinlock_t lock;
	struct waiter *head;
};
void waiter_wake(struct waitq *q, struct waiter *w)
{
	spin_lock(&q->lock);
	smp_store_release(&w->flags, 0);
	spin_unlock(&q->lock);
}
void waiter_wait(struct waitq *q)
{
	struct { struct waiter w; int bit; } entry;
	struct waiter *w = &entry.w;

	w->flags = 1;
	spin_lock(&q->lock);
	w->next = q->head;
	q->head = w;
	spin_unlock(&q->lock);
}
