// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier, one side: a C11 producer checks for room by loading
 * the consumer's head plainly, then overwrites the slot at its own tail
 * and store-releases the tail. In C11 the "full?" test is a control
 * dependency that orders nothing: the slot stores may be done before the
 * head load, over an entry the consumer (the kernel, across mmap) is
 * still reading. The head load needs an acquire.
 * Modelled on liburing examples/zcrx.c:rq_nr_queued()/return_buffer()
 * before 603f83e31761 (2025) and on liburing's io_uring_buf_ring_add()
 * path; the consumer is not in this file.
 */
#include <stdatomic.h>
#include <stdint.h>

#define store_release(p, v) \
	atomic_store_explicit((_Atomic __typeof__(*(p)) *)(p), (v), memory_order_release)
#define load_acquire(p) \
	atomic_load_explicit((_Atomic __typeof__(*(p)) *)(p), memory_order_acquire)

struct rent { uint64_t addr; uint32_t len; uint16_t bid; uint16_t pad; };

struct retq {
	unsigned *khead;	/* the kernel moves it */
	unsigned *ktail;	/* we move it */
	unsigned tail;		/* private copy of *ktail */
	unsigned entries;	/* power of two */
	struct rent *ring;
};

static unsigned retq_used(struct retq *q)
{
	return q->tail - *q->khead;
}

int retq_give(struct retq *q, uint64_t addr, uint32_t len, uint16_t bid)
{
	struct rent *e;

	if (retq_used(q) == q->entries) // expected-warning {{'e->addr' is overwritten after '*(q->khead)', the other side's index, is loaded and tested}}
		return -1;
	e = &q->ring[q->tail & (q->entries - 1)];
	e->addr = addr;
	e->len = len;
	e->bid = bid;
	store_release(q->ktail, ++q->tail);
	return 0;
}

/* Fixed: the head is loaded with an acquire. */
static unsigned retq_used_ok(struct retq *q)
{
	return q->tail - load_acquire(q->khead);
}

int retq_give_ok(struct retq *q, uint64_t addr, uint32_t len, uint16_t bid)
{
	struct rent *e;

	if (retq_used_ok(q) == q->entries)
		return -1;
	e = &q->ring[q->tail & (q->entries - 1)];
	e->addr = addr;
	e->len = len;
	e->bid = bid;
	store_release(q->ktail, ++q->tail);
	return 0;
}

/* A capacity loaded plainly is no index of the other side: the room is
 * computed from it and the own position only (a capacity is not declared
 * like the indexes). */
struct spring {
	_Atomic unsigned wr, rd;
	unsigned cap;
	struct rent *ring;
};

int spring_put(struct spring *r, uint64_t addr)
{
	unsigned w = atomic_load_explicit(&r->wr, memory_order_relaxed);
	unsigned idx = w & (r->cap - 1);

	if (r->cap - idx == 0)
		return -1;
	if (w - atomic_load_explicit(&r->rd, memory_order_acquire) == r->cap)
		return -1;
	r->ring[idx].addr = addr;
	atomic_store_explicit(&r->wr, w + 1, memory_order_release);
	return 0;
}
