// access-plain-shared: a flags word whose write sections change only some
// bits. The sections publish a masked field (`w &= ~KIND_MASK; w |= kind`,
// the way a directory cache publishes an entry's type with its object);
// other constant bits of the same word are set and cleared outside the
// sections, under the owner's lock, and readers validated by the count
// never see those bits change in the middle of a snapshot because the
// sections never change them.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>

#define N_HASHED	(1U << 0)
#define N_PINNED	(1U << 1)
#define N_ON_LRU	(1U << 5)
#define N_ON_SHRINK	(1U << 6)
#define N_KIND_MASK	(7U << 12)
#define N_KIND_FILE	(1U << 12)
#define N_KIND_DIR	(2U << 12)
#define N_VISITED	(1U << 20)

struct obj;

struct node {
	spinlock_t lock;
	seqcount_spinlock_t seq;
	unsigned int state;
	struct obj *target;
	int refs;
};

/* The type and the object change together, through a local copy. */
static inline void node_set_target(struct node *n, struct obj *o,
				   unsigned int kind)
{
	unsigned int w;

	n->target = o;
	w = READ_ONCE(n->state);
	w &= ~N_KIND_MASK;
	w |= kind;
	smp_store_release(&n->state, w);
}

static inline void node_clear_target(struct node *n)
{
	unsigned int w = READ_ONCE(n->state);

	w &= ~N_KIND_MASK;
	WRITE_ONCE(n->state, w);
	n->target = NULL;
}

void node_attach(struct node *n, struct obj *o, unsigned int kind)
{
	spin_lock(&n->lock);
	raw_write_seqcount_begin(&n->seq);
	node_set_target(n, o, kind); // expected-note 4 {{'n->state' is written inside a write section of 'n->seq' here}}
	raw_write_seqcount_end(&n->seq);
	spin_unlock(&n->lock);
}

void node_detach(struct node *n)
{
	spin_lock(&n->lock);
	raw_write_seqcount_begin(&n->seq);
	node_clear_target(n);
	raw_write_seqcount_end(&n->seq);
	spin_unlock(&n->lock);
}

struct obj *node_target(struct node *n, unsigned int *kind)
{
	struct obj *o;
	unsigned s;

	do {
		s = read_seqcount_begin(&n->seq);
		o = n->target;
		*kind = READ_ONCE(n->state) & N_KIND_MASK;
	} while (read_seqcount_retry(&n->seq, s));
	return o;
}

/* --- correct: constant bits the sections never change --- */

/* List membership bits, set and cleared under the lock a caller holds. */
void node_lru_add(struct node *n)
{
	n->state |= N_ON_LRU;
}

void node_lru_del(struct node *n)
{
	n->state &= ~N_ON_LRU;
}

void node_shrink_del(struct node *n)
{
	n->state &= ~(N_ON_SHRINK | N_ON_LRU);
}

/* Operation bits chosen once from a table. */
void node_set_ops(struct node *n, int hashed, int pinned)
{
	n->state &= ~(N_HASHED | N_PINNED);
	if (hashed)
		n->state |= N_HASHED;
	if (pinned)
		n->state |= N_PINNED;
}

/* A mark and a reference drop, walking a tree. */
int node_mark(struct node *n)
{
	if (!(n->state & N_VISITED)) {
		n->state |= N_VISITED;
		return 1;
	}
	return 0;
}

/* --- bugs: the update changes bits the sections publish --- */

/* Forces the kind outside a write section: a reader validated by the
 * count can pair the old object with the new kind. */
void node_force_dir(struct node *n)
{
	n->state |= N_KIND_DIR; // expected-warning {{plain read-modify-write of 'n->state' outside any write section, but it is written inside write sections of 'n->seq' in node_attach()}}
}

void node_drop_kind(struct node *n)
{
	n->state &= ~(N_KIND_MASK | N_ON_LRU); // expected-warning {{plain read-modify-write of 'n->state' outside any write section}}
}

/* Bits not known here: they may be the kind's. */
void node_or(struct node *n, unsigned int bits)
{
	n->state |= bits; // expected-warning {{plain read-modify-write of 'n->state' outside any write section}}
}

/* A whole-word store changes every bit. */
void node_reset(struct node *n)
{
	n->state = N_KIND_FILE; // expected-warning {{plain store to 'n->state' outside any write section}}
}

/* --- a word whose sections change bits we cannot bound --- */
struct cell {
	seqcount_t seq;
	unsigned int bits;
	long val;
};

