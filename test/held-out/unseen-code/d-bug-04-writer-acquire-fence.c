// Modelled on: DPDK lib/eal/include/rte_seqcount.h:rte_seqcount_write_begin() (relaxed
//   store of sn + 1, then rte_atomic_thread_fence(__ATOMIC_RELEASE)) and
//   lib/eal/include/rte_seqlock.h:rte_seqlock_write_lock() (DPDK 22.11).
// FLAGS: @dpdk@
// A timer-adjust record (TSC frequency, offset, multiplier) shared with worker lcores,
// guarded by a word called `state`. The hand-rolled write begin "mirrors" the reader
// and uses an acquire fence after the odd store. An acquire fence orders earlier LOADS
// against later accesses; it gives the odd store no ordering against the data stores,
// so a worker can see the new tsc_hz with the old even `state`. It must be a release
// fence (or rte_smp_wmb()).
#include <stdint.h>
#include <stdbool.h>
#include <rte_atomic.h>
#include <rte_spinlock.h>
#include <rte_pause.h>
#include <rte_branch_prediction.h>

struct clk_adj {
	uint32_t state;
	rte_spinlock_t lock;
	uint64_t tsc_hz;
	int64_t tsc_offset;
	uint32_t mult;
	uint32_t shift;
};

void
clk_adj_update(struct clk_adj *a, uint64_t hz, int64_t off, uint32_t mult, uint32_t shift)
{
	uint32_t s;

	rte_spinlock_lock(&a->lock);
	s = a->state + 1;
	__atomic_store_n(&a->state, s, __ATOMIC_RELAXED);
	rte_atomic_thread_fence(__ATOMIC_ACQUIRE); /* EXPECT: seqlint-barrier-wrong-kind */

	a->tsc_hz = hz;
	a->tsc_offset = off;
	a->mult = mult;
	a->shift = shift;

	__atomic_store_n(&a->state, s + 1, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&a->lock);
}

uint64_t
clk_adj_ns(const struct clk_adj *a, uint64_t tsc)
{
	uint32_t s;
	uint64_t ns;

	for (;;) {
		s = __atomic_load_n(&a->state, __ATOMIC_ACQUIRE);
		if (unlikely(s & 1)) {
			rte_pause();
			continue;
		}
		ns = (uint64_t)((int64_t)((tsc * a->mult) >> a->shift) + a->tsc_offset);
		rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&a->state, __ATOMIC_RELAXED) == s)
			return ns;
	}
}
