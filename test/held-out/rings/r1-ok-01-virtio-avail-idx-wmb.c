// Modelled on: drivers/virtio/virtio_ring.c:virtqueue_add_split(), virtqueue_kick_prepare_split() (Linux 6.12)
// Pattern: split-virtqueue driver, fixed: virtio_wmb() between the avail ring slot and
//   the store that moves avail->idx.
// The other side is the device (vhost in the host kernel, a QEMU iothread, or real
// hardware). It polls avail->idx; for every new value it reads avail->ring[idx % num]
// and then the descriptors that slot names. The driver's stores to desc[] and
// avail->ring[] must therefore be visible before the new index. virtio_wmb() (virt_wmb
// for a software device, dma_wmb for a DMA device) is the barrier that does this.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define ENOSPC			28
#define VRING_DESC_F_NEXT	1
#define VRING_DESC_F_WRITE	2
#define VRING_USED_F_NO_NOTIFY	1

struct vring_desc { u64 addr; u32 len; u16 flags; u16 next; };
struct vring_avail { u16 flags; u16 idx; u16 ring[]; };
struct vring_used_elem { u32 id; u32 len; };
struct vring_used { u16 flags; u16 idx; struct vring_used_elem ring[]; };

struct split_vq {
	/* shared with the device */
	unsigned int num;
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	bool weak_barriers;
	/* driver private, serialised by the caller */
	u16 avail_idx_shadow;
	u16 free_head;
	unsigned int num_free;
	unsigned int num_added;
	void **token;
};

static inline void virtio_wmb(bool weak_barriers)
{
	if (weak_barriers)
		virt_wmb();
	else
		dma_wmb();
}

static inline void virtio_mb(bool weak_barriers)
{
	if (weak_barriers)
		virt_mb();
	else
		mb();
}

int svq_add_chain(struct split_vq *vq, const u64 *addr, const u32 *len,
		  unsigned int out_sgs, unsigned int in_sgs, void *token)
{
	unsigned int total = out_sgs + in_sgs;
	unsigned int n, i, prev = 0, slot;
	u16 head;

	if (!total || vq->num_free < total)
		return -ENOSPC;

	head = i = vq->free_head;
	for (n = 0; n < total; n++) {
		vq->desc[i].addr = addr[n];
		vq->desc[i].len = len[n];
		vq->desc[i].flags = VRING_DESC_F_NEXT |
				    (n >= out_sgs ? VRING_DESC_F_WRITE : 0);
		prev = i;
		i = vq->desc[i].next;
	}
	vq->desc[prev].flags &= ~VRING_DESC_F_NEXT;

	vq->num_free -= total;
	vq->free_head = i;
	vq->token[head] = token;

	/* Put the chain head into the next avail slot. */
	slot = vq->avail_idx_shadow & (vq->num - 1);
	vq->avail->ring[slot] = head;

	/* Descriptors and ring slot before the device can see the new index. */
	virtio_wmb(vq->weak_barriers);
	vq->avail_idx_shadow++;
	vq->avail->idx = vq->avail_idx_shadow;
	vq->num_added++;
	return 0;
}

bool svq_kick_prepare(struct split_vq *vq)
{
	bool needs_kick;

	/* new avail->idx before reading the device's suppression flag */
	virtio_mb(vq->weak_barriers);
	needs_kick = !(READ_ONCE(vq->used->flags) & VRING_USED_F_NO_NOTIFY);
	vq->num_added = 0;
	return needs_kick;
}
