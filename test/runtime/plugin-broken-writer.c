// The article's writer bug, open-coded in C11: the odd increment is a
// relaxed store with no write barrier (release fence) before the data
// stores, so a reader can see new data while the count still looks even.
// The plugin must flag the first unordered data store; the fixed twins below
// (a C11 release fence, the runtime's seqlint_smp_wmb(), the runtime API)
// must stay silent.  Notes attached to the warning are not checked here.
//
// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %runtime_cflags %s

#include <stdatomic.h>
#include <seqlint/seqcount.h>

struct sample {
	atomic_uint seq;
	atomic_ulong a, b;
};

void broken_write(struct sample *s, unsigned long a, unsigned long b)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	atomic_store_explicit(&s->a, a, memory_order_relaxed); // expected-warning-re {{{{.*}}[seqlint-seqcount-write-missing-barrier]}}
	atomic_store_explicit(&s->b, b, memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}

void fixed_write_fence(struct sample *s, unsigned long a, unsigned long b)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&s->a, a, memory_order_relaxed);
	atomic_store_explicit(&s->b, b, memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}

void fixed_write_wmb(struct sample *s, unsigned long a, unsigned long b)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	seqlint_smp_wmb();
	atomic_store_explicit(&s->a, a, memory_order_relaxed);
	atomic_store_explicit(&s->b, b, memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}

struct sample2 {
	seqlint_seqcount_t seq;
	unsigned long a, b;
};

void fixed_write_runtime(struct sample2 *s, unsigned long a, unsigned long b)
{
	seqlint_write_begin(&s->seq);
	seqlint_write_once(s->a, a);
	seqlint_write_once(s->b, b);
	seqlint_write_end(&s->seq);
}
