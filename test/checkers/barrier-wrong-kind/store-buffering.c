// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-wrong-kind' -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-wrong-kind' -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
/*
 * barrier-wrong-kind, store buffering: each side stores its own flag and
 * then loads the other's (a producer that sets "stalled" and re-checks the
 * consumer's tail, a consumer that advances the tail and checks
 * "stalled"). Both sides need store->load order; the side that writes its
 * full barrier down is the evidence that the other one needs it too.
 * Modelled on drivers/tty/n_tty.c (n_tty_receive_buf_common() and
 * n_tty_read(), "tty: fix hang on tty device with no_room set", 2023), on
 * the kernel-doc of waitqueue_active() (include/linux/wait.h), and on
 * x_tables' per-CPU recursion sequence (include/linux/netfilter/x_tables.h).
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

struct port {
	size_t commit, tail;
	int stalled, waiting;
	spinlock_t lock;
	unsigned char buf[256];
};

static size_t pending(const struct port *p)
{
	return READ_ONCE(p->commit) - READ_ONCE(p->tail);
}

static void kick(struct port *p)
{
	if (READ_ONCE(p->stalled)) {
		WRITE_ONCE(p->stalled, 0);
	}
}

/* The consumer: the tail, a full barrier, then "stalled". */
size_t consume(struct port *p, unsigned char *dst)
{
	size_t head = smp_load_acquire(&p->commit), t = p->tail, n = 0;

	while (t != head)
		dst[n++] = p->buf[t++ & 255];
	smp_store_release(&p->tail, t);
	smp_mb();
	kick(p);
	return n;
}

/* The producer: "stalled", then the consumer's tail through a helper. */
int produce_wmb(struct port *p)
{
	WRITE_ONCE(p->stalled, 1);
	smp_wmb(); // expected-warning {{smp_wmb() does not order the store to 'p->stalled' before it against the load of 'p->tail' after it, and the other side needs exactly that: 'consume' stores 'p->tail' and then loads 'p->stalled' with a full barrier between}}
	return pending(p) == 0;
}
// CHECK-DAG: fix-it:"{{.*}}store-buffering.c":{[[@LINE-3]]:2-[[@LINE-3]]:9}:"smp_mb"

/* Correct: the producer's full barrier. */
int produce_mb(struct port *p)
{
	WRITE_ONCE(p->stalled, 1);
	smp_mb();
	return pending(p) == 0;
}

/* Correct: a write barrier between two stores, no load of the other's. */
void produce_data(struct port *p, unsigned char c)
{
	p->buf[p->commit & 255] = c;
	smp_wmb();
	WRITE_ONCE(p->commit, p->commit + 1);
}

/* Correct: under the lock the consumer's side does not take, but with
 * nothing the other side stores loaded after the barrier. */
int produce_locked(struct port *p)
{
	int w;

	spin_lock(&p->lock);
	WRITE_ONCE(p->stalled, 1);
	smp_wmb();
	w = p->waiting;
	spin_unlock(&p->lock);
	return w;
}

/* waitqueue_active(): the kernel's documented waker needs smp_mb(). */
struct wait_queue_head { spinlock_t lock; struct list_head head; };
static inline int waitqueue_active(struct wait_queue_head *wq)
{
	return READ_ONCE(wq->head.next) != &wq->head;
}
extern void wake_up(struct wait_queue_head *wq);
extern void notify_async(struct port *p);

struct chan {
	size_t head;
	struct wait_queue_head wait;
};

void chan_publish_release(struct chan *c, size_t h)
{
	smp_store_release(&c->head, h); // expected-warning {{the release store to 'c->head' orders the accesses before it, not the load of the wait queue in waitqueue_active() after it: a waiter that queues itself and then re-checks can miss the store while this side sees an empty queue, and nobody wakes it. Add smp_mb() after the release store (or wq_has_sleeper(), which has it)}}
	notify_async(NULL);
	if (waitqueue_active(&c->wait))
		wake_up(&c->wait);
}

void chan_publish_wmb(struct chan *c, size_t h)
{
	WRITE_ONCE(c->head, h);
	smp_wmb(); // expected-warning {{smp_wmb() does not order the store to 'c->head' before it against the load of the wait queue in waitqueue_active() after it}}
	if (waitqueue_active(&c->wait))
		wake_up(&c->wait);
}
// CHECK-DAG: fix-it:"{{.*}}store-buffering.c":{[[@LINE-4]]:2-[[@LINE-4]]:9}:"smp_mb"

/* Correct: the documented waker. */
void chan_publish_mb(struct chan *c, size_t h)
{
	WRITE_ONCE(c->head, h);
	smp_mb();
	if (waitqueue_active(&c->wait))
		wake_up(&c->wait);
}

/* Correct: the release store, then smp_mb() before the peek. */
void chan_publish_release_mb(struct chan *c, size_t h)
{
	smp_store_release(&c->head, h);
	smp_mb();
	if (waitqueue_active(&c->wait))
		wake_up(&c->wait);
}

/* Correct: the peek under the wait queue's lock. */
void chan_publish_locked(struct chan *c, size_t h)
{
	smp_store_release(&c->head, h);
	spin_lock(&c->wait.lock);
	if (waitqueue_active(&c->wait))
		wake_up(&c->wait);
	spin_unlock(&c->wait.lock);
}

/* x_tables' per-CPU recursion count, reached through this_cpu_ptr() as an
 * address plus this CPU's offset; the enter step is 1 for an even count
 * and 0 for a re-entered (odd) one. */
extern unsigned long this_cpu_off;
#define my_cpu_ptr(ptr) ((typeof(ptr))((unsigned long)(ptr) + this_cpu_off))
#define my_cpu_read(pcp) (*my_cpu_ptr(&(pcp)))
#define my_cpu_add(pcp, val) do { *my_cpu_ptr(&(pcp)) += (val); } while (0)

struct recseq { unsigned int sequence; };
extern struct recseq walk_seq;
struct rules { int *blob; };

static inline unsigned int walk_enter_wmb(void)
{
	unsigned int step = (my_cpu_read(walk_seq.sequence) + 1) & 1;

	my_cpu_add(walk_seq.sequence, step);
	smp_wmb();
	return step;
}

static inline unsigned int walk_enter_mb(void)
{
	unsigned int step = (my_cpu_read(walk_seq.sequence) + 1) & 1;

	my_cpu_add(walk_seq.sequence, step);
	smp_mb();
	return step;
}

static inline void walk_leave(unsigned int step)
{
	smp_wmb();
	my_cpu_add(walk_seq.sequence, step);
}

int walk_wmb(struct rules *r)
{
	unsigned int step = walk_enter_wmb(); // expected-warning {{walk_enter_wmb() does not order the read-modify-write of 'walk_seq.sequence' before it against the load of 'r->blob' after it: only a full barrier orders a store against a later load; use smp_mb()}}
	int *b = READ_ONCE(r->blob);
	int v = b[0];

	walk_leave(step);
	return v;
}

/* Correct: smp_mb() after the odd step; the leave's smp_wmb() before the
 * closing step is the seqcount write end. */
int walk_mb(struct rules *r)
{
	unsigned int step = walk_enter_mb();
	int *b = READ_ONCE(r->blob);
	int v = b[0];

	walk_leave(step);
	return v;
}

/* Correct, and no crash: a call through a pointer after the barrier. */
struct ops { void (*kick)(struct port *); };
void produce_indirect(struct port *p, const struct ops *o)
{
	WRITE_ONCE(p->stalled, 1);
	smp_wmb();
	o->kick(p);
	WRITE_ONCE(p->waiting, 1);
}
