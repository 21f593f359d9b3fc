// Modelled on: drivers/vhost/vhost.c:vhost_vq_avail_empty(), vhost_get_vq_desc(),
//              drivers/vhost/net.c:tx_can_batch() (Linux 6.9, with 22e1992cf7b0)
// Shipped bug: "vhost: Add smp_rmb() in vhost_vq_avail_empty()" (22e1992cf7b0, 2024)
// The other side is the guest's virtio driver. It writes avail->ring[] entries and
// then, after virtio_wmb(), avail->idx. vhost caches the last avail->idx it loaded in
// vq->avail_idx. vhost_get_vq_desc() loads the index and issues smp_rmb() before it
// reads the ring entry. But it skips both the load and the barrier when the cached
// index is already ahead of last_avail_idx. vhost_vq_avail_empty() also refreshes
// the cache, with no barrier. So the next vhost_get_vq_desc() reads a head the guest
// has not published yet ("id N is not a head!", seen on arm64 Grace-Hopper).
// The index is read with a barrier in one place and without it in the other. This
// file is the fix: vhost_vq_avail_empty() issues smp_rmb() when it sees new entries.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define EFAULT	14
#define VRING_DESC_F_NEXT	1

struct vring_desc { u64 addr; u32 len; u16 flags; u16 next; };
struct vring_avail { u16 flags; u16 idx; u16 ring[]; };

struct vhost_vq {
	unsigned int num;
	struct vring_desc *desc;	/* guest memory, already mapped */
	struct vring_avail *avail;
	u16 avail_idx;			/* last avail->idx we loaded */
	u16 last_avail_idx;		/* next entry we will consume */
};

extern void vq_err(struct vhost_vq *vq, const char *msg, unsigned int a, unsigned int b);
extern int translate_desc(struct vhost_vq *vq, u64 addr, u32 len);

static inline u16 vhost_get_avail_idx(struct vhost_vq *vq)
{
	return READ_ONCE(vq->avail->idx);
}

bool vhost_vq_avail_empty(struct vhost_vq *vq)
{
	if (vq->avail_idx != vq->last_avail_idx)
		return false;

	vq->avail_idx = vhost_get_avail_idx(vq);
	if (vq->avail_idx != vq->last_avail_idx) {
		/* Similar to what's done in vhost_get_vq_desc(), we need
		 * to ensure the available ring entries have been exposed
		 * by guest. */
		smp_rmb();
		return false;
	}
	return true;
}

int vhost_get_vq_desc(struct vhost_vq *vq, unsigned int *out_len)
{
	u16 last_avail_idx = vq->last_avail_idx;
	unsigned int head, i;
	int ret;

	if (vq->avail_idx == vq->last_avail_idx) {
		vq->avail_idx = vhost_get_avail_idx(vq);
		if (unlikely((u16)(vq->avail_idx - last_avail_idx) > vq->num)) {
			vq_err(vq, "Guest moved avail index", last_avail_idx, vq->avail_idx);
			return -EFAULT;
		}
		/* If there's nothing new since last we looked, return invalid. */
		if (vq->avail_idx == last_avail_idx)
			return (int)vq->num;
		/* Only get avail ring entries after they have been exposed by guest. */
		smp_rmb();
	}

	/* Grab the next descriptor number they're advertising. */
	head = READ_ONCE(vq->avail->ring[last_avail_idx & (vq->num - 1)]);
	if (unlikely(head >= vq->num)) {
		vq_err(vq, "Guest says index is > size", head, vq->num);
		return -EFAULT;
	}

	*out_len = 0;
	for (i = head;;) {
		ret = translate_desc(vq, vq->desc[i].addr, vq->desc[i].len);
		if (ret < 0)
			return ret;
		*out_len += vq->desc[i].len;
		if (!(vq->desc[i].flags & VRING_DESC_F_NEXT))
			break;
		i = vq->desc[i].next;
		if (unlikely(i >= vq->num))
			return -EFAULT;
	}

	vq->last_avail_idx++;
	return (int)head;
}

/* net.c: keep batching while the guest has more to send */
bool tx_can_batch(struct vhost_vq *vq, size_t total_len, size_t limit)
{
	return total_len < limit && !vhost_vq_avail_empty(vq);
}
