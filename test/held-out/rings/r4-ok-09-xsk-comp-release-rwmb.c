// Modelled on: libbpf tools/lib/bpf/xsk.h:xsk_ring_cons__comp_addr(), xsk_ring_cons__peek(),
//              xsk_ring_cons__release() and libbpf_util.h:libbpf_smp_rwmb() (Linux 5.4-5.10
//              tools/lib/bpf); the TX completion handling of samples/bpf/xdpsock_user.c
// Pattern: AF_XDP completion ring consumer that reads the completed frame addresses and
//   then gives the slots back to the kernel. This file is the correct form, as the
//   library had it: libbpf_smp_rwmb() (read-to-write) before the consumer store.
// The other side is the kernel. The completion ring is kernel memory mapped with
// mmap(fd, XDP_UMEM_PGOFF_COMPLETION_RING). The kernel reads the consumer word and then
// overwrites the slots below it with new completions. The process reads the addresses
// (loads) and then stores the new consumer word: this is load-then-store, and a write
// barrier does not order earlier loads against later stores. On arm64 "dmb ishst"
// lets the consumer store become visible before the slot loads complete, and the
// process can read an address the kernel has already replaced with a store-store
// barrier. The library uses its read-to-write barrier here (libbpf_smp_rwmb: "hinders stores from being observed
// before older loads"); today it is a store-release. The peek side (rmb after the
// producer load) is correct.
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#if defined(__i386__) || defined(__x86_64__)
# define libbpf_smp_rmb()	__asm__ __volatile__("" : : : "memory")
# define libbpf_smp_wmb()	__asm__ __volatile__("" : : : "memory")
/* hinders stores from being observed before older loads */
# define libbpf_smp_rwmb()	__asm__ __volatile__("" : : : "memory")
#elif defined(__aarch64__)
# define libbpf_smp_rmb()	__asm__ __volatile__("dmb ishld" : : : "memory")
# define libbpf_smp_wmb()	__asm__ __volatile__("dmb ishst" : : : "memory")
# define libbpf_smp_rwmb()	__asm__ __volatile__("dmb ish" : : : "memory")
#else
# define libbpf_smp_rmb()	__sync_synchronize()
# define libbpf_smp_wmb()	__sync_synchronize()
# define libbpf_smp_rwmb()	__sync_synchronize()
#endif

struct xsk_ring_cons {
	uint32_t cached_prod;
	uint32_t cached_cons;
	uint32_t mask;
	uint32_t size;
	uint32_t *producer;		/* mmap()ed, written by the kernel */
	uint32_t *consumer;		/* mmap()ed, written by us */
	void *ring;
};

struct frame_pool {
	uint64_t *free;			/* process-private stack of free UMEM frames */
	uint32_t nfree;
	uint32_t outstanding_tx;
};

static inline const uint64_t *comp_addr(const struct xsk_ring_cons *comp, uint32_t idx)
{
	const uint64_t *addrs = (const uint64_t *)comp->ring;

	return &addrs[idx & comp->mask];
}

static inline uint32_t comp_peek(struct xsk_ring_cons *c, uint32_t nb, uint32_t *idx)
{
	uint32_t entries = c->cached_prod - c->cached_cons;

	if (entries == 0) {
		c->cached_prod = *(volatile uint32_t *)c->producer;
		entries = c->cached_prod - c->cached_cons;
	}
	if (entries > nb)
		entries = nb;
	if (entries > 0) {
		/* the producer index before the slots */
		libbpf_smp_rmb();
		*idx = c->cached_cons;
		c->cached_cons += entries;
	}
	return entries;
}

static inline void comp_release(struct xsk_ring_cons *c, uint32_t nb)
{
	/* the slot reads before the kernel may reuse the slots */
	libbpf_smp_rwmb();
	*(volatile uint32_t *)c->consumer = *c->consumer + nb;
}

unsigned int complete_tx(struct xsk_ring_cons *comp, struct frame_pool *pool)
{
	uint32_t idx = 0, n, i;

	if (!pool->outstanding_tx)
		return 0;
	n = comp_peek(comp, 64, &idx);
	for (i = 0; i < n; i++)
		pool->free[pool->nfree++] = *comp_addr(comp, idx + i);
	if (n) {
		comp_release(comp, n);
		pool->outstanding_tx -= n;
	}
	return n;
}
