// Modelled on: libbpf tools/lib/bpf/xsk.h:xsk_cons_nb_avail(), xsk_ring_cons__peek(),
//              xsk_ring_cons__rx_desc(), xsk_ring_cons__release() and libbpf_util.h
//              (Linux 5.4-5.10 tools/lib/bpf; the same code moved to libxdp's xsk.h)
// Pattern: AF_XDP RX ring consumer whose "peek" refreshes its cached copy of the
//   kernel's producer index with a plain load. This file is the correct form, as the
//   library had it: libbpf_smp_rmb() in peek, after the helper's load, before any
//   descriptor is handed out ("do not speculatively read the data before we have
//   received the packet buffers from the ring").
// The other side is the kernel (or the NIC driver's zero-copy path). The RX ring is
// kernel memory the process mapped with mmap(fd, XDP_PGOFF_RX_RING): a producer word, a
// consumer word and an array of struct xdp_desc. The kernel writes descriptors and
// then the producer word (smp_store_release in xskq_prod_submit). The process loads
// the producer word and then reads the descriptors below it, so the producer load must
// be ordered before the descriptor loads. The release of consumed entries uses the
// library's read-to-write barrier and is correct.
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

struct xdp_desc { uint64_t addr; uint32_t len; uint32_t options; };

struct xsk_ring_cons {
	uint32_t cached_prod;
	uint32_t cached_cons;
	uint32_t mask;
	uint32_t size;
	uint32_t *producer;		/* in the mmap()ed ring, written by the kernel */
	uint32_t *consumer;		/* in the mmap()ed ring, written by us */
	void *ring;
};

struct rx_stats { uint64_t pkts, bytes; };

static inline const struct xdp_desc *rx_desc(const struct xsk_ring_cons *rx, uint32_t idx)
{
	const struct xdp_desc *descs = (const struct xdp_desc *)rx->ring;

	return &descs[idx & rx->mask];
}

static inline uint32_t cons_nb_avail(struct xsk_ring_cons *r, uint32_t nb)
{
	uint32_t entries = r->cached_prod - r->cached_cons;

	if (entries == 0) {
		r->cached_prod = *(volatile uint32_t *)r->producer;
		entries = r->cached_prod - r->cached_cons;
	}
	return entries > nb ? nb : entries;
}

static inline uint32_t ring_cons_peek(struct xsk_ring_cons *cons, uint32_t nb, uint32_t *idx)
{
	uint32_t entries = cons_nb_avail(cons, nb);

	if (entries > 0) {
		/* the producer index before the descriptors */
		libbpf_smp_rmb();
		*idx = cons->cached_cons;
		cons->cached_cons += entries;
	}
	return entries;
}

static inline void ring_cons_release(struct xsk_ring_cons *cons, uint32_t nb)
{
	/* the descriptor reads before the kernel may reuse the slots */
	libbpf_smp_rwmb();
	*(volatile uint32_t *)cons->consumer = *cons->consumer + nb;
}

unsigned int rx_drain(struct xsk_ring_cons *rx, unsigned char *umem, struct rx_stats *st,
		      void (*deliver)(const unsigned char *frame, uint32_t len))
{
	uint32_t idx = 0, n, i;

	n = ring_cons_peek(rx, 64, &idx);
	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		const struct xdp_desc *d = rx_desc(rx, idx + i);

		deliver(umem + d->addr, d->len);
		st->bytes += d->len;
	}
	st->pkts += n;
	ring_cons_release(rx, n);
	return n;
}
