// RUN: %clang_plugin -fplugin-arg-seqlint-checks=barrier-unpaired -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
/*
 * barrier-unpaired: barriers whose partner is there, or cannot be seen.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

/* smp_wmb() / smp_rmb(). */
struct req {
	int status;
	int done;
};

void req_complete(struct req *r, int status)
{
	r->status = status;
	smp_wmb();
	WRITE_ONCE(r->done, 1);
}

int req_poll(struct req *r)
{
	if (!READ_ONCE(r->done))
		return -1;
	smp_rmb();
	return r->status;
}

/* Release paired with an address dependency. */
struct node {
	int key;
};
static struct node *head;

void node_publish(struct node *n, int k)
{
	n->key = k;
	smp_store_release(&head, n);
}

int node_key(void)
{
	struct node *n = READ_ONCE(head);

	return n ? n->key : -1;
}

/* rcu_assign_pointer() / rcu_dereference(). */
static struct node *rcu_head_ptr;

void node_publish_rcu(struct node *n, int k)
{
	n->key = k;
	rcu_assign_pointer(rcu_head_ptr, n);
}

int node_key_rcu(void)
{
	struct node *n;
	int k = -1;

	rcu_read_lock();
	n = rcu_dereference(rcu_head_ptr);
	if (n)
		k = n->key;
	rcu_read_unlock();
	return k;
}

/* A write barrier whose reader is in another file: nothing to pair here. */
struct mbox {
	int msg;
	int full;
};

void mbox_send(struct mbox *m, int v)
{
	m->msg = v;
	smp_wmb();
	WRITE_ONCE(m->full, 1);
}

/* smp_rmb() whose writer holds a lock: the reader side is under the lock
 * too in the reader that matters; stay silent when locks are involved. */
struct tbl {
	spinlock_t lock;
	int n;
	int gen;
};

void tbl_add(struct tbl *t)
{
	spin_lock(&t->lock);
	t->n++;
	t->n = 3;
	WRITE_ONCE(t->gen, 1);
	spin_unlock(&t->lock);
}

int tbl_count(struct tbl *t)
{
	if (!READ_ONCE(t->gen))
		return 0;
	smp_rmb();
	return t->n;
}

/* Acquire / plain reads after it, writer with smp_mb(). */
struct flagged {
	int data;
	int flag;
};

void flagged_set(struct flagged *f, int v)
{
	f->data = v;
	smp_mb();
	WRITE_ONCE(f->flag, 1);
}

int flagged_get(struct flagged *f)
{
	if (smp_load_acquire(&f->flag))
		return f->data;
	return 0;
}
