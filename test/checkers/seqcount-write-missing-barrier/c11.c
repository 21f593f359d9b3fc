// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-write-missing-barrier, C11 <stdatomic.h>: open-coded writers whose
 * odd increment is a relaxed store or relaxed fetch_add. The data stores need
 * an atomic_thread_fence(memory_order_release) (or seq_cst) after the odd
 * increment, and the even increment must be a release (store, RMW or a
 * release fence before a relaxed store). Bugs first, then correct writers.
 * Only writers live in this file; all data is accessed atomically.
 */
#include <stdatomic.h>
#include <stdbool.h>

struct sample {
	atomic_uint seq;
	atomic_ulong a;
	atomic_ulong b;
};

/* ---- bugs ---- */

/* The article's bug in C11: the relaxed data store may become visible before
 * the relaxed odd increment. */
void bug_relaxed_begin(struct sample *s, unsigned long a, unsigned long b)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	atomic_store_explicit(&s->a, a, memory_order_relaxed); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	atomic_store_explicit(&s->b, b, memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}

/* Same with fetch_add: a relaxed RMW orders nothing after it. */
void bug_fetch_add_begin(struct sample *s, unsigned long a, unsigned long b)
{
	atomic_fetch_add_explicit(&s->seq, 1, memory_order_relaxed);
	atomic_store_explicit(&s->a, a, memory_order_relaxed); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	atomic_store_explicit(&s->b, b, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->seq, 1, memory_order_release);
}

/* The closing increment is a relaxed store with no release fence before it. */
void bug_relaxed_end(struct sample *s, unsigned long a, unsigned long b)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&s->a, a, memory_order_relaxed);
	atomic_store_explicit(&s->b, b, memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq + 2, memory_order_relaxed); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
}

/* The closing relaxed fetch_add is not a release either. */
void bug_fetch_add_end(struct sample *s, unsigned long a)
{
	atomic_fetch_add_explicit(&s->seq, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&s->a, a, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->seq, 1, memory_order_relaxed); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
}

/* A compiler-only fence does not order the stores for other threads. */
void bug_signal_fence(struct sample *s, unsigned long a)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	atomic_signal_fence(memory_order_release);
	atomic_store_explicit(&s->a, a, memory_order_relaxed); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}

/* The fence is only on one path. */
void bug_cond_fence(struct sample *s, unsigned long a, bool sync)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	if (sync)
		atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&s->a, a, memory_order_relaxed); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}

/* A seq_cst fetch_add is not a fence: its release half orders what came
 * before it, nothing orders the later relaxed data stores after it (they can
 * pass it on Arm/POWER). The odd increment needs a release fence. */
void bug_seq_cst_rmw_begin(struct sample *s, unsigned long a)
{
	atomic_fetch_add(&s->seq, 1);
	atomic_store_explicit(&s->a, a, memory_order_relaxed); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	atomic_fetch_add_explicit(&s->seq, 1, memory_order_release);
}

/* ---- correct ---- */

/* Relaxed odd increment, release fence, relaxed data, release store. */
void ok_fence(struct sample *s, unsigned long a, unsigned long b)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&s->a, a, memory_order_relaxed);
	atomic_store_explicit(&s->b, b, memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}

/* fetch_add pair: relaxed + release fence to open, release RMW to close. */
void ok_fetch_add(struct sample *s, unsigned long a, unsigned long b)
{
	atomic_fetch_add_explicit(&s->seq, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&s->a, a, memory_order_relaxed);
	atomic_store_explicit(&s->b, b, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->seq, 1, memory_order_release);
}

/* A seq_cst fence is stronger than a release fence; so is a seq_cst store
 * for the closing increment. */
void ok_seq_cst(struct sample *s, unsigned long a)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst);
	atomic_store_explicit(&s->a, a, memory_order_relaxed);
	atomic_store(&s->seq, seq + 2);
}

/* The closing increment may be relaxed when a release fence precedes it. */
void ok_fence_before_end(struct sample *s, unsigned long a, unsigned long b)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&s->a, a, memory_order_relaxed);
	atomic_store_explicit(&s->b, b, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&s->seq, seq + 2, memory_order_relaxed);
}

/* Fences on both branches. */
void ok_fence_both_paths(struct sample *s, unsigned long v, bool first)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	if (first) {
		atomic_thread_fence(memory_order_release);
		atomic_store_explicit(&s->a, v, memory_order_relaxed);
	} else {
		atomic_thread_fence(memory_order_release);
		atomic_store_explicit(&s->b, v, memory_order_relaxed);
	}
	atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}

/* Relaxed statistics counters, no seqcount: nothing to order. */
struct counters {
	atomic_ulong packets;
	atomic_ulong bytes;
};

void ok_stats(struct counters *c, unsigned long len)
{
	atomic_fetch_add_explicit(&c->packets, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&c->bytes, len, memory_order_relaxed);
}

/* Data updates that are release (or fully ordered) read-modify-writes are
 * ordered after the odd increment themselves, like release stores. */
void ok_release_rmw_data(struct sample *s, unsigned long n)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->a, n, memory_order_release);
	atomic_fetch_or_explicit(&s->b, n, memory_order_acq_rel);
	atomic_fetch_sub(&s->a, 1);
	atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}
