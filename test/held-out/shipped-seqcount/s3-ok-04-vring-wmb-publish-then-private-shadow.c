// Modelled on: drivers/virtio/virtio_ring.c:virtqueue_add_split() (Linux 6.12; virtio_wmb() with
//              weak barriers is smp_wmb())
// Correct: smp_wmb() orders the descriptor and ring-slot stores before the
// store of the shared avail index (store -> store). The loads after the
// barrier -- idx_shadow, num_added, free_head -- are the driver's private
// bookkeeping, written and read only by this producer under the caller's
// queue lock; the device never writes them, so no store -> load ordering is
// needed and smp_mb() would only cost a fence per packet.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define ENOSPC 28
#define VRING_DESC_F_NEXT 1
#define VRING_DESC_F_WRITE 2

struct vring_desc { u64 addr; u32 len; u16 flags; u16 next; };
struct vring_avail { u16 flags; u16 idx; u16 ring[]; };

struct sq_state { void *token; };

struct sq_ring {
	/* shared with the device */
	struct vring_desc *desc;
	struct vring_avail *avail;
	unsigned int num;
	/* producer private, caller holds the tx queue lock */
	u16 idx_shadow;
	u16 free_head;
	unsigned int num_free;
	unsigned int num_added;
	struct sq_state *state;
	u16 *next_free;
};

extern void sq_kick(struct sq_ring *q);

int sq_add_buf(struct sq_ring *q, const u64 *addrs, const u32 *lens,
	       unsigned int nbufs, bool to_device, void *token)
{
	unsigned int i, n, slot;
	u16 head, last = 0;

	if (nbufs > q->num_free)
		return -ENOSPC;

	head = i = q->free_head;
	for (n = 0; n < nbufs; n++) {
		q->desc[i].addr = addrs[n];
		q->desc[i].len = lens[n];
		q->desc[i].flags = (to_device ? 0 : VRING_DESC_F_WRITE) |
				   (n + 1 < nbufs ? VRING_DESC_F_NEXT : 0);
		last = i;
		i = q->next_free[i];
	}
	q->desc[last].flags &= ~VRING_DESC_F_NEXT;
	q->num_free -= nbufs;
	q->free_head = i;
	q->state[head].token = token;

	/* put the head in the ring; the device ignores it until idx moves */
	slot = q->idx_shadow & (q->num - 1);
	q->avail->ring[slot] = head;

	/* descriptors and ring slot before the device can see the new index */
	smp_wmb();
	q->idx_shadow++;
	WRITE_ONCE(q->avail->idx, q->idx_shadow);
	q->num_added++;

	/* bookkeeping of our own: unlikely wrap of the un-notified count */
	if (unlikely(q->num_added == (1 << 16) - 1))
		sq_kick(q);
	return 0;
}
