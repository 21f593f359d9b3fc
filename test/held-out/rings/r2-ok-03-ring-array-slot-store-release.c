// Modelled on: the per-queue ring arrays of drivers/net/ethernet/intel/ice
//              (ice_vsi_alloc_rings(), ice_update_vsi_ring_stats()), reshaped into a
//              live "change channel count" path (Linux 6.12)
// Pattern: a channel-count change allocates and initialises new ring structures,
//   fixed: the live array slot is written with smp_store_release().
// The other side is the stats reader (ndo_get_stats64 and the service task). It runs
// under rcu_read_lock() without the RTNL that the writer holds. It READ_ONCE()s
// rings[i] and then reads ring->stats and ring->count. Its dependent loads are
// ordered, but the writer's initialising stores are not ordered before the slot
// store, so a reader on another CPU can see the pointer before the fields. It then
// follows an uninitialised stats pointer. The slot store needs
// smp_store_release() (rcu_assign_pointer()).
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/rcupdate.h>
#include <asm/barrier.h>

#define ENOMEM 12

struct ring_stats { u64 pkts, bytes; };

struct rx_ring {
	u16 q_index, reg_idx;
	u32 count;
	struct ring_stats *stats;
	struct rcu_head rcu;
};

struct vsi {
	u16 num_rxq, alloc_rxq;
	u16 *rxq_map;
	u32 num_rx_desc;
	struct rx_ring **rx_rings;	/* read locklessly by the stats path */
};

extern void *kzalloc_ring(void);
extern struct ring_stats *kzalloc_stats(void);

/* Called with RTNL held, while the netdev is up and stats may be read. */
int vsi_grow_rx_rings(struct vsi *vsi, u16 new_num)
{
	u16 i;

	for (i = vsi->num_rxq; i < new_num && i < vsi->alloc_rxq; i++) {
		struct rx_ring *ring = kzalloc_ring();

		if (!ring)
			return -ENOMEM;
		ring->stats = kzalloc_stats();
		if (!ring->stats)
			return -ENOMEM;
		ring->q_index = i;
		ring->reg_idx = vsi->rxq_map[i];
		ring->count = vsi->num_rx_desc;
		/* initialised ring before it becomes reachable */
		smp_store_release(&vsi->rx_rings[i], ring);
	}
	WRITE_ONCE(vsi->num_rxq, i);
	return 0;
}

void vsi_sum_rx_stats(struct vsi *vsi, u64 *pkts, u64 *bytes)
{
	u16 i, n = READ_ONCE(vsi->num_rxq);

	*pkts = *bytes = 0;
	rcu_read_lock();
	for (i = 0; i < n; i++) {
		struct rx_ring *ring = READ_ONCE(vsi->rx_rings[i]);

		if (!ring || !ring->stats)
			continue;
		*pkts += READ_ONCE(ring->stats->pkts);
		*bytes += READ_ONCE(ring->stats->bytes);
	}
	rcu_read_unlock();
}
