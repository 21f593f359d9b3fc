// Modelled on: DPDK lib/ring/rte_ring_c11_pvt.h:__rte_ring_move_prod_head(),
//   __rte_ring_move_cons_head(), __rte_ring_update_tail() and rte_ring_elem_pvt.h
//   enqueue/dequeue (DPDK 22.11 with the "ring: establish safe partial order" fix).
// FLAGS: @dpdk@
// Correct release/acquire message passing that resembles a seqcount: a producer loads
// prod.head, later compares it again (CAS), writes slots, waits until prod.tail equals
// its old head and release-stores the new tail; the consumer acquires prod.tail, reads
// the slots and release-stores cons.tail. Heads and tails only grow, nobody reads data
// "between" two loads of the same index, and every slot is published by the tail
// store-release / load-acquire pair.
#include <stdint.h>
#include <stdbool.h>
#include <rte_atomic.h>
#include <rte_pause.h>
#include <rte_branch_prediction.h>

struct mini_headtail {
	uint32_t head;
	uint32_t tail;
};

struct mini_ring {
	uint32_t size, mask, capacity;
	struct mini_headtail prod;
	struct mini_headtail cons;
	void *slot[];
};

static inline void
mini_wait_tail(const uint32_t *tail, uint32_t expected)
{
	while (__atomic_load_n(tail, __ATOMIC_RELAXED) != expected)
		rte_pause();
}

unsigned int
mini_ring_mp_enqueue(struct mini_ring *r, void * const *objs, unsigned int n)
{
	uint32_t old_head, new_head, cons_tail, free_entries, i;
	int success;

	old_head = __atomic_load_n(&r->prod.head, __ATOMIC_ACQUIRE);
	do {
		cons_tail = __atomic_load_n(&r->cons.tail, __ATOMIC_ACQUIRE);
		free_entries = r->capacity + cons_tail - old_head;
		if (unlikely(n > free_entries))
			return 0;
		new_head = old_head + n;
		/* on failure, old_head is updated */
		success = __atomic_compare_exchange_n(&r->prod.head, &old_head, new_head, 0,
						      __ATOMIC_RELEASE, __ATOMIC_ACQUIRE);
	} while (unlikely(success == 0));

	for (i = 0; i < n; i++)
		r->slot[(old_head + i) & r->mask] = objs[i];

	/* earlier enqueues that reserved before us must publish first */
	mini_wait_tail(&r->prod.tail, old_head);
	__atomic_store_n(&r->prod.tail, new_head, __ATOMIC_RELEASE);
	return n;
}

unsigned int
mini_ring_sc_dequeue(struct mini_ring *r, void **objs, unsigned int n)
{
	uint32_t old_head, prod_tail, entries, i;

	old_head = r->cons.head;
	prod_tail = __atomic_load_n(&r->prod.tail, __ATOMIC_ACQUIRE);
	entries = prod_tail - old_head;
	if (n > entries)
		n = entries;
	if (unlikely(n == 0))
		return 0;
	r->cons.head = old_head + n;

	for (i = 0; i < n; i++)
		objs[i] = r->slot[(old_head + i) & r->mask];

	__atomic_store_n(&r->cons.tail, old_head + n, __ATOMIC_RELEASE);
	return n;
}
