// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-wrong-kind' -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * Store buffering with one side in view, with an ordering of the wrong kind
 * in between: a release store, or a write barrier, orders the accesses
 * before the store, not the load after it that decides whether to wake the
 * other side (a kernel polling thread that sets "need wakeup" and then
 * re-checks the tail). Modelled on liburing's submission path before its
 * 2022 fix (sq_ring_needs_enter()), rewritten.
 */
#include <stdatomic.h>

#define NEED_WAKEUP 1u
#define store_release(p, v) \
	atomic_store_explicit((_Atomic __typeof__(*(p)) *)(p), (v), memory_order_release)
#define load_relaxed(p) \
	atomic_load_explicit((_Atomic __typeof__(*(p)) *)(p), memory_order_relaxed)
#define store_relaxed(p, v) \
	atomic_store_explicit((_Atomic __typeof__(*(p)) *)(p), (v), memory_order_relaxed)

struct sqring {
	unsigned *ktail, *kflags;
	unsigned *array;
	unsigned mask, local_tail;
	int fd;
};

extern int sys_enter(int fd, unsigned n, unsigned flags);

static unsigned flush(struct sqring *r)
{
	unsigned tail = r->local_tail;
	r->array[tail & r->mask] = tail;
	tail++;
	store_release(r->ktail, tail);
	return 1;
}

int submit(struct sqring *r)
{
	unsigned n = flush(r); // expected-warning {{the release store to '*(r->ktail)' orders the accesses before it, not the load of '*(r->kflags)' after it, which decides whether to wake the other side}}

	if (load_relaxed(r->kflags) & NEED_WAKEUP)
		return sys_enter(r->fd, n, NEED_WAKEUP);
	return (int)n;
}

/* The fix: a full fence after the release store. */
static unsigned flush_ok(struct sqring *r)
{
	unsigned tail = r->local_tail;
	r->array[tail & r->mask] = tail;
	tail++;
	store_release(r->ktail, tail);
	atomic_thread_fence(memory_order_seq_cst);
	return 1;
}

int submit_ok(struct sqring *r)
{
	unsigned n = flush_ok(r);

	if (load_relaxed(r->kflags) & NEED_WAKEUP)
		return sys_enter(r->fd, n, NEED_WAKEUP);
	return (int)n;
}

/* seq_cst store and seq_cst load: ordered in C11. */
int submit_sc(struct sqring *r, unsigned tail)
{
	atomic_store((_Atomic unsigned *)r->ktail, tail);
	if (atomic_load((_Atomic unsigned *)r->kflags) & NEED_WAKEUP)
		return sys_enter(r->fd, 1, NEED_WAKEUP);
	return 0;
}

/* A write fence between: the wrong kind too (judged as a barrier). */
int submit_wfence(struct sqring *r, unsigned tail)
{
	store_relaxed(r->ktail, tail);
	atomic_thread_fence(memory_order_release); // expected-warning {{the release fence does not order the store to '*(r->ktail)' before it against the load of '*(r->kflags)' after it}}
	if (load_relaxed(r->kflags) & NEED_WAKEUP)
		return sys_enter(r->fd, 1, NEED_WAKEUP);
	return 0;
}
