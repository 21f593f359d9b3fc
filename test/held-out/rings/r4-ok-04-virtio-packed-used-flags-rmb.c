// Modelled on: drivers/virtio/virtio_ring.c:is_used_desc_packed(), more_used_packed(),
//              virtqueue_get_buf_ctx_packed() (Linux 6.12)
// Pattern: packed-virtqueue driver that tests the USED state of the next descriptor in a
//   helper (two levels deep) and then reads the descriptor's id and len. This file is
//   the correct form: virtio_rmb() after the test, as upstream has.
// The other side is the device. When it has used a buffer it writes id and len into
// the descriptor slot and then writes the slot's flags with AVAIL == USED == its wrap
// counter (after its own write barrier). The driver reads flags, and if the slot is
// used, reads id (which names the chain) and len (bytes written). Both are loads from
// memory the device writes by DMA or from another CPU; without a read barrier after the
// flags test the CPU may load id/len before flags and see the previous lap's values,
// completing the wrong request. virtio_rmb() (virt_rmb or dma_rmb) after a successful
// test orders the flags load before the id/len loads, pairing with the device's barrier. last_used_idx is a driver-private cursor (it carries the
// wrap counter in bit 15).
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
#define le16_to_cpu(x)	((u16)(x))
#define le32_to_cpu(x)	((u32)(x))

#define PACKED_DESC_F_AVAIL	7
#define PACKED_DESC_F_USED	15
#define EVENT_F_WRAP_CTR	15

struct packed_desc { __le64 addr; __le32 len; __le16 id; __le16 flags; };
struct chain_state { void *data; u16 num; };

struct packed_ring {
	struct packed_desc *desc;	/* shared with the device */
	u16 num;
};

struct packed_vq {
	struct packed_ring ring;
	struct chain_state *state;
	u16 last_used_idx;		/* bit 15: used wrap counter */
	u32 num_free;
	bool weak_barriers;
	bool broken;
};

extern void pvq_detach_chain(struct packed_vq *vq, u16 id);

static inline void virtio_rmb(bool weak_barriers)
{
	if (weak_barriers)
		virt_rmb();
	else
		dma_rmb();
}

static inline u16 last_used_slot(u16 last_used_idx)
{
	return last_used_idx & ~(1u << EVENT_F_WRAP_CTR);
}

static inline bool last_used_wrap(u16 last_used_idx)
{
	return !!(last_used_idx & (1u << EVENT_F_WRAP_CTR));
}

static inline bool desc_is_used(const struct packed_ring *r, u16 idx, bool wrap)
{
	u16 flags = le16_to_cpu(READ_ONCE(r->desc[idx].flags));
	bool avail = !!(flags & (1u << PACKED_DESC_F_AVAIL));
	bool used = !!(flags & (1u << PACKED_DESC_F_USED));

	return avail == used && used == wrap;
}

static bool more_used(const struct packed_vq *vq)
{
	u16 lui = READ_ONCE(vq->last_used_idx);

	return desc_is_used(&vq->ring, last_used_slot(lui), last_used_wrap(lui));
}

void *pvq_get_buf(struct packed_vq *vq, unsigned int *len)
{
	u16 lui, last, id;
	bool wrap;
	void *ret;

	if (unlikely(vq->broken) || !more_used(vq))
		return NULL;

	/* only read the used element after the device exposed it */
	virtio_rmb(vq->weak_barriers);

	lui = READ_ONCE(vq->last_used_idx);
	wrap = last_used_wrap(lui);
	last = last_used_slot(lui);
	id = le16_to_cpu(vq->ring.desc[last].id);
	*len = le32_to_cpu(vq->ring.desc[last].len);

	if (unlikely(id >= vq->ring.num || !vq->state[id].data)) {
		vq->broken = true;
		return NULL;
	}
	ret = vq->state[id].data;
	pvq_detach_chain(vq, id);

	last += vq->state[id].num;
	if (last >= vq->ring.num) {
		last -= vq->ring.num;
		wrap ^= 1;
	}
	WRITE_ONCE(vq->last_used_idx, (u16)(last | ((u16)wrap << EVENT_F_WRAP_CTR)));
	return ret;
}
