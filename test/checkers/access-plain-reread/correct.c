// access-plain-reread: correct code that an imprecise tool would flag.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-reread -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>

struct buf {
	spinlock_t lock;
	int len;
	char *data;
	struct buf *next;
};

int consume(char *p, int n);

/* The checked value is reused: one read. */
int buf_read(struct buf *b, char *out, int max)
{
	int len = READ_ONCE(b->len);

	if (len > max)
		return -1;
	return consume(out, len);
}

/* Lockless fast-path check, then the lock, then the real read. */
int buf_len_locked(struct buf *b)
{
	int len;

	if (READ_ONCE(b->len) == 0)
		return 0;
	spin_lock(&b->lock);
	len = b->len;
	spin_unlock(&b->lock);
	return len;
}

/* The function writes the location itself before re-reading it. */
int buf_reset(struct buf *b)
{
	if (READ_ONCE(b->len) < 0)
		b->len = 0;
	else
		WRITE_ONCE(b->len, 1);
	return b->len;
}

/* The caller holds the lock (asserted): plain reads are protected. */
int buf_len_held(struct buf *b)
{
	lockdep_assert_held(&b->lock);
	if (READ_ONCE(b->len) == 0)
		return 0;
	return b->len;
}

/* A different field is read plainly. */
char *buf_data(struct buf *b)
{
	if (!READ_ONCE(b->len))
		return 0;
	return b->data;
}

/* rcu_dereference'd pointers are re-used through the checked pointer. */
int buf_next_len(struct buf *b)
{
	struct buf *n = rcu_dereference(b->next);

	if (!n)
		return 0;
	return n->len;
}

/* The check decides to go round again; the read at the top of the next
 * iteration is a fresh read (lib/vdso/getrandom.c). */
int buf_retry(struct buf *b)
{
	int len;

again:
	len = b->len;
	if (READ_ONCE(b->len) != len)
		goto again;
	return len;
}

/* The pointer moves on: b->len is another object's field (fs/netfs). */
int buf_list(struct buf *b)
{
	int n = 0;

	if (READ_ONCE(b->len))
		n++;
	b = b->next;
	return n + b->len;
}

/* Two locks held, one dropped: still under the other (kernel/rcu/tree.c). */
int buf_two_locks(struct buf *b, struct buf *outer)
{
	int len;

	spin_lock(&outer->lock);
	spin_lock(&b->lock);
	spin_unlock(&b->lock);
	if (READ_ONCE(b->len) == 0) {
		spin_unlock(&outer->lock);
		return 0;
	}
	len = b->len;
	spin_unlock(&outer->lock);
	return len;
}
