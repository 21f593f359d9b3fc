// access-plain-in-read-section: C11 readers that load the data atomically,
// and plain loads that are not data of an open section.
// RUN: %clang_plugin -I%src_root/runtime/include -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <stdatomic.h>
#include <stdbool.h>
#include <seqlint/seqcount.h>

struct pair {
	atomic_uint seq;
	atomic_ulong a;
	unsigned long b;
	const int id;
	unsigned long limit;
};

/* Relaxed atomic data loads: no race. */
unsigned long c11_reader(struct pair *p)
{
	unsigned seq;
	unsigned long a, b;

	do {
		seq = atomic_load_explicit(&p->seq, memory_order_acquire) & ~1u;
		a = atomic_load_explicit(&p->a, memory_order_relaxed);
		b = __atomic_load_n(&p->b, __ATOMIC_RELAXED);
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&p->seq, memory_order_relaxed) != seq);
	return a + b;
}

/* const data is never written; locals are not shared; the plain load after
 * the retry is outside the section. */
unsigned long c11_reader_locals(struct pair *p, unsigned long *out)
{
	unsigned seq;
	unsigned long a, tmp[2];

	do {
		seq = atomic_load_explicit(&p->seq, memory_order_acquire) & ~1u;
		a = atomic_load_explicit(&p->a, memory_order_relaxed) + p->id;
		tmp[0] = a;
		tmp[1] = tmp[0] * 2;
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&p->seq, memory_order_relaxed) != seq);
	return tmp[1] + p->limit;
}

/* The runtime's own copy helpers read the data with relaxed atomics. */
struct conf {
	seqlint_seqcount_t sc;
	int mode;
};
int runtime_reader(struct conf *c)
{
	unsigned seq;
	int m;

	do {
		seq = seqlint_read_begin(&c->sc);
		m = seqlint_read_once(c->mode);
	} while (seqlint_read_retry(&c->sc, seq));
	return m;
}

/* Writers read the data plainly: they are the only writer. */
void c11_writer(struct pair *p, unsigned long b)
{
	unsigned s = atomic_load_explicit(&p->seq, memory_order_relaxed);

	atomic_store_explicit(&p->seq, s + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	__atomic_store_n(&p->b, p->b + b, __ATOMIC_RELAXED);
	atomic_store_explicit(&p->seq, s + 2, memory_order_release);
}
