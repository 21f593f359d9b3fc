// Modelled on: Linux include/linux/seqlock.h latch documentation and
//   kernel/time/sched_clock.c:update_clock_read_data()/sched_clock_noinstr()
//   (raw_write_seqcount_latch / raw_read_seqcount_latch, Linux 6.12), as C11 in a
//   user-space timestamp library.
// Correct latch, not a plain seqcount: like raw_write_seqcount_latch() (smp_wmb(); seq++;
// smp_wmb()) the writer bumps `sc` with a release RMW followed by a release fence
// between rewriting the odd and the even copy, so at any time one copy is stable. Readers
// never wait for an even value: `s & 1` selects the copy that is not being written,
// and the acquire fence plus recheck detect a writer that moved on meanwhile. Readers
// are never blocked, even in a signal handler that interrupted the writer.
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>

struct clock_read_data {
	_Atomic uint64_t epoch_ns;
	_Atomic uint64_t epoch_cyc;
	_Atomic uint32_t mult;
	_Atomic uint32_t shift;
};

struct clock_data {
	atomic_uint sc;
	struct clock_read_data read_data[2];
};

static void crd_store(struct clock_read_data *d, const uint64_t v[2], uint32_t mult,
		      uint32_t shift)
{
	atomic_store_explicit(&d->epoch_ns, v[0], memory_order_relaxed);
	atomic_store_explicit(&d->epoch_cyc, v[1], memory_order_relaxed);
	atomic_store_explicit(&d->mult, mult, memory_order_relaxed);
	atomic_store_explicit(&d->shift, shift, memory_order_relaxed);
}

void update_clock_read_data(struct clock_data *cd, const uint64_t v[2], uint32_t mult,
			    uint32_t shift)
{
	/* update the backup (odd) copy with the new data */
	crd_store(&cd->read_data[1], v, mult, shift);

	/* steer readers towards the odd copy */
	atomic_fetch_add_explicit(&cd->sc, 1, memory_order_release);
	atomic_thread_fence(memory_order_release);

	/* now it is safe to update the normal (even) copy */
	crd_store(&cd->read_data[0], v, mult, shift);

	/* switch readers back to the even copy */
	atomic_fetch_add_explicit(&cd->sc, 1, memory_order_release);
	atomic_thread_fence(memory_order_release);
}

uint64_t clock_ns(struct clock_data *cd, uint64_t cyc)
{
	const struct clock_read_data *rd;
	uint64_t ns_base, cyc_base;
	uint32_t mult, shift;
	unsigned int s;

	do {
		s = atomic_load_explicit(&cd->sc, memory_order_acquire);
		rd = &cd->read_data[s & 1];
		ns_base = atomic_load_explicit(&rd->epoch_ns, memory_order_relaxed);
		cyc_base = atomic_load_explicit(&rd->epoch_cyc, memory_order_relaxed);
		mult = atomic_load_explicit(&rd->mult, memory_order_relaxed);
		shift = atomic_load_explicit(&rd->shift, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&cd->sc, memory_order_relaxed) != s);

	return ns_base + (((cyc - cyc_base) * mult) >> shift);
}
