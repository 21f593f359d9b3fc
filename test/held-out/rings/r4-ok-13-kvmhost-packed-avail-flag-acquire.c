// Modelled on: sysprog21/kvm-host src/virtq.c:virtq_get_avail(),
//              src/virtio-net.c:virtio_net_complete_request_tx() (with 4b26e80)
// Shipped bug: "Fix packed-ring completion ordering and buffer ID" (4b26e80, 2026),
//   the device-side consumer half: the AVAIL test read desc->flags with a plain load.
// The other side is the guest's virtio driver on a vCPU, writing into guest RAM that the
// VMM mmap()ed and handed to KVM. The driver fills addr/len/id of a descriptor and then
// makes it available by storing its flags (after virtio_wmb()). This emulated device
// tests AVAIL/USED in desc->flags against its wrap counter and then reads desc->len
// and desc->addr to find the frame to transmit. Without an acquire (or a read fence)
// after the flags load, the len/addr loads can be satisfied first, from the previous
// lap, and the device sends a stale or truncated frame, or checks bounds against one
// length and uses another. The fix loads the flags with __ATOMIC_ACQUIRE, which orders
// them before every later load of the slot. This file is the fix.
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#define VRING_PACKED_DESC_F_AVAIL	7
#define VRING_PACKED_DESC_F_USED	15
#define EVENT_FLAG_DISABLE		0x1
#define ISR_QUEUE			0x1

struct vring_packed_desc { uint64_t addr; uint32_t len; uint16_t id; uint16_t flags; };
struct vring_packed_event { uint16_t off_wrap; uint16_t flags; };

struct vq {
	struct vring_packed_desc *desc_ring;	/* in guest RAM */
	struct vring_packed_event *guest_event;	/* in guest RAM */
	uint16_t size;
	uint16_t next_avail_idx;
	bool used_wrap_count;
};

struct net_dev {
	struct vq tx;
	int tapfd;
	uint32_t isr_status;
	uint8_t *ram;
	uint64_t ram_size;
	uint64_t tx_frames;
};

#define NET_HDR_LEN	12u

static uint8_t *guest_buf(struct net_dev *d, uint64_t gpa, uint32_t len)
{
	if (gpa >= d->ram_size || len > d->ram_size - gpa)
		return NULL;
	return d->ram + gpa;
}

static struct vring_packed_desc *vq_get_avail(struct vq *vq)
{
	struct vring_packed_desc *desc = &vq->desc_ring[vq->next_avail_idx];
	/* pairs with the driver's barrier before it published the descriptor */
	uint16_t flags = __atomic_load_n(&desc->flags, __ATOMIC_ACQUIRE);
	bool avail = flags & (1u << VRING_PACKED_DESC_F_AVAIL);
	bool used = flags & (1u << VRING_PACKED_DESC_F_USED);

	if (avail != vq->used_wrap_count || used == vq->used_wrap_count)
		return NULL;
	if (++vq->next_avail_idx >= vq->size) {
		vq->next_avail_idx -= vq->size;
		vq->used_wrap_count ^= 1;
	}
	return desc;
}

void net_complete_tx(struct net_dev *d)
{
	struct vq *vq = &d->tx;
	struct vring_packed_desc *desc;

	while ((desc = vq_get_avail(vq)) != NULL) {
		/* snapshot len once: the guest can rewrite the slot */
		uint32_t buf_len = desc->len;
		uint8_t *data = guest_buf(d, desc->addr, buf_len);
		struct iovec iov;
		uint16_t new_flags;

		if (!data || buf_len < NET_HDR_LEN)
			break;
		iov.iov_base = data + NET_HDR_LEN;
		iov.iov_len = buf_len - NET_HDR_LEN;
		if (writev(d->tapfd, &iov, 1) < 0)
			break;
		d->tx_frames++;

		/* TX buffers are device-readable only: nothing written */
		desc->len = 0;
		new_flags = desc->flags ^ (uint16_t)(1u << VRING_PACKED_DESC_F_USED);
		__atomic_store_n(&desc->flags, new_flags, __ATOMIC_RELEASE);
		__atomic_fetch_or(&d->isr_status, ISR_QUEUE, __ATOMIC_RELEASE);
		return;
	}
	vq->guest_event->flags = EVENT_FLAG_DISABLE;
}
