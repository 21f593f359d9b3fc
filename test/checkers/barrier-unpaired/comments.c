// RUN: %clang_plugin -fplugin-arg-seqlint-checks=barrier-unpaired -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * barrier-unpaired, pairing comments: a barrier's comment names its partner
 * ("pairs with smp_wmb() in foo()"). If foo() is defined in this file and has
 * nothing that can pair with the barrier, the comment is stale (or the
 * partner lost its barrier). A function defined elsewhere is not checked.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>

struct chan {
	int val;
	int seq;
	int ready;
};

int consume(int v);
void produce_elsewhere(struct chan *c); /* defined in another file */

/* The reader lost its smp_rmb(); the writer's comment still names it. */
int chan_read_nobarrier(struct chan *c)
{
	return c->val + c->seq;
}

void chan_write(struct chan *c, int v)
{
	c->val = v;
	smp_wmb(); /* pairs with smp_rmb() in chan_read_nobarrier() */ // expected-warning {{the comment says smp_wmb() pairs with smp_rmb() in 'chan_read_nobarrier()', but 'chan_read_nobarrier()' has no read barrier, acquire or dependency load that could pair with it: the comment is stale or the partner lost its barrier; fix the partner or the comment [seqlint-barrier-unpaired]}}
	c->seq = 1;
}

/* Wrong kind: the named partner only has a read barrier. */
int chan_scan(struct chan *c)
{
	int s = c->seq;

	smp_rmb();
	return s + c->val;
}

int chan_read_acquire(struct chan *c)
{
	/*
	 * Pairs with the smp_store_release()
	 * in chan_scan().
	 */
	int r = smp_load_acquire(&c->ready); // expected-warning {{the comment says smp_load_acquire() pairs with smp_store_release() in 'chan_scan()', but 'chan_scan()' has no write barrier or release}}

	return r ? c->val : 0;
}

/* Correct comments: the partner is here with a compatible barrier. */
int chan_read(struct chan *c)
{
	int s = READ_ONCE(c->seq);

	smp_rmb(); /* see the smp_wmb() in chan_publish() */
	return s ? c->val : 0;
}

void chan_publish(struct chan *c, int v)
{
	c->val = v;
	// Pairs with smp_rmb() in chan_read().
	smp_wmb();
	WRITE_ONCE(c->seq, 1);
}

/* "matches the barrier in" + a release partner. */
void chan_release(struct chan *c)
{
	smp_store_release(&c->ready, 1);
}

int chan_peek(struct chan *c)
{
	int r = READ_ONCE(c->ready);

	smp_rmb(); /* matches the barrier in chan_release() */
	return r;
}

/* The partner is defined in another file: cannot tell, silent. */
int chan_get_remote(struct chan *c)
{
	int s = READ_ONCE(c->seq);

	/* Pairs with smp_wmb() in produce_elsewhere(). */
	smp_rmb();
	return s + c->val;
}

/* The partner calls something we cannot see into: silent. */
void chan_flush(struct chan *c)
{
	c->val = 0;
	consume(c->seq);
}

int chan_drain(struct chan *c)
{
	smp_rmb(); /* pairs with the smp_wmb() in chan_flush()'s callee */
	return c->val;
}

int chan_drain2(struct chan *c)
{
	smp_rmb(); /* pairs with smp_wmb() in chan_flush() */
	return c->val;
}

/* Not a pairing comment: no barrier named, just a pointer to docs. */
void chan_note(struct chan *c)
{
	/* see the comment in chan_read_nobarrier() */
	smp_wmb();
	c->val = 2;
}

/* A comment that belongs to the code line above, not to the barrier. */
void chan_trailing(struct chan *c)
{
	c->val = 3; /* pairs with smp_rmb() in chan_read_nobarrier() */
	smp_wmb();
	c->seq = 3;
}

/* The partner is an empty stub (the #else branch of a config option): the
 * comment is about the real one, silent. */
static int probe_stub(struct chan *c)
{
	return 0;
}

void chan_probe(struct chan *c)
{
	c->val = 1;
	/* Pairs with smp_load_acquire() in probe_stub(). */
	smp_store_release(&c->ready, 1);
}

/*
 * The partner has a barrier of the right kind, but it orders other data:
 * the comment names the wrong function (a copy-paste from a sibling), or
 * one side lost the accesses it orders.
 */
struct stats {
	int hits;
	int misses;
	int gen;
};

struct cfg {
	int mode;
	int valid;
};

void stats_publish(struct stats *st, int h, int m)
{
	st->hits = h;
	st->misses = m;
	smp_wmb(); /* pairs with smp_rmb() in stats_read() */
	WRITE_ONCE(st->gen, 1);
}

int stats_read(struct stats *st)
{
	int g = READ_ONCE(st->gen);

	smp_rmb(); /* pairs with smp_wmb() in stats_publish() */
	return g ? st->hits + st->misses : 0;
}

void cfg_publish(struct cfg *c, int mode)
{
	c->mode = mode;
	smp_wmb(); /* pairs with smp_rmb() in stats_read() */ // expected-warning {{the comment says smp_wmb() pairs with smp_rmb() in 'stats_read()', but they order different data ('mode', 'valid' here, 'gen', 'hits', 'misses' there): the comment names the wrong partner}}
	WRITE_ONCE(c->valid, 1);
}

int cfg_read(struct cfg *c)
{
	int v = READ_ONCE(c->valid);

	smp_rmb(); /* pairs with smp_wmb() in cfg_publish() */
	return v ? c->mode : -1;
}

/* Silent: the partner's barrier window calls something opaque (it may
 * touch our data), or shares one datum with ours, or the data here is
 * reached through pointers it cannot name (cannot tell). */
int cfg_read_opaque(struct cfg *c)
{
	int v = READ_ONCE(c->valid);

	smp_rmb();
	consume(v);
	return c->mode;
}

void stats_publish_opaque(struct stats *st)
{
	st->hits = 0;
	smp_wmb(); /* pairs with smp_rmb() in cfg_read_opaque() */
	WRITE_ONCE(st->gen, 2);
}

int shared_read(struct stats *st, struct cfg *c)
{
	int g = READ_ONCE(st->gen);

	smp_rmb();
	return g ? c->mode : 0;
}

void cfg_publish_shared(struct cfg *c)
{
	c->mode = 3;
	smp_wmb(); /* pairs with smp_rmb() in shared_read() */
	WRITE_ONCE(c->valid, 1);
}

int ptr_read(int *p, int *q)
{
	int v = READ_ONCE(*p);

	smp_rmb();
	return v ? *q : 0;
}

void cfg_publish_ptr(struct cfg *c)
{
	c->mode = 4;
	smp_wmb(); /* pairs with smp_rmb() in ptr_read() */
	WRITE_ONCE(c->valid, 1);
}
