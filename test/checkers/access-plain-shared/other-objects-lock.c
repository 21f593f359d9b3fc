// access-plain-shared: the locks a function takes say how the objects they
// belong to are protected, not how every object the function touches is.
// A function that copies a region's links walks the links of the source,
// locking the root of each linked group (a helper returns the root it
// locked), and on failure resets the destination's group pointer after it
// has let go of those locks. The destination is the caller's: its pointer
// is published with a release elsewhere, under the owner's lock, and the
// caller holds the owner's lock for writing here (in another file). The
// roots the function locks come from the source, not from the destination,
// so its locking is no sign that it protects the destination itself, the
// same as a helper that takes no lock at all. Modelled on a VMA's anon_vma
// links (mm/rmap.c's anon_vma_clone(), which resets `dst->anon_vma` on its
// error path).
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>

struct group {
	spinlock_t lock;
	struct group *root;
	int users;
};

struct link {
	struct link *next;
	struct group *grp;
};

struct owner {
	spinlock_t lock;
};

struct region {
	struct owner *own;
	struct group *grp;
	struct link *links;
	long flags;
};

extern struct link *link_alloc(void);
extern void link_add(struct region *r, struct link *l, struct group *g);
extern void links_drop(struct region *r);
extern struct group *group_new(void);
extern spinlock_t regions_lock;

static struct group *lock_root(struct group *root, struct group *g)
{
	struct group *new_root = g->root;

	if (new_root != root) {
		if (root)
			spin_unlock(&root->lock);
		root = new_root;
		spin_lock(&root->lock);
	}
	return root;
}

static void unlock_root(struct group *root)
{
	if (root)
		spin_unlock(&root->lock);
}

/* The publication: under the owner's lock, with a release for the lockless
 * readers of r->grp. */
int region_prepare(struct region *r)
{
	struct group *g = group_new();

	if (!g)
		return -1;
	spin_lock(&r->own->lock);
	if (!r->grp)
		smp_store_release(&r->grp, g); // expected-note 4 {{'r->grp' is written with smp_store_release() here}}
	spin_unlock(&r->own->lock);
	return 0;
}

/* Correct: the locks are the source's groups; the destination is the
 * caller's. */
int region_copy_links(struct region *dst, struct region *src)
{
	struct group *root = NULL;
	struct link *l, *nl;

	for (l = src->links; l; l = l->next) {
		struct group *g = l->grp;

		nl = link_alloc();
		if (!nl) {
			unlock_root(root);
			goto fail;
		}
		root = lock_root(root, g);
		link_add(dst, nl, g);
		if (!dst->grp && g->users < 2)
			dst->grp = g;
	}
	unlock_root(root);
	return 0;

fail:
	dst->grp = NULL;
	links_drop(dst);
	return -1;
}

/* Bug: the function takes the region's own lock, and resets its group
 * pointer after letting it go. */
void region_forget(struct region *r)
{
	spin_lock(&r->own->lock);
	r->flags = 0;
	spin_unlock(&r->own->lock);
	r->grp = NULL; // expected-warning {{plain store to 'r->grp' outside any lock, but it is written with smp_store_release() in region_prepare()}}
}

/* Bug: the lock belongs to an object reached from the same region. */
void region_detach(struct region *r)
{
	struct owner *o = r->own;

	spin_lock(&o->lock);
	spin_unlock(&o->lock);
	r->grp = NULL; // expected-warning {{plain store to 'r->grp' outside any lock, but it is written with smp_store_release() in region_prepare()}}
}

/* Bug: a global lock may guard any region. */
void region_unlist(struct region *r)
{
	spin_lock(&regions_lock);
	spin_unlock(&regions_lock);
	r->grp = NULL; // expected-warning {{plain store to 'r->grp' outside any lock, but it is written with smp_store_release() in region_prepare()}}
}

/* Bug: a lock the caller hands in names the lock that guards the data. */
void region_reset(struct region *r, spinlock_t *l)
{
	spin_lock(l);
	spin_unlock(l);
	r->grp = NULL; // expected-warning {{plain store to 'r->grp' outside any lock, but it is written with smp_store_release() in region_prepare()}}
}
