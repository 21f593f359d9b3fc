// access-plain-in-read-section: in C11 code, plain loads of the protected data
// inside a read section race with the writer: undefined behaviour, retried or not.
// RUN: %clang_plugin -I%src_root/runtime/include -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
#include <stdatomic.h>
#include <stdbool.h>
#include <seqlint/seqcount.h>

struct pair {
	atomic_uint seq;
	unsigned long a;
	unsigned long b;
};

/* Open-coded C11 reader: the counter is atomic, the data is read plainly. */
unsigned long c11_reader(struct pair *p)
{
	unsigned seq;
	unsigned long a, b;

	do {
		seq = atomic_load_explicit(&p->seq, memory_order_acquire) & ~1u;
		a = p->a; // expected-warning {{plain load of 'p->a' inside a read section of 'p->seq': the writer stores to it concurrently, a data race and undefined behaviour in C11 even though the read is retried; read it with atomic_load_explicit(&p->a, memory_order_relaxed) [seqlint-access-plain-in-read-section]}}
		b = p->b; // expected-warning {{plain load of 'p->b'}}
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&p->seq, memory_order_relaxed) != seq);
	return a + b;
}

/* GNU builtins: same rule, the suggested fix uses the builtin. */
struct gpair {
	unsigned seq;
	long v;
};
long gnu_reader(struct gpair *p)
{
	unsigned seq;
	long v;

	do {
		seq = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE) & ~1u;
		v = p->v; // expected-warning {{read it with __atomic_load_n(&p->v, __ATOMIC_RELAXED)}}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&p->seq, __ATOMIC_RELAXED) != seq);
	return v;
}

/* seqlint's runtime is C11 underneath: its sections need atomic data loads. */
struct conf {
	seqlint_seqcount_t sc;
	int mode;
	int level;
};
int runtime_reader(struct conf *c)
{
	unsigned seq;
	int m, l;

	do {
		seq = seqlint_read_begin(&c->sc);
		m = c->mode; // expected-warning {{read it with seqlint_read_once(c->mode)}}
		l = c->level + m; // expected-warning {{plain load of 'c->level'}}
	} while (seqlint_read_retry(&c->sc, seq));
	return l;
}

/* A global protected by an _Atomic counter. */
_Atomic unsigned g_seq;
double gval;
double global_reader(void)
{
	unsigned s;
	double v;

	do {
		s = g_seq & ~1u;
		v = gval; // expected-warning {{plain load of 'gval'}}
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&g_seq, memory_order_relaxed) != s);
	return v;
}
