// barrier-wrong-kind: a barrier whose kind orders none of the access pairs it
// stands between.
// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-wrong-kind' -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/atomic.h>
#include <stdatomic.h>

/* Kernel bit operations, shaped like the instrumented wrappers. */
static inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_RELAXED);
}
static inline int test_bit(long nr, const volatile unsigned long *addr)
{
	return 1UL & (*addr >> nr);
}

struct obj {
	int a, b, flag;
	unsigned long flags;
	atomic_t refs;
	int *data;
};

/* Loads on both sides: smp_wmb() orders only stores. */
int read_pair(struct obj *o)
{
	int f = READ_ONCE(o->flag);
	smp_wmb(); // expected-warning {{smp_wmb() does not order loads, and the accesses on both sides are loads (the load of 'o->flag' before it, the load of 'o->a' after it); use smp_rmb() [seqlint-barrier-wrong-kind]}}
	return f ? o->a : 0;
}

/* Stores on both sides: smp_rmb() orders only loads. */
void write_pair(struct obj *o, int v)
{
	o->a = v;
	smp_rmb(); // expected-warning {{smp_rmb() does not order stores, and the accesses on both sides are stores (the store to 'o->a' before it, the store to 'o->flag' after it); use smp_wmb() [seqlint-barrier-wrong-kind]}}
	WRITE_ONCE(o->flag, 1);
}

/* Store then load (Dekker): smp_wmb() does not order it. */
int dekker_wmb(struct obj *o, struct obj *other)
{
	WRITE_ONCE(o->flag, 1);
	smp_wmb(); // expected-warning {{smp_wmb() does not order the store to 'o->flag' before it against the load of 'other->flag' after it: only a full barrier orders a store against a later load; use smp_mb() [seqlint-barrier-wrong-kind]}}
	return READ_ONCE(other->flag);
}

/* Same with smp_rmb() (after a full barrier: otherwise the smp_rmb() might
 * be there for the caller's loads before the call). */
int dekker_rmb(struct obj *o, struct obj *other)
{
	smp_mb();
	WRITE_ONCE(o->flag, 1);
	smp_rmb(); // expected-warning {{smp_rmb() does not order the store to 'o->flag' before it against the load of 'other->flag' after it}}
	return READ_ONCE(other->flag);
}

/* smp_mb__before_atomic() before atomic_set(), which is not an RMW. */
void reset_refs(struct obj *o)
{
	o->a = 0;
	smp_mb__before_atomic(); // expected-warning {{smp_mb__before_atomic() is followed by the store to 'o->refs', not by an atomic read-modify-write}}
	atomic_set(&o->refs, 1);
}

/* ... and before test_bit(), a load (btrfs should_cow_block() had this). */
int check_bit(struct obj *o)
{
	o->b = 1;
	smp_mb__before_atomic(); // expected-warning {{smp_mb__before_atomic() is followed by the load of 'o->flags', not by an atomic read-modify-write}}
	return test_bit(3, &o->flags);
}

/* smp_mb__after_atomic() after a plain store (the full barrier before it
 * keeps the caller out of the picture). */
void after_plain(struct obj *o)
{
	smp_mb();
	WRITE_ONCE(o->flag, 1);
	smp_mb__after_atomic(); // expected-warning {{smp_mb__after_atomic() is preceded by the store to 'o->flag', not by an atomic read-modify-write}}
	o->a = READ_ONCE(o->b);
}

/* C11: an acquire fence between two stores (a write path). The caller's
 * loads before the call would be ordered by it: the first fence ends them. */
void c11_acquire_on_write(_Atomic int *data, _Atomic int *flag)
{
	atomic_thread_fence(memory_order_seq_cst);
	atomic_store_explicit(data, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire); // expected-warning {{the acquire fence does not order stores, and the accesses on both sides are stores (the store to '*data' before it, the store to '*flag' after it); use atomic_thread_fence(memory_order_release) [seqlint-barrier-wrong-kind]}}
	atomic_store_explicit(flag, 1, memory_order_relaxed);
}

/* C11: a release fence between two loads (a read path). */
int c11_release_on_read(_Atomic int *data, _Atomic int *flag)
{
	int f = atomic_load_explicit(flag, memory_order_relaxed);
	atomic_thread_fence(memory_order_release); // expected-warning {{the release fence does not order loads, and the accesses on both sides are loads (the load of '*flag' before it, the load of '*data' after it); use atomic_thread_fence(memory_order_acquire)}}
	return f ? atomic_load_explicit(data, memory_order_relaxed) : 0;
}

/* C11: a release fence between a store and a load. */
int c11_release_sl(_Atomic int *mine, _Atomic int *theirs)
{
	atomic_store_explicit(mine, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release); // expected-warning {{the release fence does not order the store to '*mine' before it against the load of '*theirs' after it}}
	return atomic_load_explicit(theirs, memory_order_relaxed);
}

/* A load on one side, a store on the other: smp_rmb() orders neither. */
void load_then_store_rmb(struct obj *o)
{
	int v = READ_ONCE(o->a);
	smp_rmb(); // expected-warning {{smp_rmb() does not order the load of 'o->a' before it against the store to 'o->b' after it; use smp_mb()}}
	WRITE_ONCE(o->b, v);
}

/* A write barrier inside a loop that waits for another CPU: store, then the
 * loads of the loop. */
void wait_for_peer(struct obj *o, struct obj *peer)
{
	WRITE_ONCE(o->flag, 1);
	smp_wmb(); // expected-warning {{smp_wmb() does not order the store to 'o->flag' before it against the load of 'peer->flag' after it}}
	while (READ_ONCE(peer->flag))
		;
}

/* Suppressed: no diagnostic (-verify fails on an unexpected one). */
int dekker_wmb_suppressed(struct obj *o, struct obj *other)
{
	WRITE_ONCE(o->flag, 1);
	smp_wmb(); // NOLINT(seqlint-barrier-wrong-kind)
	return READ_ONCE(other->flag);
}

/* Fix-it: smp_wmb -> smp_mb. */
// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-wrong-kind' -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
// CHECK: fix-it:"{{.*}}bugs.c":{[[@LINE+5]]:2-[[@LINE+5]]:9}:"smp_mb"
// CHECK: fix-it:"{{.*}}bugs.c":{[[@LINE+11]]:2-[[@LINE+11]]:23}:"smp_mb"
int dekker_fixit(struct obj *o, struct obj *other)
{
	WRITE_ONCE(o->flag, 1);
	smp_wmb(); // expected-warning {{use smp_mb()}}
	return READ_ONCE(other->flag);
}

void before_atomic_fixit(struct obj *o)
{
	o->a = 0;
	smp_mb__before_atomic(); // expected-warning {{not by an atomic read-modify-write}}
	atomic_set(&o->refs, 1);
}
