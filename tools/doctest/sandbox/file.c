/* file.c of the docs' commands: an open-coded C11 writer without a release
 * fence after the odd increment (tools/doctest). */
#include <stdatomic.h>

struct sample {
	atomic_uint seq;
	atomic_int a, b;
};

void update(struct sample *s, int a, int b)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	/* The next line is line 14. */
	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	atomic_store_explicit(&s->a, a, memory_order_relaxed);
	atomic_store_explicit(&s->b, b, memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}
