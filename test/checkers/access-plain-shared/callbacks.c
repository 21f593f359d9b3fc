// access-plain-shared: a callback that a walker calls with the node's lock
// held. The walker takes each node's lock, calls the function it was handed
// and drops the lock; the callback updates the node plainly, as its comment
// says it may ("called with n->lock held"). The callback's address is taken,
// so it has no direct callers to look at: what protects it is the walker's
// lock around every call through its parameter.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>

struct node {
	spinlock_t lock;
	seqcount_spinlock_t seq;
	struct node *parent, *next, *child;
	int refs;
	int visits;
	int marks;
	int hits;
};

extern seqlock_t tree_rename_lock;

/* The writer: a node's parent and its references change together. */
void node_move(struct node *n, struct node *to)
{
	spin_lock(&n->lock);
	write_seqcount_begin(&n->seq);
	n->parent = to;
	n->refs++; // expected-note 3 {{'n->refs' is written inside a write section of 'n->seq' here}}
	n->visits = 0;
	n->marks = 0; // expected-note {{'n->marks' is written inside a write section of 'n->seq' here}}
	n->hits = 0;
	write_seqcount_end(&n->seq);
	spin_unlock(&n->lock);
}

int node_refs(struct node *n)
{
	unsigned s;
	int r;

	do {
		s = read_seqcount_begin(&n->seq);
		r = n->refs + n->visits + n->marks;
	} while (read_seqcount_retry(&n->seq, s));
	return r;
}

/* A walker with a rename-lock read section around it (traced). */
static void tree_walk(struct node *root, void *data,
		      int (*enter)(void *, struct node *))
{
	struct node *n;
	int seq = 0;

	read_seqbegin_or_lock(&tree_rename_lock, &seq);
	spin_lock(&root->lock);
	enter(data, root);
	spin_unlock(&root->lock);
	for (n = root->child; n; n = n->next) {
		spin_lock(&n->lock);
		if (enter(data, n)) {
			spin_unlock(&n->lock);
			break;
		}
		spin_unlock(&n->lock);
	}
	done_seqretry(&tree_rename_lock, seq);
}

/* A walker with no section at all. */
static void tree_visit(struct node *root, void (*fn)(struct node *))
{
	struct node *n;

	for (n = root->child; n; n = n->next) {
		spin_lock(&n->lock);
		fn(n);
		spin_unlock(&n->lock);
	}
}

/* A walker that calls back with no lock held. */
static void tree_visit_unlocked(struct node *root, void (*fn)(struct node *))
{
	struct node *n;

	for (n = root->child; n; n = n->next)
		fn(n);
}

/* --- correct: called with n->lock held by the walker --- */

static int drop_ref(void *data, struct node *n)
{
	if (n != data)
		n->refs--;
	return 0;
}

static void count_visit(struct node *n)
{
	n->visits++;
}

void tree_kill(struct node *root)
{
	tree_walk(root, root, drop_ref);
}

void tree_count(struct node *root)
{
	tree_visit(root, count_visit);
}

/* --- bugs --- */

/* Handed to a walker that holds no lock. */
static void mark_node(struct node *n)
{
	n->marks++; // expected-warning {{plain read-modify-write of 'n->marks' outside any write section}}
}

void tree_mark(struct node *root)
{
	tree_visit_unlocked(root, mark_node);
}

/* Handed to a locking walker, but also kept in a table anyone can call. */
static void put_node(struct node *n)
{
	n->refs--; // expected-warning {{plain read-modify-write of 'n->refs' outside any write section}}
}

void (*node_release_hook)(struct node *) = put_node;

void tree_put(struct node *root)
{
	tree_visit(root, put_node);
}

/* Handed to the locking walker and to the one that holds no lock. */
static void put_twice(struct node *n)
{
	n->refs -= 2; // expected-warning {{plain read-modify-write of 'n->refs' outside any write section}}
}

void tree_put_twice(struct node *root)
{
	tree_visit(root, put_twice);
	tree_visit_unlocked(root, put_twice);
}

/* A walker that keeps the function it was handed: anyone may call it later. */
static void (*saved_fn)(struct node *);

static void tree_visit_later(struct node *root, void (*fn)(struct node *))
{
	struct node *n;

	saved_fn = fn;
	for (n = root->child; n; n = n->next) {
		spin_lock(&n->lock);
		fn(n);
		spin_unlock(&n->lock);
	}
}

static void put_later(struct node *n)
{
	n->refs -= 3; // expected-warning {{plain read-modify-write of 'n->refs' outside any write section}}
}

void tree_put_later(struct node *root)
{
	tree_visit_later(root, put_later);
}

/* An exported walker: other files may call it too, but only with their own
 * callbacks; this callback is static and still runs under the lock. */
void tree_visit_all(struct node *root, void (*fn)(struct node *))
{
	struct node *n;

	for (n = root->child; n; n = n->next) {
		spin_lock(&n->lock);
		fn(n);
		spin_unlock(&n->lock);
	}
}

static void clear_hits(struct node *n)
{
	n->hits = 0;
}

void tree_clear(struct node *root)
{
	tree_visit_all(root, clear_hits);
}
