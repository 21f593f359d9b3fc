// access-plain-shared: a seqlock's write sections may update data that its
// readers never look at: the writers' own book-keeping (a node count the
// writer consults for garbage collection, under the writer lock). When the
// read sections of that seqlock are in this file and none of them reads
// the field, a write section is no evidence that the field is read
// locklessly: it is the writers' data, kept under their lock. Modelled on a
// peer cache whose lookup retries on a seqlock and whose insertions count
// the nodes (net/ipv4/inetpeer.c's inetpeer_invalidate_tree(), which
// clears the count of a tree it has emptied).
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify %s
#include <linux/compiler.h>
#include <linux/seqlock.h>

struct peer {
	struct peer *left, *right;
	unsigned int key;
	int refs;
};

struct peer_cache {
	seqlock_t lock;
	struct peer *root;
	unsigned long gen;   /* read by the lookups: reader data */
	unsigned long total; /* only the writers look at it */
};

static struct peer *walk(struct peer_cache *c, unsigned int key)
{
	struct peer *p = READ_ONCE(c->root);

	while (p && p->key != key)
		p = key < p->key ? READ_ONCE(p->left) : READ_ONCE(p->right);
	return p;
}

struct peer *peer_find(struct peer_cache *c, unsigned int key,
		       unsigned long *gen)
{
	struct peer *p;
	unsigned int seq;

	do {
		seq = read_seqbegin(&c->lock);
		p = walk(c, key);
		*gen = c->gen;
	} while (read_seqretry(&c->lock, seq));
	return p;
}

void peer_insert(struct peer_cache *c, struct peer *n)
{
	write_seqlock(&c->lock);
	n->left = n->right = NULL;
	WRITE_ONCE(c->root, n);
	c->gen++; // expected-note {{'c->gen' is written inside a write section of 'c->lock' here}}
	if (c->total > 1000)
		c->total = 0;
	c->total++;
	write_sequnlock(&c->lock);
}

/* Correct: the tree is emptied by its owner; no reader reads the count. */
void peer_cache_flush(struct peer_cache *c)
{
	c->total = 0;
}

/* Bug: the generation is what the readers copy out. */
void peer_cache_bump(struct peer_cache *c)
{
	c->gen++; // expected-warning {{plain read-modify-write of 'c->gen' outside any write section, but it is written inside write sections of 'c->lock' in peer_insert()}}
}

/* --- a read section split across functions: the lookup begins it, the
 * walker validates it (inet_getpeer() and lookup()) --- */
struct route_cache {
	seqlock_t lock;
	struct peer *root;
	unsigned long stamp; /* copied out by the lookup */
	unsigned long total; /* the writers' count */
};

static struct peer *route_walk(struct route_cache *rc, unsigned int key,
			       unsigned int seq)
{
	struct peer *p = READ_ONCE(rc->root);

	while (p && p->key != key) {
		if (read_seqretry(&rc->lock, seq))
			return NULL;
		p = key < p->key ? READ_ONCE(p->left) : READ_ONCE(p->right);
	}
	return p;
}

struct peer *route_find(struct route_cache *rc, unsigned int key,
			unsigned long *stamp)
{
	unsigned int seq = read_seqbegin(&rc->lock);

	*stamp = rc->stamp;
	return route_walk(rc, key, seq);
}

void route_add(struct route_cache *rc, struct peer *n)
{
	write_seqlock(&rc->lock);
	WRITE_ONCE(rc->root, n);
	rc->stamp++; // expected-note {{'rc->stamp' is written inside a write section of 'rc->lock' here}}
	rc->total++;
	write_sequnlock(&rc->lock);
}

/* Correct: only the writers read the count. */
void route_flush(struct route_cache *rc)
{
	rc->total = 0;
}

/* Bug: the lookup copies the stamp out. */
void route_touch(struct route_cache *rc)
{
	rc->stamp = 0; // expected-warning {{plain store to 'rc->stamp' outside any write section, but it is written inside write sections of 'rc->lock' in route_add()}}
}
