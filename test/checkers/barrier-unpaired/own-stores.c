// RUN: %clang_plugin -fplugin-arg-seqlint-checks=barrier-unpaired,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * A reader's load of a location it has just stored itself reads its own
 * value, not the writer's data: a cursor (a walk's state, owned by the
 * walker) takes the root it loaded, and is then read back. The writer
 * fills in the same cursor fields before it publishes the root, the way a
 * tree's state object keeps the node it is working on. Only a load that may
 * still read what another thread wrote is the reader's data.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

struct tnode {
	struct tnode *parent;
	int dead;
};

struct tree {
	struct tnode *root;
};

struct cursor {
	struct tree *tree;
	struct tnode *node;
	unsigned long min, max;
	int depth;
};

/* The writer: a new root, the cursor on it, then the root published. */
int cursor_grow(struct cursor *c, struct tnode *n)
{
	n->parent = NULL;
	c->node = n;
	c->depth = 1;
	rcu_assign_pointer(c->tree->root, c->node); // expected-note 2 {{write-side rcu_assign_pointer() in 'cursor_grow()' is here}}
	return 0;
}

/* Correct: every load of c->node and c->depth reads the walker's own store. */
struct tnode *cursor_start(struct cursor *c)
{
	struct tnode *root;

retry:
	c->depth = 0;
	root = rcu_dereference(c->tree->root);
	if (root) {
		c->depth = 1;
		c->node = root;
		c->min = 0;
		if (c->node->dead)
			goto retry;
		return c->node;
	}
	return NULL;
}

/* Bug: the node is stored on one branch only; on the other the load reads
 * the writer's value with nothing ordering it after the root. */
struct tnode *cursor_resume(struct cursor *c, int fresh)
{
	struct tnode *root = rcu_dereference(c->tree->root); // expected-warning {{'c->node' is read after 'c->tree->root' with no read barrier, acquire or address dependency, but its writer in 'cursor_grow()' publishes it with rcu_assign_pointer()}}

	if (!root)
		return NULL;
	if (fresh)
		c->node = root;
	return c->node;
}

/* Bug: the depth is read before the walker stores it. */
int cursor_depth(struct cursor *c)
{
	struct tnode *root = rcu_dereference(c->tree->root); // expected-warning {{'c->depth' is read after 'c->tree->root' with no read barrier, acquire or address dependency, but its writer in 'cursor_grow()' publishes it with rcu_assign_pointer()}}
	int d;

	if (!root)
		return -1;
	d = c->depth;
	c->depth = d + 1;
	return d;
}
