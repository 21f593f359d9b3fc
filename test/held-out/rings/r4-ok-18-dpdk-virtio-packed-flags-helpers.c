// Modelled on: DPDK drivers/net/virtio/virtqueue.h:virtqueue_store_flags_packed(),
//              virtqueue_fetch_flags_packed(), desc_is_used(); virtio_rxtx_packed.c
//              receive and refill loops (DPDK 22.11); x86 barriers from
//              <rte_atomic.h> (rte_io_wmb/rte_io_rmb are compiler barriers on x86)
// Correct: the userspace virtio PMD in virtio-user mode. The packed ring is in hugepage
// memory that is shared (memfd + mmap) with a vhost-user backend in another process,
// which plays the device. All flags accesses go through two helpers:
// - store_flags(): on x86, or when the device is real hardware (!weak_barriers),
//   rte_io_wmb() then a plain store; elsewhere with weak barriers, a release store.
//   Either way the descriptor's addr/len/id stores are ordered before the flags store.
// - fetch_flags(): on x86, or for hardware, a plain load then rte_io_rmb(); elsewhere
//   an acquire load. Either way the flags load is ordered before the caller's id/len
//   loads.
// The barrier sits inside the helper in every branch, after the load or before the
// store, so the callers need none. On x86 both io barriers are compiler barriers (TSO
// keeps store->store and load->load order).
#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__)
#define RTE_ARCH_X86_64 1
#define rte_compiler_barrier()	__asm__ __volatile__("" : : : "memory")
#define rte_io_wmb()		rte_compiler_barrier()
#define rte_io_rmb()		rte_compiler_barrier()
#elif defined(__aarch64__)
#define rte_io_wmb()		__asm__ __volatile__("dmb oshst" : : : "memory")
#define rte_io_rmb()		__asm__ __volatile__("dmb oshld" : : : "memory")
#else
#define rte_io_wmb()		__sync_synchronize()
#define rte_io_rmb()		__sync_synchronize()
#endif

#define VRING_PACKED_DESC_F_AVAIL	(1u << 7)
#define VRING_PACKED_DESC_F_USED	(1u << 15)
#define VRING_DESC_F_WRITE		2u

struct vring_packed_desc { uint64_t addr; uint32_t len; uint16_t id; uint16_t flags; };

struct vq_packed {
	struct vring_packed_desc *ring;		/* shared with the backend process */
	uint16_t nentries;
	uint16_t used_cons_idx;
	uint16_t avail_idx;
	bool used_wrap_counter;
	uint16_t cached_flags;			/* AVAIL/USED bits for this lap */
	uint8_t weak_barriers;
	void **cookies;
	uint16_t nfree;
};

static inline void store_flags(struct vring_packed_desc *dp, uint16_t flags, uint8_t weak_barriers)
{
	if (weak_barriers) {
#ifdef RTE_ARCH_X86_64
		rte_io_wmb();
		dp->flags = flags;
#else
		__atomic_store_n(&dp->flags, flags, __ATOMIC_RELEASE);
#endif
	} else {
		rte_io_wmb();
		dp->flags = flags;
	}
}

static inline uint16_t fetch_flags(struct vring_packed_desc *dp, uint8_t weak_barriers)
{
	uint16_t flags;

	if (weak_barriers) {
#ifdef RTE_ARCH_X86_64
		flags = dp->flags;
		rte_io_rmb();
#else
		flags = __atomic_load_n(&dp->flags, __ATOMIC_ACQUIRE);
#endif
	} else {
		flags = dp->flags;
		rte_io_rmb();
	}
	return flags;
}

static inline bool desc_is_used(struct vring_packed_desc *d, struct vq_packed *vq)
{
	uint16_t flags = fetch_flags(d, vq->weak_barriers);
	bool used = !!(flags & VRING_PACKED_DESC_F_USED);
	bool avail = !!(flags & VRING_PACKED_DESC_F_AVAIL);

	return avail == used && used == vq->used_wrap_counter;
}

/* take up to n used buffers; returns how many, with their lengths */
uint16_t vq_dequeue_used(struct vq_packed *vq, void **bufs, uint32_t *lens, uint16_t n)
{
	uint16_t i, id;

	for (i = 0; i < n; i++) {
		struct vring_packed_desc *d = &vq->ring[vq->used_cons_idx];

		if (!desc_is_used(d, vq))
			break;
		id = d->id;
		lens[i] = d->len;
		bufs[i] = vq->cookies[id];
		vq->cookies[id] = 0;
		vq->nfree++;
		if (++vq->used_cons_idx >= vq->nentries) {
			vq->used_cons_idx -= vq->nentries;
			vq->used_wrap_counter ^= 1;
		}
	}
	return i;
}

/* post one receive buffer */
int vq_refill_one(struct vq_packed *vq, void *cookie, uint64_t iova, uint32_t len)
{
	uint16_t idx = vq->avail_idx;
	struct vring_packed_desc *d = &vq->ring[idx];
	uint16_t flags;

	if (!vq->nfree)
		return -1;
	vq->cookies[idx] = cookie;
	d->addr = iova;
	d->len = len;
	d->id = idx;
	flags = vq->cached_flags | VRING_DESC_F_WRITE;
	vq->nfree--;
	if (++vq->avail_idx >= vq->nentries) {
		vq->avail_idx -= vq->nentries;
		vq->cached_flags ^= VRING_PACKED_DESC_F_AVAIL | VRING_PACKED_DESC_F_USED;
	}
	store_flags(d, flags, vq->weak_barriers);
	return 0;
}
