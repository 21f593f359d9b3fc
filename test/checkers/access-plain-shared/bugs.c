// access-plain-shared: plain writes to data that the rest of the file treats
// as shared without a lock (WRITE_ONCE stores, seqcount sections).
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>
#include <linux/u64_stats_sync.h>

struct conn {
	spinlock_t lock;
	int state;
	unsigned long last_rx;
	int refs;
};

/* The state is published with WRITE_ONCE under the lock ... */
void conn_set_state(struct conn *c, int s)
{
	spin_lock(&c->lock);
	WRITE_ONCE(c->state, s); // expected-note {{'c->state' is written with WRITE_ONCE() here}}
	spin_unlock(&c->lock);
}

/* ... and read locklessly. */
int conn_is_up(struct conn *c)
{
	return READ_ONCE(c->state) == 1;
}

/* This path takes the lock only to wait, and stores plainly without it: a
 * data race with the lockless readers. */
void conn_abort(struct conn *c, int wait)
{
	if (wait) {
		spin_lock(&c->lock);
		spin_unlock(&c->lock);
	}
	c->state = 0; // expected-warning {{plain store to 'c->state' outside any lock, but it is written with WRITE_ONCE() in conn_set_state(), so it is accessed concurrently: this is a data race; use WRITE_ONCE() (or an atomic), take the lock that protects it, or mark an intended race with data_race() [seqlint-access-plain-shared]}}
}

/* Not reported (a documented limit): a function with no lock operation at
 * all. On the kernel such helpers are nearly always called with the lock
 * held by a caller the file does not show, so the WRITE_ONCE evidence is
 * only used in functions that do their own locking. */
void conn_reset(struct conn *c)
{
	c->state = 0;
}

/* The lock is dropped before the update: still racing. */
void conn_touch(struct conn *c, unsigned long now)
{
	spin_lock(&c->lock);
	WRITE_ONCE(c->last_rx, now); // expected-note {{'c->last_rx' is written with WRITE_ONCE() here}}
	spin_unlock(&c->lock);
	c->last_rx += 1; // expected-warning {{plain read-modify-write of 'c->last_rx' outside any lock}}
}

/* A global written with smp_store_release() elsewhere, cleared after the
 * lock is dropped. */
int ready_flag;
DEFINE_SPINLOCK(ready_lock);
void publish(void)
{
	smp_store_release(&ready_flag, 1); // expected-note {{'ready_flag' is written with smp_store_release() here}}
}
void unpublish(void)
{
	spin_lock(&ready_lock);
	spin_unlock(&ready_lock);
	ready_flag = 0; // expected-warning {{plain store to 'ready_flag' outside any lock}}
}

/* Locked on one path only: the other path writes without it. */
void conn_kick(struct conn *c, int locked)
{
	if (locked) {
		spin_lock(&c->lock);
		WRITE_ONCE(c->state, 2);
		spin_unlock(&c->lock);
		return;
	}
	c->state = 2; // expected-warning {{plain store to 'c->state'}}
}

/* --- seqcount data --- */
struct clock {
	seqcount_t seq;
	unsigned long base;
	unsigned long mult;
	unsigned long shift;
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
	write_seqcount_begin(&k->seq);
	k->base = b; // expected-note {{'k->base' is written inside a write section of 'k->seq' here}}
	k->mult = m;
	write_seqcount_end(&k->seq);
}

/* Updated outside the write section: the reader's retry cannot see it. */
void clock_adjust(struct clock *k, unsigned long b)
{
	k->base += b; // expected-warning {{plain read-modify-write of 'k->base' outside any write section, but it is written inside write sections of 'k->seq' in clock_update(): readers validated by that count can see a torn or half-updated value; move the update inside a write section [seqlint-access-plain-shared]}}
}

void clock_set_mult(struct clock *k, unsigned long m)
{
	k->mult = m; // expected-warning {{plain store to 'k->mult' outside any write section}}
}

/* --- u64_stats: the other counters of the ring are in sections --- */
struct ring {
	u64 pkts;
	u64 bytes;
	u64 dropped;
	u32 head;
	unsigned long errors; /* not u64: no seqcount needed on 32-bit */
	struct u64_stats_sync syncp;
};

void ring_complete(struct ring *r, unsigned n, unsigned len)
{
	u64_stats_update_begin(&r->syncp);
	r->pkts += n; // expected-note {{'r->pkts' is updated inside a u64_stats write section of 'r->syncp' here}}
	r->bytes += len;
	u64_stats_update_end(&r->syncp);
}

int ring_xmit(struct ring *r, int ok)
{
	if (!ok) {
		r->dropped++; // expected-warning {{plain read-modify-write of 'r->dropped' outside a u64_stats write section, but the other statistics of the structure are updated inside u64_stats_update_begin(&r->syncp) sections, in ring_complete(): a 32-bit reader can see this 64-bit counter torn; wrap the update in u64_stats_update_begin()/u64_stats_update_end() [seqlint-access-plain-shared]}}
		return -1;
	}
	r->head++; /* 32-bit ring index: not a statistic */
	r->errors++; /* unsigned long: atomic on every machine */
	return 0;
}
