// Modelled on: the seqlock benchmark of the nidhugg model checker (read_seqbegin2() puts
//   atomic_thread_fence(memory_order_release) on the read side) and H. Boehm's C11
//   seqlock reader (acquire fence before the recheck), C11.
// A user-space TSC calibration page (mult/shift/offset) published by a calibration
// thread under an odd/even word `era`. The reader puts a release fence between its data
// loads and the recheck of `era`. A release fence only orders earlier accesses before
// LATER STORES; there is no store after it, so the recheck load may still be satisfied
// before the data loads. It must be an acquire fence.
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>

struct tsc_calib {
	atomic_uint era;
	_Atomic uint32_t mult;
	_Atomic uint32_t shift;
	_Atomic uint64_t tsc_base;
	_Atomic uint64_t ns_base;
};

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

uint64_t calib_now_ns(struct tsc_calib *c)
{
	uint64_t tsc_base, ns_base, tsc;
	uint32_t mult, shift;
	unsigned int e;

	do {
		e = atomic_load_explicit(&c->era, memory_order_acquire);
		mult = atomic_load_explicit(&c->mult, memory_order_relaxed);
		shift = atomic_load_explicit(&c->shift, memory_order_relaxed);
		tsc_base = atomic_load_explicit(&c->tsc_base, memory_order_relaxed);
		ns_base = atomic_load_explicit(&c->ns_base, memory_order_relaxed);
		atomic_thread_fence(memory_order_release); /* EXPECT: seqlint-barrier-wrong-kind */
	} while ((e & 1) || atomic_load_explicit(&c->era, memory_order_relaxed) != e);

	tsc = rdtsc();
	return ns_base + (((tsc - tsc_base) * mult) >> shift);
}

void calib_update(struct tsc_calib *c, uint32_t mult, uint32_t shift, uint64_t tsc_base,
		  uint64_t ns_base)
{
	unsigned int e = atomic_load_explicit(&c->era, memory_order_relaxed);

	atomic_store_explicit(&c->era, e + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&c->mult, mult, memory_order_relaxed);
	atomic_store_explicit(&c->shift, shift, memory_order_relaxed);
	atomic_store_explicit(&c->tsc_base, tsc_base, memory_order_relaxed);
	atomic_store_explicit(&c->ns_base, ns_base, memory_order_relaxed);
	atomic_store_explicit(&c->era, e + 2, memory_order_release);
}
