// Modelled on: sysprog21/kvm-host src/virtio-net.c:virtio_net_complete_request_rx(),
//              src/virtq.c:virtq_get_avail(), src/vm.c guest RAM setup (with 4b26e80)
// Shipped bug: "Fix packed-ring completion ordering and buffer ID" (4b26e80, 2026),
//   the device-side half: the USED flip was a plain read-modify-write of desc->flags.
// The other side is the guest's virtio-net driver, running on a vCPU. Guest RAM is an
// anonymous mmap() in the VMM process, registered with KVM_SET_USER_MEMORY_REGION, and
// the packed descriptor ring is inside it. This emulated device (a VMM worker thread)
// takes an available RX descriptor, reads a packet from the tap fd into the buffer,
// writes the used length into desc->len and then flips the USED bit in desc->flags.
// The guest driver sees the slot as used when USED matches its wrap counter and then
// reads len (and id) after its virtio_rmb(). The device's buffer and len stores must be
// visible before the flag store; a plain store gives no such order on arm64 hosts.
// The fix computes the new flags with a plain load (the slot has a single writer until
// USED is published) and store-releases them. This file is the fix (the AVAIL test and
// the ISR update are in their fixed forms too).
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define VRING_PACKED_DESC_F_AVAIL	7
#define VRING_PACKED_DESC_F_USED	15
#define EVENT_FLAG_DISABLE		0x1
#define ISR_QUEUE			0x1

struct vring_packed_desc { uint64_t addr; uint32_t len; uint16_t id; uint16_t flags; };
struct vring_packed_event { uint16_t off_wrap; uint16_t flags; };
struct net_hdr { uint8_t flags, gso_type; uint16_t hdr_len, gso_size, csum_start, csum_offset, num_buffers; };

struct vq {
	struct vring_packed_desc *desc_ring;	/* in guest RAM */
	struct vring_packed_event *guest_event;	/* in guest RAM */
	uint16_t size;
	uint16_t next_avail_idx;
	bool used_wrap_count;
};

struct net_dev {
	struct vq rx;
	int tapfd;
	uint32_t isr_status;
	uint8_t *ram;				/* the guest RAM mapping */
	uint64_t ram_size;
};

static uint8_t *guest_buf(struct net_dev *d, uint64_t gpa, uint32_t len)
{
	if (gpa >= d->ram_size || len > d->ram_size - gpa)
		return NULL;
	return d->ram + gpa;
}

static struct vring_packed_desc *vq_get_avail(struct vq *vq)
{
	struct vring_packed_desc *desc = &vq->desc_ring[vq->next_avail_idx];
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

void net_complete_rx(struct net_dev *d)
{
	struct vq *vq = &d->rx;
	struct vring_packed_desc *desc = vq_get_avail(vq);
	const size_t hlen = sizeof(struct net_hdr);
	uint32_t buf_len;
	uint8_t *data;
	ssize_t n;

	if (!desc) {
		vq->guest_event->flags = EVENT_FLAG_DISABLE;
		return;
	}
	buf_len = desc->len;
	data = guest_buf(d, desc->addr, buf_len);
	if (!data || buf_len < hlen) {
		vq->guest_event->flags = EVENT_FLAG_DISABLE;
		return;
	}
	memset(data, 0, hlen);
	((struct net_hdr *)data)->num_buffers = 1;

	n = read(d->tapfd, data + hlen, buf_len - hlen);
	if (n < 0) {
		vq->guest_event->flags = EVENT_FLAG_DISABLE;
		return;
	}
	desc->len = (uint32_t)(hlen + (size_t)n);

	/* single writer until USED is published: a plain load of the old flags is safe */
	uint16_t new_flags = desc->flags ^ (uint16_t)(1u << VRING_PACKED_DESC_F_USED);
	__atomic_store_n(&desc->flags, new_flags, __ATOMIC_RELEASE);
	__atomic_fetch_or(&d->isr_status, ISR_QUEUE, __ATOMIC_RELEASE);
}
