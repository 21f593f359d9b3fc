// access-plain-shared: stores made while the object is owned, in ways the
// lock names do not show: a reference drop that returns with the lock held,
// a new inode handed out locked by iget_locked(), an object returned by a
// helper that allocates it (or returns ERR_PTR()).
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>
#include <linux/slab.h>

#include <linux/atomic.h>
#define __cond_lock(x, c) (c)
int _atomic_dec_and_lock_irqsave(atomic_t *a, spinlock_t *l,
				 unsigned long *flags);
#define atomic_dec_and_lock_irqsave(atomic, lock, flags) \
	__cond_lock(lock, _atomic_dec_and_lock_irqsave(atomic, lock, &(flags)))
typedef struct { atomic_t refs; } refcount_t;
_Bool refcount_dec_and_lock(refcount_t *r, spinlock_t *lock);

/* --- a reference drop that takes the lock on the last reference --- */
struct tracker;
struct pool {
	atomic_t users;
	refcount_t ref;
	spinlock_t lock;
	struct tracker *cached;
	long retired;
};

struct tracker *tracker_find(struct pool *p);

struct tracker *pool_lookup(struct pool *p)
{
	struct tracker *t = tracker_find(p);

	WRITE_ONCE(p->cached, t); // expected-note {{'p->cached' is written with WRITE_ONCE() here}}
	WRITE_ONCE(p->retired, 0); // expected-note {{'p->retired' is written with WRITE_ONCE() here}}
	return t;
}

/* Correct: the last user holds p->lock when the call returns true. */
void pool_put(struct pool *p)
{
	unsigned long flags;

	if (!atomic_dec_and_lock_irqsave(&p->users, &p->lock, flags))
		return;
	if (!p->cached)
		p->cached = tracker_find(p);
	spin_unlock_irqrestore(&p->lock, flags);
}

void pool_release(struct pool *p)
{
	if (refcount_dec_and_lock(&p->ref, &p->lock)) {
		p->retired++;
		spin_unlock(&p->lock);
	}
}

/* Bug: the store comes before the reference drop that takes the lock. */
void pool_put_early(struct pool *p)
{
	unsigned long flags;

	p->cached = NULL; // expected-warning {{plain store to 'p->cached' outside any lock, but it is written with WRITE_ONCE() in pool_lookup()}}
	if (!atomic_dec_and_lock_irqsave(&p->users, &p->lock, flags))
		return;
	spin_unlock_irqrestore(&p->lock, flags);
}

void pool_retire_late(struct pool *p)
{
	if (refcount_dec_and_lock(&p->ref, &p->lock))
		spin_unlock(&p->lock);
	p->retired = 1; // expected-warning {{plain store to 'p->retired' outside any lock}}
}

/* --- a new inode, locked (I_NEW) until unlock_new_inode() --- */
#define I_NEW (1 << 3)
struct super;
struct inode {
	spinlock_t i_lock;
	unsigned long i_state;
	long long i_size;
	unsigned int i_flags;
};
struct inode *iget_locked(struct super *sb, unsigned long ino);
struct inode *iget5_locked(struct super *sb, unsigned long hash,
			   int (*test)(struct inode *, void *),
			   int (*set)(struct inode *, void *), void *data);
void unlock_new_inode(struct inode *inode);

void inode_grow(struct inode *inode, long long size)
{
	spin_lock(&inode->i_lock);
	WRITE_ONCE(inode->i_size, size); // expected-note {{'inode->i_size' is written with WRITE_ONCE() here}}
	spin_unlock(&inode->i_lock);
}

/* Correct: only this thread sees the inode until it is unlocked. */
struct inode *fs_iget(struct super *sb, unsigned long ino, long long size)
{
	struct inode *inode = iget_locked(sb, ino);

	if (!inode)
		return NULL;
	if (!(inode->i_state & I_NEW))
		return inode;
	inode->i_size = size;
	unlock_new_inode(inode);
	return inode;
}

int fs_test(struct inode *, void *);
int fs_set(struct inode *, void *);
struct inode *fs_iget5(struct super *sb, unsigned long hash, long long size)
{
	struct inode *inode = iget5_locked(sb, hash, fs_test, fs_set, NULL);

	if (inode && (inode->i_state & I_NEW)) {
		inode->i_size = size;
		unlock_new_inode(inode);
	}
	return inode;
}

/* Bug: a shared inode, truncated without its lock. */
void fs_truncate(struct inode *inode)
{
	spin_lock(&inode->i_lock);
	spin_unlock(&inode->i_lock);
	inode->i_size = 0; // expected-warning {{plain store to 'inode->i_size' outside any lock}}
}

/* --- a helper that allocates, or fails with ERR_PTR() --- */
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long IS_ERR(const void *ptr) { return (unsigned long)ptr > (unsigned long)-4096; }

struct mountpoint {
	spinlock_t lock;
	void *ns;
	int id;
};

void mount_attach(struct mountpoint *m, void *ns)
{
	spin_lock(&m->lock);
	WRITE_ONCE(m->ns, ns); // expected-note {{'m->ns' is written with WRITE_ONCE() here}}
	spin_unlock(&m->lock);
}

