// Modelled on: bdemsky/cdschecker-benchmarks seqlock/seqlock.h and Dat3M
//   benchmarks/locks/seqlock-6.c (C11 seqlock: relaxed CAS to enter, release data
//   store, release fetch_add to leave; acquire begin, acquire data load, relaxed
//   recheck), extended to several fields as the LWN article's "load-acquire/
//   store-release for all fields" variant.
// Correct without any fence: every data field is stored with RELEASE (after the relaxed
// CAS that makes `state` odd) and loaded with ACQUIRE. If a reader's data load sees any
// value of a writer's section, that writer's odd CAS happens-before the reader's
// recheck, which therefore cannot match a pre-write even value; an even begin value
// acquired from the leaving fetch_add makes the whole section visible. A tool demanding
// a fence right after the odd increment would be wrong here.
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

struct buf_desc {
	atomic_int state;
	_Atomic(void *) base;
	_Atomic size_t len;
	_Atomic uint32_t flags;
};

static inline void cpu_pause(void)
{
	__builtin_ia32_pause();
}

void buf_desc_read(struct buf_desc *l, void **base, size_t *len, uint32_t *flags)
{
	for (;;) {
		int old = atomic_load_explicit(&l->state, memory_order_acquire);

		if (old % 2 == 1) {
			cpu_pause();
			continue;
		}
		*base = atomic_load_explicit(&l->base, memory_order_acquire);
		*len = atomic_load_explicit(&l->len, memory_order_acquire);
		*flags = atomic_load_explicit(&l->flags, memory_order_acquire);
		if (atomic_load_explicit(&l->state, memory_order_relaxed) == old)
			return;
	}
}

void buf_desc_write(struct buf_desc *l, void *base, size_t len, uint32_t flags)
{
	for (;;) {
		int old = atomic_load_explicit(&l->state, memory_order_relaxed);

		if (old % 2 == 1) {
			cpu_pause();
			continue;
		}
		if (atomic_compare_exchange_strong_explicit(&l->state, &old, old + 1,
							    memory_order_relaxed,
							    memory_order_relaxed))
			break;
	}

	atomic_store_explicit(&l->base, base, memory_order_release);
	atomic_store_explicit(&l->len, len, memory_order_release);
	atomic_store_explicit(&l->flags, flags, memory_order_release);
	atomic_fetch_add_explicit(&l->state, 1, memory_order_release);
}
