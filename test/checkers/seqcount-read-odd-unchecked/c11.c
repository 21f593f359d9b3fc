// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-read-odd-unchecked, C11 <stdatomic.h>: open-coded readers with the
 * right ordering (acquire first load, acquire fence before the recheck) that
 * do or do not handle an odd count. Diagnosed on the first counter load.
 * Only readers live in this file; all data is accessed atomically.
 */
#include <stdatomic.h>
#include <stdbool.h>

struct sample {
	atomic_uint seq;
	atomic_ulong a;
	atomic_ulong b;
};

/* ---- bugs ---- */

/* An odd count is recorded and accepted if the writer is still active. */
unsigned long bug_no_odd_check(struct sample *s)
{
	unsigned seq;
	unsigned long a, b;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_acquire); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		b = atomic_load_explicit(&s->b, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	return a + b;
}

/* Relaxed load + acquire fence, for(;;) with break, still no odd check. */
unsigned long bug_for_break(struct sample *s)
{
	unsigned seq;
	unsigned long a;

	for (;;) {
		seq = atomic_load_explicit(&s->seq, memory_order_relaxed); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
		atomic_thread_fence(memory_order_acquire);
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&s->seq, memory_order_relaxed) == seq)
			break;
	}
	return a;
}

/* seq_cst loads everywhere do not help with the odd count. */
unsigned long bug_seq_cst(struct sample *s)
{
	unsigned seq;
	unsigned long b;

	do {
		seq = atomic_load(&s->seq); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
		b = atomic_load_explicit(&s->b, memory_order_relaxed);
		atomic_thread_fence(memory_order_seq_cst);
	} while (atomic_load(&s->seq) != seq);
	return b;
}

/* ---- correct ---- */

/* Masked. */
unsigned long ok_masked(struct sample *s)
{
	unsigned seq;
	unsigned long a;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_acquire) & ~1u;
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	return a;
}

/* Tested, with continue. */
unsigned long ok_tested(struct sample *s)
{
	unsigned seq;
	unsigned long a;

	for (;;) {
		seq = atomic_load_explicit(&s->seq, memory_order_acquire);
		if (seq & 1)
			continue;
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&s->seq, memory_order_relaxed) == seq)
			break;
	}
	return a;
}

/* Waiting while odd. */
unsigned long ok_wait_even(struct sample *s)
{
	unsigned seq;
	unsigned long b;

	do {
		while ((seq = atomic_load_explicit(&s->seq, memory_order_acquire)) & 1)
			;
		b = atomic_load_explicit(&s->b, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	return b;
}

/* "% 2" and bail out. */
bool ok_try(struct sample *s, unsigned long *a)
{
	unsigned seq;
	unsigned long v;

	seq = atomic_load_explicit(&s->seq, memory_order_acquire);
	if (seq % 2 != 0)
		return false;
	v = atomic_load_explicit(&s->a, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	if (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq)
		return false;
	*a = v;
	return true;
}
