// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only %s 2>&1 | FileCheck %s
/*
 * mp-missing-barrier, one side: a consumer of a ring whose producer is
 * another agent (the kernel, through a mapped ring) refreshes its cached
 * copy of the producer's index with a volatile load and then reads the
 * slots below it. Nothing orders the index load before the slot loads, so
 * on a weakly ordered CPU a slot can be older than the index says. The file
 * never stores the producer's index: it is the other side's. The slots are
 * handed out by a helper that returns a pointer into the ring. Written for
 * seqlint; the shape is that of a userspace AF_XDP RX ring. The fix names
 * the file's own read barrier, c_rmb() (a read barrier on arm64).
 */
#include <stdint.h>

#if defined(__x86_64__)
# define c_rmb()	__asm__ __volatile__("" ::: "memory")
#else
# define c_rmb()	__asm__ __volatile__("dmb ishld" ::: "memory")
#endif

struct desc { uint64_t addr; uint32_t len, opts; };

struct rxq {
	uint32_t cached_prod, cached_cons, mask;
	uint32_t *producer;
	struct desc *descs;
};

struct other { uint32_t mask; struct desc *descs; };

static inline struct desc *at(struct rxq *q, uint32_t i) { return &q->descs[i & q->mask]; }

static inline uint32_t avail(struct rxq *q)
{
	if (q->cached_prod == q->cached_cons)
		q->cached_prod = *(volatile uint32_t *)q->producer;
	return q->cached_prod - q->cached_cons;
}

static inline uint32_t avail_rmb(struct rxq *q)
{
	if (q->cached_prod == q->cached_cons) {
		q->cached_prod = *(volatile uint32_t *)q->producer;
		c_rmb();
	}
	return q->cached_prod - q->cached_cons;
}

static inline uint32_t avail_acquire(struct rxq *q)
{
	if (q->cached_prod == q->cached_cons)
		q->cached_prod = __atomic_load_n(q->producer, __ATOMIC_ACQUIRE);
	return q->cached_prod - q->cached_cons;
}

/* Bug: the descriptors are read with nothing after the index load. */
uint64_t rx_bytes(struct rxq *q)
{
	uint32_t n = avail(q), i; // expected-warning {{cached in 'q->cached_prod', and 'd->len', a slot of the same ring}}
	uint64_t sum = 0;

	for (i = 0; i < n; i++) {
		struct desc *d = at(q, q->cached_cons + i);
		sum += d->len;
	}
	q->cached_cons += n;
	return sum;
}
// CHECK: one-sided-cached-slot.c:[[@LINE-10]]:15: warning: '*(q->producer)' is loaded here and cached in 'q->cached_prod'
// CHECK-SAME: or put c_rmb() after it
// CHECK: note: the load of 'd->len' is here

/* Bug: the same, the slot subscripted directly. */
uint64_t rx_first(struct rxq *q)
{
	if (!avail(q)) // expected-warning {{a slot of the same ring}}
		return 0;
	return q->descs[q->cached_cons++ & q->mask].addr;
}
// CHECK: one-sided-cached-slot.c:[[@LINE-4]]:7: warning: '*(q->producer)' is loaded here and cached in 'q->cached_prod', and 'q->descs[].addr'

/* Correct: a read barrier (dmb ishld on arm64) after the index load. */
uint64_t rx_bytes_rmb(struct rxq *q)
{
	uint32_t n = avail_rmb(q), i;
	uint64_t sum = 0;

	for (i = 0; i < n; i++)
		sum += at(q, q->cached_cons + i)->len;
	q->cached_cons += n;
	return sum;
}

/* Correct: the index loaded with an acquire. */
uint64_t rx_bytes_acquire(struct rxq *q)
{
	uint32_t n = avail_acquire(q), i;
	uint64_t sum = 0;

	for (i = 0; i < n; i++)
		sum += at(q, q->cached_cons + i)->len;
	q->cached_cons += n;
	return sum;
}

/* Not this ring: the slots read are another object's. */
uint64_t rx_other(struct rxq *q, struct other *o)
{
	uint32_t n = avail(q);

	return n ? o->descs[n & o->mask].addr : 0;
}
// CHECK-NOT: warning:
