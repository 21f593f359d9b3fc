// Modelled on: drivers/net/ethernet/intel/ice/ice_lib.c:ice_vsi_alloc_rings(), ice_vsi_setup(),
//              ice_main.c:ice_update_vsi_ring_stats() (Linux 6.12)
// Correct: a new VSI is built while nothing else can reach it. Its ring structures are
// allocated and initialised, and their pointers are stored into vsi->rx_rings[] with
// plain WRITE_ONCE(). Then the VSI itself is published with rcu_assign_pointer(), and
// that store-release orders every earlier initialising store, the ring slots
// included. The stats reader finds VSIs only through pf->vsi[] with
// rcu_dereference(). After that it READ_ONCE()s the ring slots, and its address
// dependencies order the loads. A checker that wants a release on each ring-slot
// store is wrong here: the object is not yet shared when those stores happen.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/rcupdate.h>
#include <linux/mutex.h>
#include <asm/barrier.h>

#define ENOMEM		12
#define MAX_VSI		16

struct ring_stats { u64 pkts, bytes; };
struct rx_ring { u16 q_index, reg_idx; u32 count; struct ring_stats stats; };

struct vsi {
	u16 idx, num_rxq;
	u16 rxq_map[64];
	u32 num_rx_desc;
	struct rx_ring *rx_rings[64];
};

struct pf {
	struct mutex cfg_lock;
	struct vsi __rcu *vsi[MAX_VSI];
};

extern struct vsi *vsi_zalloc(void);
extern struct rx_ring *ring_zalloc(void);

static int vsi_alloc_rings(struct vsi *vsi)
{
	u16 i;

	for (i = 0; i < vsi->num_rxq; i++) {
		struct rx_ring *ring = ring_zalloc();

		if (!ring)
			return -ENOMEM;
		ring->q_index = i;
		ring->reg_idx = vsi->rxq_map[i];
		ring->count = vsi->num_rx_desc;
		WRITE_ONCE(vsi->rx_rings[i], ring);
	}
	return 0;
}

struct vsi *vsi_setup(struct pf *pf, u16 idx, u16 num_rxq, u32 num_desc)
{
	struct vsi *vsi = vsi_zalloc();
	u16 i;

	if (!vsi || idx >= MAX_VSI || num_rxq > 64)
		return NULL;
	vsi->idx = idx;
	vsi->num_rxq = num_rxq;
	vsi->num_rx_desc = num_desc;
	for (i = 0; i < num_rxq; i++)
		vsi->rxq_map[i] = idx * 64 + i;
	if (vsi_alloc_rings(vsi))
		return NULL;

	mutex_lock(&pf->cfg_lock);
	rcu_assign_pointer(pf->vsi[idx], vsi);	/* now reachable */
	mutex_unlock(&pf->cfg_lock);
	return vsi;
}

void pf_sum_rx_stats(struct pf *pf, u64 *pkts)
{
	int v;
	u16 i;

	*pkts = 0;
	rcu_read_lock();
	for (v = 0; v < MAX_VSI; v++) {
		struct vsi *vsi = rcu_dereference(pf->vsi[v]);

		if (!vsi)
			continue;
		for (i = 0; i < vsi->num_rxq; i++) {
			struct rx_ring *ring = READ_ONCE(vsi->rx_rings[i]);

			if (ring)
				*pkts += READ_ONCE(ring->stats.pkts);
		}
	}
	rcu_read_unlock();
}
