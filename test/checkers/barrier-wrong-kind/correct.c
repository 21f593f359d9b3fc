// barrier-wrong-kind, correct code: the kernel idioms whose barrier orders the
// accesses around it, and barriers whose accesses this function cannot see.
// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-wrong-kind' -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>
#include <stdatomic.h>

static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr, ~(1UL << nr), __ATOMIC_RELAXED);
}
static inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_RELAXED);
}
void wake_up_bit(void *word, int bit);
void consume(int v);

struct obj {
	int a, b, flag;
	unsigned long flags;
	atomic_t refs;
	seqcount_t seq;
	spinlock_t lock;
	unsigned int cnt;
};

/* Message passing, writer: data stores, smp_wmb(), flag store. */
void publish(struct obj *o, int a, int b)
{
	o->a = a;
	o->b = b;
	smp_wmb();
	WRITE_ONCE(o->flag, 1);
}

/* Message passing, reader: flag load, smp_rmb(), data loads. */
int subscribe(struct obj *o)
{
	if (!READ_ONCE(o->flag))
		return 0;
	smp_rmb();
	return o->a + o->b;
}

/* smp_mb__before_atomic() before an atomic RMW, smp_mb__after_atomic() after. */
void put_ref(struct obj *o)
{
	o->a = 0;
	smp_mb__before_atomic();
	atomic_dec(&o->refs);
}

void unlock_bit(struct obj *o)
{
	o->b = 1;
	smp_mb__before_atomic();
	clear_bit(0, &o->flags);
	smp_mb__after_atomic();
	wake_up_bit(&o->flags, 0);
}

void mark_bit(struct obj *o)
{
	set_bit(1, &o->flags);
	smp_mb__after_atomic();
	consume(READ_ONCE(o->a));
}

/* Dekker: a store, then a load of the other side's flag: smp_mb(). */
int dekker(struct obj *o, struct obj *other)
{
	WRITE_ONCE(o->flag, 1);
	smp_mb();
	return READ_ONCE(other->flag);
}

/* smp_store_mb(): a store and a full barrier. */
int store_mb(struct obj *o, struct obj *other)
{
	smp_store_mb(o->flag, 1);
	return READ_ONCE(other->flag);
}

/* Open-coded seqcount writer: wmb after the odd increment with stores
 * after, wmb before the even increment. */
void seq_write(struct obj *o, int a, int b)
{
	o->cnt++;
	smp_wmb();
	o->a = a;
	o->b = b;
	smp_wmb();
	o->cnt++;
}

/* Open-coded seqcount reader. */
int seq_read(struct obj *o)
{
	unsigned int c;
	int a, b;

	do {
		c = READ_ONCE(o->cnt);
		smp_rmb();
		a = o->a;
		b = o->b;
		smp_rmb();
	} while ((c & 1) || c != READ_ONCE(o->cnt));
	return a + b;
}

/* Barriers inside API sections. */
void api_write(struct obj *o, int a)
{
	write_seqcount_begin(&o->seq);
	o->a = a;
	smp_wmb();
	o->b = a;
	write_seqcount_end(&o->seq);
}

/* A barrier in a loop: loads before and after on every iteration. */
int poll_list(struct obj **v, int n)
{
	int sum = 0;
	for (int i = 0; i < n; i++) {
		if (!READ_ONCE(v[i]->flag))
			continue;
		smp_rmb();
		sum += v[i]->a;
	}
	return sum;
}

/* The accesses are in the caller: a barrier at the start or the end. */
void barrier_first(struct obj *o)
{
	smp_wmb();
	WRITE_ONCE(o->flag, 1);
}

int barrier_last(struct obj *o)
{
	int v = READ_ONCE(o->flag);
	consume(v);
	smp_rmb();
	return v;
}

/* An unknown call on one side: it may access anything. */
void around_call(struct obj *o)
{
	int v = READ_ONCE(o->a);
	smp_wmb();
	consume(v);
}

/* A lock on one side. */
void around_lock(struct obj *o)
{
	WRITE_ONCE(o->a, 1);
	smp_rmb();
	spin_lock(&o->lock);
	o->b = 2;
	spin_unlock(&o->lock);
}

/* Stores and loads before, a store after: smp_wmb() orders the stores. */
void mixed(struct obj *o, struct obj *p)
{
	o->a = READ_ONCE(p->a);
	smp_wmb();
	WRITE_ONCE(o->flag, 1);
}

/* C11 fences of the right kind. */
void c11_publish(_Atomic int *data, _Atomic int *flag)
{
	atomic_store_explicit(data, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(flag, 1, memory_order_relaxed);
}

int c11_consume(_Atomic int *data, _Atomic int *flag)
{
	if (!atomic_load_explicit(flag, memory_order_relaxed))
		return 0;
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(data, memory_order_relaxed);
}

int c11_dekker(_Atomic int *mine, _Atomic int *theirs)
{
	atomic_store_explicit(mine, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst);
	return atomic_load_explicit(theirs, memory_order_relaxed);
}

/* A load before a release fence and a store after: ordered (load->store). */
void c11_release_ls(_Atomic int *in, _Atomic int *out)
{
	int v = atomic_load_explicit(in, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(out, v, memory_order_relaxed);
}

/* include/linux/ptr_ring.h: the smp_wmb() after the checks orders the
 * caller's stores of the queued data before the store of the pointer. */
struct ring {
	int size, producer;
	void **queue;
};

int ring_produce(struct ring *r, void *ptr)
{
	if (!r->size || r->queue[r->producer])
		return -1;
	smp_wmb();
	WRITE_ONCE(r->queue[r->producer++], ptr);
	if (r->producer >= r->size)
		r->producer = 0;
	return 0;
}

/* net/core/dev.c: an access between smp_mb__before_atomic() and the RMW. */
struct qdisc {
	unsigned long state;
	int flags;
	struct qdisc *next;
};

void qdisc_run_list(struct qdisc *head)
{
	while (head) {
		struct qdisc *q = head;

		head = head->next;
		smp_mb__before_atomic();
		if (!(q->flags & 1))
			q->flags |= 2;
		clear_bit(0, &q->state);
	}
}

/* net/core/sock.c: smp_mb__after_atomic() relying on the caller's RMW. */
int after_caller_rmw(struct obj *o)
{
	int v = READ_ONCE(o->a);
	smp_mb__after_atomic();
	return v && READ_ONCE(o->flag);
}
