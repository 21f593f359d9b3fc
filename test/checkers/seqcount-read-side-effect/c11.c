// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-read-side-effect, C11 <stdatomic.h> + libc: open-coded read
 * sections (acquire first load with the odd bit masked, relaxed data loads,
 * acquire fence, relaxed recheck) that print, allocate, free, or store to
 * globals and shared objects -- and correct ones that only write locals and
 * out-parameters, or act after the loop. Only readers live in this file; all
 * shared data is accessed atomically.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

struct sample {
	atomic_uint seq;
	atomic_ulong a;
	atomic_ulong b;
	atomic_ulong reads;
};

#define BEGIN(s) (atomic_load_explicit(&(s)->seq, memory_order_acquire) & ~1u)

/* ---- bugs ---- */

/* printf() in the section: once per attempt, with torn values. */
unsigned long bug_printf(struct sample *s)
{
	unsigned seq;
	unsigned long a;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_acquire) & ~1u;
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		printf("a=%lu\n", a); // expected-warning {{[seqlint-seqcount-read-side-effect]}}
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	return a;
}

/* A store to a global. */
static unsigned long last_a;

unsigned long bug_global_store(struct sample *s)
{
	unsigned seq;
	unsigned long a;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_acquire) & ~1u;
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		last_a = a; // expected-warning {{[seqlint-seqcount-read-side-effect]}}
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	return a;
}

/* An atomic RMW on the shared object: counted once per attempt. */
unsigned long bug_shared_rmw(struct sample *s)
{
	unsigned seq;
	unsigned long b;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_acquire) & ~1u;
		b = atomic_load_explicit(&s->b, memory_order_relaxed);
		atomic_fetch_add_explicit(&s->reads, 1, memory_order_relaxed); // expected-warning {{[seqlint-seqcount-read-side-effect]}}
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	return b;
}

/* malloc() in the section: one leak per retry. */
unsigned long *bug_malloc(struct sample *s)
{
	unsigned seq;
	unsigned long *copy, a;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_acquire) & ~1u;
		copy = malloc(sizeof(*copy)); // expected-warning {{[seqlint-seqcount-read-side-effect]}}
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	if (copy)
		*copy = a;
	return copy;
}

/* free() of a possibly torn pointer. */
struct holder {
	atomic_uint seq;
	void *_Atomic buf;
};

void bug_free(struct holder *h)
{
	unsigned seq;
	void *buf;

	do {
		seq = atomic_load_explicit(&h->seq, memory_order_acquire) & ~1u;
		buf = atomic_load_explicit(&h->buf, memory_order_relaxed);
		free(buf); // expected-warning {{[seqlint-seqcount-read-side-effect]}}
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&h->seq, memory_order_relaxed) != seq);
}

/* ---- correct ---- */

/* Locals and the caller's out-parameters; printing after the loop. */
struct pair {
	unsigned long a, b;
};

void ok_out_params(struct sample *s, struct pair *out, unsigned long *sum)
{
	unsigned seq;
	unsigned long a, b;

	do {
		seq = atomic_load_explicit(&s->seq, memory_order_acquire) & ~1u;
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		b = atomic_load_explicit(&s->b, memory_order_relaxed);
		out->a = a;
		out->b = b;
		*sum = a + b;
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	printf("a=%lu b=%lu\n", a, b);
}

/* Counting retries in a local, reporting once afterwards. */
unsigned long ok_count_retries(struct sample *s)
{
	unsigned seq, tries = 0;
	unsigned long a;

	do {
		tries++;
		seq = atomic_load_explicit(&s->seq, memory_order_acquire) & ~1u;
		a = atomic_load_explicit(&s->a, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	if (tries > 100)
		fprintf(stderr, "reader starved: %u tries\n", tries);
	return a;
}

/* The begin written with a helper macro; a local array filled in a loop. */
unsigned long ok_local_array(struct sample *s)
{
	unsigned seq;
	unsigned long v[2];
	int i;

	do {
		seq = BEGIN(s);
		for (i = 0; i < 2; i++)
			v[i] = atomic_load_explicit(i ? &s->b : &s->a, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq);
	return v[0] ^ v[1];
}
