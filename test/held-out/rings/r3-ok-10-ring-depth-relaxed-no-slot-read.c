// Modelled on: DPDK lib/ring/rte_ring_c11_pvt.h multi-producer enqueue (reserve, fill,
//              wait for our turn, release the tail) and rte_ring.h:rte_ring_count()
//              (a plain count, no slot reads) (DPDK 22.11)
// Pattern: a C11 MPSC work queue whose consumer pops with an acquire load of the
//   producers' committed index, while a monitoring function reads the same index
//   with memory_order_relaxed to report the queue depth.
// Correct: the relaxed load in queue_depth() feeds only arithmetic and a statistic.
// No slot is read through it, so nothing needs to be ordered after it, and a stale
// depth is harmless. The pop path, which does read slots, uses acquire. The same
// index is loaded with acquire in one place and relaxed in another, and the relaxed
// load is right.
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define QSIZE	4096

struct work { void (*fn)(void *); void *arg; };

struct wq {
	_Atomic uint32_t reserve;	/* producers claim slots here */
	_Atomic uint32_t commit;	/* producers publish here, in order */
	uint32_t head;			/* consumer-owned */
	_Atomic uint32_t max_depth;
	struct work slot[QSIZE];
};

bool wq_push(struct wq *q, void (*fn)(void *), void *arg)
{
	uint32_t t = atomic_load_explicit(&q->reserve, memory_order_relaxed);

	do {
		if (t - __atomic_load_n(&q->head, __ATOMIC_ACQUIRE) >= QSIZE)
			return false;
	} while (!atomic_compare_exchange_weak_explicit(&q->reserve, &t, t + 1,
							memory_order_relaxed,
							memory_order_relaxed));
	q->slot[t % QSIZE] = (struct work){ fn, arg };
	/* publish in reservation order; acquire so that the earlier producers'
	 * slots are covered by our release too */
	while (atomic_load_explicit(&q->commit, memory_order_acquire) != t)
		;
	atomic_store_explicit(&q->commit, t + 1, memory_order_release);
	return true;
}

int wq_run(struct wq *q, int budget)
{
	uint32_t c = atomic_load_explicit(&q->commit, memory_order_acquire);
	int n = 0;

	while (q->head != c && n < budget) {
		struct work w = q->slot[q->head % QSIZE];

		__atomic_store_n(&q->head, q->head + 1, __ATOMIC_RELEASE);
		w.fn(w.arg);
		n++;
	}
	return n;
}

uint32_t queue_depth(struct wq *q)
{
	uint32_t c = atomic_load_explicit(&q->commit, memory_order_relaxed);
	uint32_t h = __atomic_load_n(&q->head, __ATOMIC_RELAXED);
	uint32_t d = c - h, m = atomic_load_explicit(&q->max_depth, memory_order_relaxed);

	if (d > m)
		atomic_store_explicit(&q->max_depth, d, memory_order_relaxed);
	return d;
}
