// RUN: %clang_plugin -fplugin-arg-seqlint-checks=mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * A ring consumer that does not test the producer's index directly: it
 * counts the entries between that index and its own position
 * (`entries = prod_tail - cons_head`), bounds its burst by the count, and
 * reads the slots from its own position on. The count is the test; nothing
 * orders the index load before the slot loads unless a read barrier, an
 * acquire or a full-barrier compare-and-swap does.
 *
 * Modelled on DPDK lib/ring/rte_ring_generic_pvt.h:__rte_ring_move_cons_head()
 * and rte_ring_elem_pvt.h:__rte_ring_do_dequeue_elem() (DPDK 23.11; the
 * single-consumer read barrier came with "ring: enforce reading tail before
 * slots", 2019), rewritten with other names. The producer is another lcore.
 */
#include <stdint.h>

/* DPDK's barrier macros, in their shape (known to seqlint by their names). */
#define rte_compiler_barrier()	__asm__ __volatile__("" ::: "memory")
#if defined(__aarch64__)
#define rte_smp_rmb()		__asm__ __volatile__("dmb ishld" ::: "memory")
#else
#define rte_smp_rmb()		rte_compiler_barrier()
#endif

static inline int cas32(volatile uint32_t *dst, uint32_t exp, uint32_t src)
{
	return __sync_bool_compare_and_swap(dst, exp, src);
}

struct pos_pair {
	volatile uint32_t head;
	volatile uint32_t tail;
};

struct msg_ring {
	uint32_t size, mask;
	struct pos_pair prod;
	struct pos_pair cons;
	void *slot[1024];
};

/* Inline: the count, the burst, no barrier. */
unsigned int ring_take_inline(struct msg_ring *r, void **out, unsigned int n)
{
	uint32_t head = r->cons.head;
	uint32_t avail = r->prod.tail - head; // expected-warning {{'r->slot[]' is read after 'r->prod.tail' is loaded and tested, with no read barrier}}
	unsigned int i;

	if (n > avail)
		n = avail;
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		out[i] = r->slot[(head + i) & r->mask];
	r->cons.head = head + n;
	r->cons.tail = head + n;
	return n;
}

/* The same with the read barrier after the count: ordered. */
unsigned int ring_take_inline_rmb(struct msg_ring *r, void **out, unsigned int n)
{
	uint32_t head = r->cons.head;
	uint32_t avail = r->prod.tail - head;
	unsigned int i;

	if (n > avail)
		n = avail;
	if (n == 0)
		return 0;
	rte_smp_rmb();
	for (i = 0; i < n; i++)
		out[i] = r->slot[(head + i) & r->mask];
	r->cons.head = head + n;
	r->cons.tail = head + n;
	return n;
}

/* The count from an acquire load (the C11 ring): ordered. */
unsigned int ring_take_acquire(struct msg_ring *r, void **out, unsigned int n)
{
	uint32_t head = r->cons.head;
	uint32_t avail = __atomic_load_n(&r->prod.tail, __ATOMIC_ACQUIRE) - head;
	unsigned int i;

	if (n > avail)
		n = avail;
	for (i = 0; i < n; i++)
		out[i] = r->slot[(head + i) & r->mask];
	r->cons.tail = head + n;
	return n;
}

/* The head moved in a helper that returns the count through a pointer:
 * a claim loop whose single-consumer branch has no barrier. */
static inline unsigned int claim_sc(struct msg_ring *r, unsigned int n,
				    uint32_t *old_head, uint32_t *entries)
{
	*old_head = r->cons.head;
	rte_smp_rmb();
	*entries = r->prod.tail - *old_head;
	if (n > *entries)
		n = *entries;
	if (n == 0)
		return 0;
	r->cons.head = *old_head + n;
	return n;
}

unsigned int ring_take_sc(struct msg_ring *r, void **out, unsigned int n)
{
	uint32_t head, entries, idx, i;

	n = claim_sc(r, n, &head, &entries); // expected-warning {{'r->slot[]' is read after 'r->prod.tail' is loaded and tested, with no read barrier}}
	if (n == 0)
		return 0;
	idx = head & r->mask;
	for (i = 0; i < n; i++, idx = (idx + 1) & r->mask)
		out[i] = r->slot[idx];
	r->cons.tail = head + n;
	return n;
}

/* Fixed: a barrier after the claim on the single-consumer path, a full
 * barrier compare-and-swap on the multi-consumer path. */
static inline unsigned int claim(struct msg_ring *r, int single, unsigned int n,
				 uint32_t *old_head, uint32_t *entries)
{
	int ok;

	do {
		*old_head = r->cons.head;
		rte_smp_rmb();
		*entries = r->prod.tail - *old_head;
		if (n > *entries)
			n = *entries;
		if (n == 0)
			return 0;
		if (single) {
			r->cons.head = *old_head + n;
			rte_smp_rmb();
			ok = 1;
		} else {
			ok = cas32(&r->cons.head, *old_head, *old_head + n);
		}
	} while (!ok);
	return n;
}

unsigned int ring_take(struct msg_ring *r, int single, void **out, unsigned int n)
{
	uint32_t head, entries, idx, i;

	n = claim(r, single, n, &head, &entries);
	if (n == 0)
		return 0;
	idx = head & r->mask;
	for (i = 0; i < n; i++, idx = (idx + 1) & r->mask)
		out[i] = r->slot[idx];
	r->cons.tail = head + n;
	return n;
}

/* A difference that is no count against the position the slots are read
 * from: a statistic, then a dump of every slot from 0. */
unsigned int ring_lag_dump(struct msg_ring *r, void **out, uint32_t base)
{
	uint32_t lag = r->prod.tail - base;
	unsigned int i;

	if (lag > r->size)
		return 0;
	for (i = 0; i < r->size; i++)
		out[i] = r->slot[i];
	return lag;
}

/* A time difference against a slot's own content is no count of entries:
 * drivers/net/ethernet/intel/e1000/e1000_main.c:e1000_clean_tx_irq()'s hang
 * check (Linux 6.12) compares the tick counter with the time stamp kept in
 * the ring's bookkeeping slot, then prints the same stamp. */
extern volatile unsigned long ticks;
#define ticks_after(a, b)	((long)((b) - (a)) < 0)

struct tx_info {
	unsigned long stamp;
	unsigned int watch;
};

struct tx_book {
	struct tx_info info[256];
	unsigned int next_to_clean;
};

extern void report_hang(unsigned long stamp, unsigned int idx);

void tx_clean(struct tx_book *b, unsigned int done, unsigned int timeout)
{
	unsigned int i = (b->next_to_clean + done) & 255, eop;

	__atomic_store_n(&b->next_to_clean, i, __ATOMIC_RELEASE);
	eop = b->info[i].watch;
	if (b->info[eop].stamp && ticks_after(ticks, b->info[eop].stamp + timeout))
		report_hang(b->info[eop].stamp, eop);
}
