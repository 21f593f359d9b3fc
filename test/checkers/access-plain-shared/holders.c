// access-plain-shared: a member is a location together with what holds it.
// Two members of one structure can have the same type (a port's rx and tx
// counters, a clock's two halves): what is shared about one says nothing
// about the other. Reached through a pointer to the inner type, a member
// may be either, so evidence about one still counts there.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>

struct counter {
	long v;
};

struct port {
	spinlock_t lock;
	struct counter rx;
	struct counter tx;
};

/* rx is read without the lock, so it is written with WRITE_ONCE(). */
void port_rx(struct port *p, long n)
{
	spin_lock(&p->lock);
	WRITE_ONCE(p->rx.v, p->rx.v + n); // expected-note 2 {{'p->rx.v' is written with WRITE_ONCE() here}}
	spin_unlock(&p->lock);
}

/* Correct: tx is never read without the lock; nothing says it is shared. */
void port_tx_reset(struct port *p)
{
	spin_lock(&p->lock);
	spin_unlock(&p->lock);
	p->tx.v = 0;
}

/* Bug: rx itself, outside the lock. */
void port_rx_reset(struct port *p)
{
	spin_lock(&p->lock);
	spin_unlock(&p->lock);
	p->rx.v = 0; // expected-warning {{plain store to 'p->rx.v' outside any lock, but it is written with WRITE_ONCE() in port_rx()}}
}

/* Bug: through a pointer to the inner type, the counter may be rx. */
void counter_clear(struct counter *c, spinlock_t *l)
{
	spin_lock(l);
	spin_unlock(l);
	c->v = 0; // expected-warning {{plain store to 'c->v' outside any lock}}
}

/* --- seqcount data: one half published in sections, the other not --- */
struct stamp {
	long sec;
	long nsec;
};

struct clockpair {
	seqcount_t seq;
	struct stamp wall;
	struct stamp boot; /* private to the owner: never read in a section */
};

void clockpair_set(struct clockpair *c, long s, long ns)
{
	write_seqcount_begin(&c->seq);
	c->wall.sec = s; // expected-note {{'c->wall.sec' is written inside a write section of 'c->seq' here}}
	c->wall.nsec = ns;
	write_seqcount_end(&c->seq);
}

long clockpair_wall(struct clockpair *c)
{
	long s;
	unsigned q;

	do {
		q = read_seqcount_begin(&c->seq);
		s = c->wall.sec;
	} while (read_seqcount_retry(&c->seq, q));
	return s;
}

/* Correct: boot is a different stamp of the same type. */
void clockpair_boot(struct clockpair *c, long s)
{
	c->boot.sec = s;
}

/* Bug: the published stamp, outside a section. */
void clockpair_adjust(struct clockpair *c, long d)
{
	c->wall.sec += d; // expected-warning {{plain read-modify-write of 'c->wall.sec' outside any write section}}
}
