// Modelled on: DPDK lib/librte_vhost/virtio_net.c:flush_shadow_used_ring_split(),
//              vhost.h:vhost_vring_call_split(), vhost_need_event() (DPDK 20.11)
// Correct: the backend copies the shadow used elements into the guest's used ring
// and publishes them with __atomic_add_fetch(&used->idx, n, __ATOMIC_RELEASE). The
// release orders the element stores before the index. To decide whether to interrupt
// the guest it then reads avail->flags, or the guest's used_event. That is a store
// followed by a load of a different location, and the guest does the mirror image
// (writes used_event, then re-reads used->idx). So both sides need a full barrier:
// rte_smp_mb() between the release and the flag/event loads. A release alone would
// be the wrong kind. This is the fixed form of the missed-interrupt bug, DPDK 159793ac867b.
#include <stdint.h>
#include <stdbool.h>

#define VRING_AVAIL_F_NO_INTERRUPT	1
#define VIRTIO_RING_F_EVENT_IDX		29

/* x86 rte_smp_mb(): a locked add on the stack, as DPDK does */
#define rte_smp_mb()	__asm__ __volatile__("lock addl $0, -128(%%rsp)" ::: "memory")

struct vring_avail { uint16_t flags; uint16_t idx; uint16_t ring[]; };
struct vring_used_elem { uint32_t id; uint32_t len; };
struct vring_used { uint16_t flags; uint16_t idx; struct vring_used_elem ring[]; };

struct vhost_vq {
	struct vring_avail *avail;	/* guest memory */
	struct vring_used *used;
	uint16_t size;
	uint16_t last_used_idx;
	uint16_t shadow_used_idx;
	struct vring_used_elem *shadow_used;
	uint16_t signalled_used;
	bool signalled_used_valid;
	int callfd;
};

extern int eventfd_write(int fd, uint64_t value);

static inline uint16_t vhost_used_event(const struct vhost_vq *vq)
{
	return vq->avail->ring[vq->size];
}

static inline int vhost_need_event(uint16_t event_idx, uint16_t new_idx, uint16_t old)
{
	return (uint16_t)(new_idx - event_idx - 1) < (uint16_t)(new_idx - old);
}

void vhost_flush_used(struct vhost_vq *vq, uint64_t features)
{
	uint16_t i, used_idx = vq->last_used_idx & (vq->size - 1);

	for (i = 0; i < vq->shadow_used_idx; i++) {
		vq->used->ring[used_idx] = vq->shadow_used[i];
		used_idx = (used_idx + 1) & (vq->size - 1);
	}
	vq->last_used_idx += vq->shadow_used_idx;
	__atomic_add_fetch(&vq->used->idx, vq->shadow_used_idx, __ATOMIC_RELEASE);
	vq->shadow_used_idx = 0;

	/* Flush used->idx update before we read avail->flags. */
	rte_smp_mb();

	if (features & (1ULL << VIRTIO_RING_F_EVENT_IDX)) {
		uint16_t old = vq->signalled_used, new_idx = vq->last_used_idx;
		bool valid = vq->signalled_used_valid;

		vq->signalled_used = new_idx;
		vq->signalled_used_valid = true;
		if ((vhost_need_event(vhost_used_event(vq), new_idx, old) && vq->callfd >= 0) ||
		    !valid)
			eventfd_write(vq->callfd, 1);
	} else if (!(vq->avail->flags & VRING_AVAIL_F_NO_INTERRUPT) && vq->callfd >= 0) {
		eventfd_write(vq->callfd, 1);
	}
}
