// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * Recognition by protocol across the functions of one TU: a location that
 * one function uses as a seqcount (its reader masks and orders, its other
 * writer bumps it around a barrier) is a counter in every function, so the
 * writer that forgot its barrier -- plain increments, no barrier, nothing
 * to recognize it by on its own -- and the reader that forgot its
 * smp_rmb() are found. The counters are named w and t on purpose.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>

struct gauge { unsigned int w; unsigned long a, b; };

/* The correct reader: it tells what g->w is. */
unsigned long gauge_read(struct gauge *g)
{
	unsigned int s;
	unsigned long a, b;

	do {
		s = READ_ONCE(g->w) & ~1U;
		smp_rmb();
		a = g->a;
		b = g->b;
		smp_rmb();
	} while (READ_ONCE(g->w) != s);
	return a + b;
}

/* A writer with nothing of its own to be recognized by. */
void gauge_reset(struct gauge *g)
{
	g->w++;
	g->a = 0; // expected-warning {{store to 'g->a' is not ordered after the odd increment of seqcount 'g->w'}}
	g->b = 0;
	g->w++; // expected-warning {{closing increment of seqcount 'g->w' is not ordered after the data stores}}
}

struct tick { unsigned int t; unsigned long ns; };

/* The correct writer: it tells what k->t is. */
void tick_set(struct tick *k, unsigned long ns)
{
	WRITE_ONCE(k->t, k->t + 1);
	smp_wmb();
	WRITE_ONCE(k->ns, ns);
	smp_wmb();
	WRITE_ONCE(k->t, k->t + 1);
}

/* A reader with no barrier, no mask, no acquire: three defects. */
unsigned long tick_get(struct tick *k)
{
	unsigned int t;
	unsigned long ns;

	do {
		t = READ_ONCE(k->t); // expected-warning {{read section begins with a load of seqcount 'k->t' that may be odd}}
		ns = READ_ONCE(k->ns); // expected-warning {{load of 'k->ns' is not ordered after the load of seqcount 'k->t' that begins the read section}}
	} while (READ_ONCE(k->t) != t); // expected-warning {{recheck of seqcount 'k->t' is not ordered after the data loads}}
	return ns;
}

/* ---- correct code ---- */

/* A statistic bumped twice around other stores, in a TU where nothing uses
 * it as a counter. */
struct stats { unsigned long events; unsigned long last; };
void stats_note(struct stats *s, unsigned long now)
{
	s->events++;
	s->last = now;
	s->events++;
}

/* A change detector on a field nobody treats as a seqcount. */
struct cfg { unsigned int gen_id; unsigned long val; };
unsigned long cfg_get(struct cfg *c, int (*slow)(struct cfg *))
{
	unsigned int g = READ_ONCE(c->gen_id);
	unsigned long v = READ_ONCE(c->val);

	if (READ_ONCE(c->gen_id) != g)
		return slow(c);
	return v;
}
