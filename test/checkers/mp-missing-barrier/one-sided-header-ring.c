// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier, one side: a ring laid out as a header and its slots
 * in one block of shared memory (a virtqueue's used ring: `idx` then
 * `ring[]`). The index and the slots are members of one object, so the
 * index counts those slots even when the slot position comes from
 * elsewhere (a reservation made by another helper).
 * Modelled on DPDK lib/vhost/virtio_net.c:flush_shadow_used_ring_split()
 * and vhost_rxtx.c:virtio_dev_rx() (16.04), the device side of a split
 * virtqueue: used elements, then used->idx.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

struct used_elem { u32 id; u32 len; };
struct used_ring { u16 flags; u16 idx; struct used_elem ring[]; };

struct backend_vq {
	struct used_ring *used;
	u16 size;
	u16 shadow_used;
	u16 first, count;
};

void backend_flush(struct backend_vq *vq, const u16 *heads, const u32 *lens)
{
	u16 i;

	for (i = 0; i < vq->count; i++) {
		u16 at = (vq->first + i) & (vq->size - 1);

		vq->used->ring[at].id = heads[i];
		vq->used->ring[at].len = lens[i];
	}
	*(volatile u16 *)&vq->used->idx += vq->count; // expected-warning {{'*(&vq->used->idx)' is published here after the store to 'vq->used->ring[].len' with no write barrier in between}}
}

void backend_flush_ok(struct backend_vq *vq, const u16 *heads, const u32 *lens)
{
	u16 i;

	for (i = 0; i < vq->count; i++) {
		u16 at = (vq->first + i) & (vq->size - 1);

		vq->used->ring[at].id = heads[i];
		vq->used->ring[at].len = lens[i];
	}
	smp_wmb();
	*(volatile u16 *)&vq->used->idx += vq->count;
}

/* The slots of one ring, the index of another object of the same type: no
 * relation. */
void backend_flush_other(struct backend_vq *vq, struct backend_vq *peer,
			 const u16 *heads, u16 n)
{
	u16 i;

	for (i = 0; i < n; i++)
		vq->used->ring[(vq->first + i) & (vq->size - 1)].id = heads[i];
	*(volatile u16 *)&peer->used->idx += n;
}

/* The header's flags word (not an index that moves on): no relation. */
void backend_flags(struct backend_vq *vq, u16 at, u32 len)
{
	vq->used->ring[at & (vq->size - 1)].len = len;
	WRITE_ONCE(vq->used->flags, 1);
}
