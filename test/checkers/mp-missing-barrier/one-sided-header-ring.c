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

/*
 * The driver side, with no marked access at all: the slot of a ring laid
 * out as its index and a flexible array, then the index, set from the
 * shadow position the slot was addressed with. Modelled on
 * drivers/virtio/virtio_ring.c:virtqueue_add_split() (Linux 6.12), where
 * virtio_wmb() sits between the two.
 */
struct avail_ring { u16 flags; u16 idx; u16 ring[]; };

struct drv_vq {
	struct avail_ring *avail;
	unsigned int num;
	u16 shadow;
};

void drv_add(struct drv_vq *vq, u16 head)
{
	unsigned int at = vq->shadow & (vq->num - 1);

	vq->avail->ring[at] = head;
	vq->shadow++;
	vq->avail->idx = vq->shadow; // expected-warning {{'vq->avail->idx' is published here after the store to 'vq->avail->ring[]' with no write barrier in between}}
}

void drv_add_ok(struct drv_vq *vq, u16 head)
{
	unsigned int at = vq->shadow & (vq->num - 1);

	vq->avail->ring[at] = head;
	vq->shadow++;
	virt_wmb();
	vq->avail->idx = vq->shadow;
}

/* A fixed-size array in a private structure: a log, not a shared ring. */
struct event_log {
	unsigned int n;
	unsigned int last;
	u32 ev[32];
};

void log_add(struct event_log *l, u32 e)
{
	l->ev[l->n & 31] = e;
	l->n++;
	l->last = l->n;
}

/* A flexible array filled up to a count, not a ring (no wrapping
 * position). Modelled on net/core/sock_reuseport.c:__reuseport_add_sock()
 * (Linux 6.12), which the callers serialise with a lock. */
struct group {
	u16 max;
	u16 num;
	void *members[];
};

void group_add(struct group *g, void *m)
{
	g->members[g->num] = m;
	g->num++;
}

/* A hash table in a flexible array and a statistic of the same object: the
 * count is no index of the buckets. Modelled on net/core/dev.c:
 * skb_flow_limit() (Linux 6.12). */
struct flow_lim {
	u64 count;
	unsigned int nbuckets;
	u8 buckets[];
};

bool flow_lim_hit(struct flow_lim *fl, u32 hash)
{
	unsigned int b = hash & (fl->nbuckets - 1);

	if (++fl->buckets[b] > 8) {
		fl->count++;
		return true;
	}
	return false;
}
