// Modelled on: drivers/virtio/virtio_ring.c:virtqueue_add_packed() (Linux 6.12)
// Pattern: packed-virtqueue driver that writes a descriptor chain and then makes its
//   HEAD descriptor available by storing head->flags, with no virtio_wmb() first.
// The other side is the device (vhost, a vDPA NIC, QEMU). In a packed ring there is no
// avail index: the device polls the flags word of the next descriptor and treats it as
// available when the AVAIL bit equals its wrap counter and USED does not. The driver
// fills every descriptor of the chain (addr, len, id, and the flags of the non-head
// ones) and publishes the whole chain with one store: the head's flags, written last.
// "A driver MUST NOT make the first descriptor in the list available before all
// subsequent descriptors comprising the list are made available" (virtio 1.1 2.7.13),
// so the head-flags store needs a write barrier before it. The ring is in memory from
// dma_alloc_coherent() (or plain guest RAM with weak_barriers). The virtio_mb() in
// pvq_kick_prepare(), between the publication and the read of the device event flags,
// is correct (virtqueue_kick_prepare_packed()).
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
typedef u64 dma_addr_t;
#define cpu_to_le16(x)	((__le16)(x))
#define cpu_to_le32(x)	((__le32)(x))
#define cpu_to_le64(x)	((__le64)(x))

#define ENOSPC			28
#define ENOMEM			12
#define DESC_F_NEXT		1
#define DESC_F_WRITE		2
#define PACKED_DESC_F_AVAIL	7
#define PACKED_DESC_F_USED	15

struct packed_desc { __le64 addr; __le32 len; __le16 id; __le16 flags; };

struct buf_seg { dma_addr_t addr; u32 len; };

struct desc_state { void *data; u16 num; u16 last; };

struct packed_event { __le16 off_wrap; __le16 flags; };
#define EVENT_FLAG_DISABLE	1
#define le16_to_cpu(x)		((u16)(x))

struct packed_vq {
	struct packed_desc *desc;	/* ring shared with the device */
	u32 num;
	u16 next_avail_idx;
	u16 avail_used_flags;		/* AVAIL/USED bits for the current lap */
	bool avail_wrap_counter;
	bool weak_barriers;
	u32 num_free;
	u32 num_added;
	u16 free_head;
	u16 *next_free;			/* driver-private free list */
	struct packed_event *device_event;	/* written by the device */
	struct desc_state *state;
};

static inline void virtio_mb(bool weak_barriers)
{
	if (weak_barriers)
		virt_mb();
	else
		mb();
}

int pvq_add(struct packed_vq *vq, const struct buf_seg *segs, unsigned int out,
	    unsigned int in, void *data)
{
	unsigned int total = out + in, n;
	u16 head = vq->next_avail_idx, i = head, id, curr, prev = 0;
	__le16 head_flags = 0, flags;

	if (!total)
		return -ENOMEM;
	if (vq->num_free < total)
		return -ENOSPC;

	id = vq->free_head;
	curr = id;
	for (n = 0; n < total; n++) {
		flags = cpu_to_le16(vq->avail_used_flags |
				    (n + 1 == total ? 0 : DESC_F_NEXT) |
				    (n < out ? 0 : DESC_F_WRITE));
		if (i == head)
			head_flags = flags;
		else
			vq->desc[i].flags = flags;

		vq->desc[i].addr = cpu_to_le64(segs[n].addr);
		vq->desc[i].len = cpu_to_le32(segs[n].len);
		vq->desc[i].id = cpu_to_le16(id);

		prev = curr;
		curr = vq->next_free[curr];

		if (++i >= vq->num) {
			i = 0;
			vq->avail_used_flags ^= 1 << PACKED_DESC_F_AVAIL |
						1 << PACKED_DESC_F_USED;
		}
	}
	if (i <= head)
		vq->avail_wrap_counter ^= 1;

	vq->num_free -= total;
	vq->next_avail_idx = i;
	vq->free_head = curr;

	vq->state[id].num = (u16)total;
	vq->state[id].data = data;
	vq->state[id].last = prev;

	/* the whole chain becomes available with the head's flags */
	vq->desc[head].flags = head_flags; /* EXPECT: seqlint-mp-missing-barrier */
	vq->num_added += total;
	return 0;
}

bool pvq_kick_prepare(struct packed_vq *vq)
{
	u16 flags;

	/* the new head flags before the device's suppression flags (store then load) */
	virtio_mb(vq->weak_barriers);
	flags = le16_to_cpu(READ_ONCE(vq->device_event->flags));
	vq->num_added = 0;
	return flags != EVENT_FLAG_DISABLE;
}