int mount_id(void);
static struct mountpoint *mount_copy(struct mountpoint *old)
{
	struct mountpoint *m = kzalloc(sizeof(*m), GFP_KERNEL);
	int id;

	if (!m)
		return ERR_PTR(-12);
	id = mount_id();
	if (id < 0) {
		kfree(m);
		return ERR_PTR(id);
	}
	m->id = id;
	return m;
}

/* Correct: the copy is this thread's until it is returned. */
struct mountpoint *mount_private(struct mountpoint *old, void *ns)
{
	struct mountpoint *m;

	spin_lock(&old->lock);
	m = mount_copy(old);
	spin_unlock(&old->lock);
	if (IS_ERR(m))
		return m;
	m->ns = ns;
	return m;
}

/* Bug: the object is the caller's shared one. */
void mount_detach(struct mountpoint *m)
{
	spin_lock(&m->lock);
	spin_unlock(&m->lock);
	m->ns = NULL; // expected-warning {{plain store to 'm->ns' outside any lock}}
}

/* --- a fresh object seen through accessors --- */
struct base {
	spinlock_t lock;
	int mapping;
};
struct outer {
	long pad;
	struct base b;
	struct base *peer;
};
#define container_of(ptr, type, member) ({				\
	void *__mptr = (void *)(ptr);					\
	((type *)(__mptr - __builtin_offsetof(type, member))); })

static inline struct base *outer_base(struct outer *o) { return &o->b; }
static inline struct outer *base_outer(struct base *b)
{
	return container_of(b, struct outer, b);
}
static inline struct base *as_base(void *p) { return (struct base *)p; }

void base_map(struct base *b, int m)
{
	spin_lock(&b->lock);
	WRITE_ONCE(b->mapping, m); // expected-note 2 {{'b->mapping' is written with WRITE_ONCE() here}}
	spin_unlock(&b->lock);
}

/* Correct: every base here lies in memory this function allocated. */
struct outer *outer_clone(struct outer *src)
{
	struct outer *o = kzalloc(sizeof(*o), GFP_KERNEL);
	struct base *b, *c;
	struct outer *back;

	if (!o)
		return NULL;
	spin_lock(&src->b.lock);
	spin_unlock(&src->b.lock);
	b = outer_base(o);
	b->mapping = 1;
	c = as_base(kzalloc(sizeof(*c), GFP_KERNEL));
	c->mapping = 2;
	back = base_outer(b);
	back->b.mapping = 3;
	return o;
}

/* Bugs: the base belongs to a shared object, or is only pointed to by a
 * fresh one. */
void outer_remap(struct outer *shared)
{
	struct outer *o = kzalloc(sizeof(*o), GFP_KERNEL);
	struct base *b = outer_base(shared);
	struct base *p;

	spin_lock(&shared->b.lock);
	spin_unlock(&shared->b.lock);
	b->mapping = 4; // expected-warning {{plain store to 'b->mapping' outside any lock}}
	if (!o)
		return;
	p = o->peer;
	p->mapping = 5; // expected-warning {{plain store to 'p->mapping' outside any lock}}
}

/* --- a request its caller allocated, filled in by static helpers --- */
struct req_poll {
	void *head;
	int cancelled;
};
struct kreq {
	spinlock_t *ctx_lock;
	struct req_poll poll;
	int kind;
};

void req_wake(struct req_poll *r)
{
	spinlock_t l;

	spin_lock(&l);
	WRITE_ONCE(r->head, NULL); // expected-note {{'r->head' is written with WRITE_ONCE() here}}
	WRITE_ONCE(r->cancelled, 1); // expected-note {{'r->cancelled' is written with WRITE_ONCE() here}}
	spin_unlock(&l);
}

/* Correct: every caller hands over a request it has just allocated. */
static int req_arm(struct kreq *k)
{
	struct req_poll *r = &k->poll;

	r->head = NULL;
	r->cancelled = 0;
	spin_lock(k->ctx_lock);
	spin_unlock(k->ctx_lock);
	return 0;
}

static int req_submit(struct kreq *k, int kind)
{
	k->kind = kind;
	return req_arm(k);
}

static struct kreq *req_get(void)
{
	struct kreq *k = kzalloc(sizeof(*k), GFP_KERNEL);

	if (!k)
		return NULL;
	k->kind = -1;
	return k;
}

int req_new(int kind)
{
	struct kreq *k = req_get();

	if (!k)
		return -12;
	return req_submit(k, kind);
}

/* Bugs: one caller passes a request others can see; an exported function
 * can be called with anything. */
static int req_reset(struct kreq *k)
{
	k->poll.cancelled = 0; // expected-warning {{plain store to 'k->poll.cancelled' outside any lock}}
	spin_lock(k->ctx_lock);
	spin_unlock(k->ctx_lock);
	return 0;
}

int req_fresh_reset(void)
{
	struct kreq *k = req_get();

	return k ? req_reset(k) : -12;
}

int req_retry(struct kreq *shared)
{
	return req_reset(shared);
}

int req_arm_exported(struct kreq *k)
{
	struct req_poll *r = &k->poll;

	spin_lock(k->ctx_lock);
	spin_unlock(k->ctx_lock);
	r->head = NULL; // expected-warning {{plain store to 'r->head' outside any lock}}
	return 0;
}
