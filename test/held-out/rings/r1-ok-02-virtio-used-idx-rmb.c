// Modelled on: drivers/virtio/virtio_ring.c:virtqueue_get_buf_ctx_split(), more_used_split(),
//              detach_buf_split() (Linux 6.12)
// Pattern: split-virtqueue driver reading completions, fixed: the caller issues
//   virtio_rmb() after the helper that tests for a new used->idx.
// The other side is the device. It writes the used element (id, len) and then moves
// used->idx. The driver must not read used->ring[last_used] until it has seen the new
// index, so a read barrier belongs between the index load and the element loads.
// Without one, a weakly ordered CPU can load a stale id and hand back the wrong
// buffer ("id N is not a head!").
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define VRING_DESC_F_NEXT		1
#define VRING_AVAIL_F_NO_INTERRUPT	1

struct vring_desc { u64 addr; u32 len; u16 flags; u16 next; };
struct vring_avail { u16 flags; u16 idx; u16 ring[]; };
struct vring_used_elem { u32 id; u32 len; };
struct vring_used { u16 flags; u16 idx; struct vring_used_elem ring[]; };

struct split_vq {
	unsigned int num;
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	u16 *used_event;		/* lives right after avail->ring[num] */
	bool weak_barriers;
	bool broken;
	/* driver private */
	u16 last_used_idx;
	u16 avail_flags_shadow;
	u16 free_head;
	unsigned int num_free;
	void **token;
};

extern void svq_bad_ring(struct split_vq *vq, const char *why, unsigned int id);

static inline void virtio_rmb(bool weak_barriers)
{
	if (weak_barriers)
		virt_rmb();
	else
		dma_rmb();
}

static inline bool svq_more_used(const struct split_vq *vq)
{
	return vq->last_used_idx != READ_ONCE(vq->used->idx);
}

static void svq_detach(struct split_vq *vq, unsigned int head)
{
	unsigned int i = head;

	vq->token[head] = NULL;
	while (vq->desc[i].flags & VRING_DESC_F_NEXT) {
		i = vq->desc[i].next;
		vq->num_free++;
	}
	vq->desc[i].next = vq->free_head;
	vq->free_head = head;
	vq->num_free++;
}

void *svq_get_buf(struct split_vq *vq, unsigned int *len)
{
	unsigned int id, slot;
	void *ret;

	if (unlikely(vq->broken))
		return NULL;
	if (!svq_more_used(vq))
		return NULL;

	/* Only read used entries after the device has exposed them. */
	virtio_rmb(vq->weak_barriers);

	slot = vq->last_used_idx & (vq->num - 1);
	id = vq->used->ring[slot].id;
	*len = vq->used->ring[slot].len;

	if (unlikely(id >= vq->num)) {
		svq_bad_ring(vq, "id out of range", id);
		return NULL;
	}
	if (unlikely(!vq->token[id])) {
		svq_bad_ring(vq, "id is not a head", id);
		return NULL;
	}

	ret = vq->token[id];
	svq_detach(vq, id);
	vq->last_used_idx++;

	/* Ask for an interrupt at the next entry; order it before the next
	 * poll of used->idx. */
	if (!(vq->avail_flags_shadow & VRING_AVAIL_F_NO_INTERRUPT)) {
		WRITE_ONCE(*vq->used_event, vq->last_used_idx);
		virt_mb();
	}
	return ret;
}
