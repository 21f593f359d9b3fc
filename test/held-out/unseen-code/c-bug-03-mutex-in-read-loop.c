// Modelled on: msullivan/rmc-compiler case_studies/seqlock_c11.hpp (C11 SeqLock) combined
//   with the "lockless first, then lock" reader of Linux include/linux/seqlock.h
//   read_seqbegin_or_lock(), hand-rolled with a pthread mutex in C11.
// A routing snapshot guarded by an odd/even word `phase`; writers hold rt->wlock. After
// three failed optimistic passes the reader takes the writer mutex inside the read loop
// and releases it only after the loop. The loop still rechecks `phase` against a begin
// value loaded before the mutex was taken: if a writer finished in between, the
// recheck fails again and pthread_mutex_lock() is called on a mutex this thread holds.
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>
#include <pthread.h>

#define RT_SLOTS	16

struct rt_snapshot {
	atomic_ulong phase;
	pthread_mutex_t wlock;
	_Atomic uint32_t prefix[RT_SLOTS];
	_Atomic uint32_t nexthop[RT_SLOTS];
	_Atomic uint32_t nr;
};

void rt_copy(struct rt_snapshot *rt, uint32_t *prefix, uint32_t *nexthop, uint32_t *nr)
{
	unsigned long p;
	bool locked = false;
	int tries = 0;
	uint32_t i, n;

	do {
		p = atomic_load_explicit(&rt->phase, memory_order_acquire) & ~1UL;
		if (++tries > 3) {
			pthread_mutex_lock(&rt->wlock); /* EXPECT: seqlint-seqcount-read-side-effect */
			locked = true;
		}
		n = atomic_load_explicit(&rt->nr, memory_order_relaxed);
		if (n > RT_SLOTS)
			n = RT_SLOTS;
		for (i = 0; i < n; i++) {
			prefix[i] = atomic_load_explicit(&rt->prefix[i], memory_order_relaxed);
			nexthop[i] = atomic_load_explicit(&rt->nexthop[i], memory_order_relaxed);
		}
		atomic_thread_fence(memory_order_acquire);
	} while (atomic_load_explicit(&rt->phase, memory_order_relaxed) != p);

	if (locked)
		pthread_mutex_unlock(&rt->wlock);
	*nr = n;
}

void rt_set(struct rt_snapshot *rt, uint32_t slot, uint32_t prefix, uint32_t nexthop)
{
	unsigned long p;

	pthread_mutex_lock(&rt->wlock);
	p = atomic_load_explicit(&rt->phase, memory_order_relaxed);
	atomic_store_explicit(&rt->phase, p + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&rt->prefix[slot], prefix, memory_order_relaxed);
	atomic_store_explicit(&rt->nexthop[slot], nexthop, memory_order_relaxed);
	if (slot >= atomic_load_explicit(&rt->nr, memory_order_relaxed))
		atomic_store_explicit(&rt->nr, slot + 1, memory_order_relaxed);
	atomic_store_explicit(&rt->phase, p + 2, memory_order_release);
	pthread_mutex_unlock(&rt->wlock);
}
