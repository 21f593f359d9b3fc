// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-read-missing-barrier, C11 <stdatomic.h>: open-coded readers. The
 * first counter load must be an acquire (or be followed by an acquire fence)
 * and an atomic_thread_fence(memory_order_acquire) (or seq_cst) must separate
 * the relaxed data loads from the recheck; an acquire or seq_cst *recheck*
 * load does not order the loads before it. Bugs first, then correct readers.
 * Only readers live in this file; all data is accessed atomically, and every
 * reader handles the odd count.
 */
#include <stdatomic.h>
#include <stdbool.h>

struct sample {
	atomic_uint seq;
	atomic_ulong a;
	atomic_ulong b;
};

/* ---- bugs ---- */

/* Relaxed first load, nothing after it: the data may be older than seq. */
unsigned long bug_relaxed_begin(struct sample *s)
{
	unsigned seq;
	unsigned long a, b;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_relaxed) & ~1u;
		a = atomic_load_explicit(&s->a, memory_order_relaxed); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
		b = atomic_load_explicit(&s->b, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	return a + b;
}

/* No acquire fence before the relaxed recheck. */
unsigned long bug_no_fence_before_recheck(struct sample *s)
{
	unsigned seq;
	unsigned long a, b;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_acquire) & ~1u;
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		b = atomic_load_explicit(&s->b, memory_order_relaxed);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
	return a + b;
}

/* An acquire recheck orders what comes after it, not the data loads before
 * it (the classic mistake discussed by Boehm, "Can seqlocks get along with
 * programming language memory models?"). */
unsigned long bug_acquire_recheck(struct sample *s)
{
	unsigned seq;
	unsigned long a;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_acquire) & ~1u;
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
	} while (atomic_load_explicit(&s->seq, memory_order_acquire) != seq); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
	return a;
}

/* A seq_cst recheck load does not order earlier relaxed loads either. */
unsigned long bug_seq_cst_recheck(struct sample *s)
{
	unsigned seq;
	unsigned long a;

	do {
		seq = atomic_load(&s->seq) & ~1u;
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
	} while (atomic_load(&s->seq) != seq); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
	return a;
}

/* Neither side ordered. */
unsigned long bug_all_relaxed(struct sample *s)
{
	unsigned seq;
	unsigned long a;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_relaxed) & ~1u;
		a = atomic_load_explicit(&s->a, memory_order_relaxed); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
	return a;
}

/* A compiler-only fence before the recheck. */
unsigned long bug_signal_fence(struct sample *s)
{
	unsigned seq;
	unsigned long a;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_acquire) & ~1u;
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		atomic_signal_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
	return a;
}

/* ---- correct ---- */

/* Acquire first load, relaxed data, acquire fence, relaxed recheck. */
unsigned long ok_acquire_fence(struct sample *s)
{
	unsigned seq;
	unsigned long a, b;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_acquire) & ~1u;
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		b = atomic_load_explicit(&s->b, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	return a + b;
}

/* Relaxed first load followed by an acquire fence is equivalent. */
unsigned long ok_two_fences(struct sample *s)
{
	unsigned seq;
	unsigned long a;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_relaxed) & ~1u;
		atomic_thread_fence(memory_order_acquire);
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	return a;
}

/* seq_cst fences are stronger than acquire fences. */
unsigned long ok_seq_cst_fences(struct sample *s)
{
	unsigned seq;
	unsigned long a;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_relaxed) & ~1u;
		atomic_thread_fence(memory_order_seq_cst);
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		atomic_thread_fence(memory_order_seq_cst);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	return a;
}

/* for(;;) with break, odd test with continue, fence on every path. */
unsigned long ok_for_break(struct sample *s, bool want_b)
{
	unsigned seq;
	unsigned long v;

	for (;;) {
		seq = atomic_load_explicit(&s->seq, memory_order_acquire);
		if (seq & 1)
			continue;
		if (want_b)
			v = atomic_load_explicit(&s->b, memory_order_relaxed);
		else
			v = atomic_load_explicit(&s->a, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&s->seq, memory_order_relaxed) == seq)
			break;
	}
	return v;
}