unsigned int cell_compute(long v);

void cell_store(struct cell *c, long v)
{
	write_seqcount_begin(&c->seq);
	c->val = v;
	WRITE_ONCE(c->bits, cell_compute(v)); // expected-note {{'c->bits' is written inside a write section of 'c->seq' here}}
	write_seqcount_end(&c->seq);
}

long cell_load(struct cell *c, unsigned int *bits)
{
	long v;
	unsigned s;

	do {
		s = read_seqcount_begin(&c->seq);
		v = c->val;
		*bits = c->bits;
	} while (read_seqcount_retry(&c->seq, s));
	return v;
}

/* Any bit may be one the section publishes. */
void cell_mark(struct cell *c)
{
	c->bits |= N_VISITED; // expected-warning {{plain read-modify-write of 'c->bits' outside any write section}}
}

/* --- the same masked update written in one expression --- */
struct slot {
	seqcount_t seq;
	unsigned long word;
	void *data;
};

#define S_TAG_MASK	0xf0UL
#define S_BUSY		0x1UL

void slot_publish(struct slot *s, void *d, unsigned long tag)
{
	write_seqcount_begin(&s->seq);
	s->data = d;
	WRITE_ONCE(s->word, (READ_ONCE(s->word) & ~S_TAG_MASK) | tag); // expected-note {{'s->word' is written inside a write section of 's->seq' here}}
	write_seqcount_end(&s->seq);
}

void *slot_read(struct slot *s, unsigned long *tag)
{
	void *d;
	unsigned q;

	do {
		q = read_seqcount_begin(&s->seq);
		d = s->data;
		*tag = READ_ONCE(s->word) & S_TAG_MASK;
	} while (read_seqcount_retry(&s->seq, q));
	return d;
}

void slot_busy(struct slot *s)
{
	s->word |= S_BUSY;
}

void slot_retag(struct slot *s)
{
	s->word &= ~0x30UL; // expected-warning {{plain read-modify-write of 's->word' outside any write section}}
}

/* --- the value built by the caller of a store helper --- */
struct gate {
	seqcount_t seq;
	unsigned int mode;
	int owner;
};

#define G_MODE_MASK	0x3U
#define G_AUDIT		0x100U

static inline void gate_store(struct gate *g, unsigned int v)
{
	WRITE_ONCE(g->mode, v);
}

unsigned int gate_mode_of(int owner);

void gate_switch(struct gate *g, unsigned int m, int owner)
{
	write_seqcount_begin(&g->seq);
	g->owner = owner;
	gate_store(g, (READ_ONCE(g->mode) & ~G_MODE_MASK) | m); // expected-note {{'g->mode' is written inside a write section of 'g->seq' here}}
	write_seqcount_end(&g->seq);
}

int gate_read(struct gate *g, unsigned int *mode)
{
	int o;
	unsigned s;

	do {
		s = read_seqcount_begin(&g->seq);
		o = g->owner;
		*mode = READ_ONCE(g->mode) & G_MODE_MASK;
	} while (read_seqcount_retry(&g->seq, s));
	return o;
}

void gate_audit(struct gate *g)
{
	g->mode |= G_AUDIT;
}

void gate_force(struct gate *g)
{
	g->mode |= 0x1U; // expected-warning {{plain read-modify-write of 'g->mode' outside any write section}}
}

/* The helper's argument is not bounded here: any bit may change. */
struct latch {
	seqcount_t seq;
	unsigned int mode;
	int owner;
};

static inline void latch_store(struct latch *l, unsigned int v)
{
	WRITE_ONCE(l->mode, v);
}

void latch_switch(struct latch *l, int owner)
{
	write_seqcount_begin(&l->seq);
	l->owner = owner;
	latch_store(l, gate_mode_of(owner)); // expected-note {{'l->mode' is written inside a write section of 'l->seq' here}}
	write_seqcount_end(&l->seq);
}

int latch_read(struct latch *l, unsigned int *mode)
{
	int o;
	unsigned s;

	do {
		s = read_seqcount_begin(&l->seq);
		o = l->owner;
		*mode = READ_ONCE(l->mode);
	} while (read_seqcount_retry(&l->seq, s));
	return o;
}

void latch_audit(struct latch *l)
{
	l->mode |= G_AUDIT; // expected-warning {{plain read-modify-write of 'l->mode' outside any write section}}
}
