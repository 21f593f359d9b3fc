// Modelled on: DPDK lib/librte_ring/rte_ring_generic.h:__rte_ring_move_cons_head(),
//              rte_ring.h:__rte_ring_do_dequeue(), DEQUEUE_PTRS (DPDK 19.02)
// Shipped bug: "ring: enforce reading tail before slots" (85cffb2eccd9, 2019)
// The other side is a producer lcore (a different thread or process), which is not in
// this file. It writes object pointers into the slots and then, after rte_smp_wmb(),
// moves prod.tail. The consumer loads prod.tail to see how many entries there are,
// and then copies the slots. With several consumers (MC), the compare-and-set on
// cons.head is a full barrier and orders the tail load before the slot loads. With a
// single consumer (SC) nothing does. The rte_smp_rmb() in the loop only orders
// cons.head before prod.tail. On arm64 the slot loads could pass the tail load
// and return stale pointers. (Reported on an NXP DPAA2 board.)
#include <stdint.h>
#include <stddef.h>

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* rte_atomic.h stand-ins, same shapes as DPDK's */
#define rte_compiler_barrier()	__asm__ __volatile__("" ::: "memory")
#if defined(__aarch64__)
#define rte_smp_rmb()		__asm__ __volatile__("dmb ishld" ::: "memory")
#else
#define rte_smp_rmb()		rte_compiler_barrier()
#endif
static inline int rte_atomic32_cmpset(volatile uint32_t *dst, uint32_t exp, uint32_t src)
{
	return __sync_bool_compare_and_swap(dst, exp, src);
}

enum ring_behavior { RING_QUEUE_FIXED = 0, RING_QUEUE_VARIABLE };

struct ring_headtail {
	volatile uint32_t head;
	volatile uint32_t tail;
	uint32_t single;
};

struct mini_ring {
	uint32_t size, mask, capacity;
	struct ring_headtail prod __attribute__((aligned(64)));
	struct ring_headtail cons __attribute__((aligned(64)));
	void *slots[] __attribute__((aligned(64)));
};

/* rte_ring_generic.h:update_tail() for the consumer; not shown here. */
extern void ring_update_cons_tail(struct mini_ring *r, uint32_t old_val,
				  uint32_t new_val, unsigned int single);

static inline unsigned int
move_cons_head(struct mini_ring *r, unsigned int is_sc, unsigned int n,
	       enum ring_behavior behavior, uint32_t *old_head,
	       uint32_t *new_head, uint32_t *entries)
{
	unsigned int max = n;
	int success;

	do {
		n = max;
		*old_head = r->cons.head;

		/* cons.head before prod.tail; a no-op on x86 */
		rte_smp_rmb();

		*entries = r->prod.tail - *old_head; /* EXPECT: seqlint-mp-missing-barrier */
		if (n > *entries)
			n = (behavior == RING_QUEUE_FIXED) ? 0 : *entries;
		if (unlikely(n == 0))
			return 0;

		*new_head = *old_head + n;
		if (is_sc) {
			r->cons.head = *new_head;
			success = 1;
		} else {
			success = rte_atomic32_cmpset(&r->cons.head, *old_head,
						      *new_head);
		}
	} while (unlikely(success == 0));
	return n;
}

unsigned int
mini_ring_dequeue_burst(struct mini_ring *r, void **obj_table, unsigned int n,
			unsigned int *available)
{
	uint32_t cons_head, cons_next, entries;
	uint32_t idx, i;

	n = move_cons_head(r, r->cons.single, n, RING_QUEUE_VARIABLE,
			   &cons_head, &cons_next, &entries);
	if (n == 0)
		goto end;

	idx = cons_head & r->mask;
	if (likely(idx + n < r->size)) {
		for (i = 0; i < n; i++, idx++)
			obj_table[i] = r->slots[idx];
	} else {
		for (i = 0; idx < r->size; i++, idx++)
			obj_table[i] = r->slots[idx];
		for (idx = 0; i < n; i++, idx++)
			obj_table[i] = r->slots[idx];
	}
	ring_update_cons_tail(r, cons_head, cons_next, r->cons.single);
end:
	if (available != NULL)
		*available = entries - n;
	return n;
}
