// access-plain-reread: a trylock holds its lock only where it succeeded.
// Plain accesses under a held lock are protected; on the path where the
// trylock failed, nothing is held, and a checked value re-read plainly there
// is a double fetch like any other.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-reread -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>

struct queue {
	spinlock_t lock;
	int depth;
	int limit;
};

int drain(struct queue *q, int n);
int spin_trylock(spinlock_t *lock);

/* Bug: the trylock failed, so the fast path runs unlocked and re-reads the
 * checked depth. */
int queue_kick(struct queue *q)
{
	int n;

	if (!spin_trylock(&q->lock)) {
		if (READ_ONCE(q->depth) > 0)
			return drain(q, q->depth); // expected-warning {{[seqlint-access-plain-reread]}}
		return 0;
	}
	n = q->depth;
	spin_unlock(&q->lock);
	return drain(q, n);
}

/* Correct: the same re-read where the trylock succeeded. */
int queue_flush(struct queue *q)
{
	int n = 0;

	if (spin_trylock(&q->lock)) {
		if (READ_ONCE(q->limit) > 0)
			n = drain(q, q->limit);
		spin_unlock(&q->lock);
	}
	return n;
}
