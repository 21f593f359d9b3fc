// access-plain-reread: a scoped guard (<linux/cleanup.h> guard()) holds its
// lock only inside the block that declares it. A value checked and re-read
// plainly after that block is a double fetch like any other; inside the
// block the lock protects it.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-reread -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>
#include <linux/cleanup.h>

struct queue {
	spinlock_t lock;
	int depth;
	int pending;
};

int drain(struct queue *q, int n);

/* Bug: the guard's block is over; the checked depth is fetched again. */
int queue_kick(struct queue *q, int sync)
{
	if (sync) {
		guard_spinlock(&q->lock);
		q->pending = 0;
	}
	if (READ_ONCE(q->depth) > 0)
		return drain(q, q->depth); // expected-warning {{[seqlint-access-plain-reread]}}
	return 0;
}

/* Correct: the check and the re-read both inside the guard's block. */
int queue_flush(struct queue *q)
{
	guard_spinlock(&q->lock);
	if (READ_ONCE(q->depth) > 0)
		return drain(q, q->depth);
	return 0;
}
