// Modelled on: drivers/net/veth.c:veth_get_ethtool_stats() (Linux 6.12, before the fix)
// Shipped bug: "veth: fix data race in veth_get_ethtool_stats" (David Yang, Jan 2026,
//   upstream b47adaab8b3d, Fixes: 5fe6e56776ba; backported to 6.12-stable)
// Several peer rx queues map onto the same tx slots of data[], so the peer
// loop adds into the caller's ethtool buffer -- and it did so inside the
// u64_stats fetch/retry loop: each retry adds the queue's xdp_xmit counters
// again. The fix reads into a local buf[] in the loop and adds afterwards.
// FLAGS: -DBITS_PER_LONG=32
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/u64_stats_sync.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define offsetof(t, m) __builtin_offsetof(t, m)

struct ethtool_stats;
struct veth_stats {
	u64 rx_drops;
	u64 xdp_packets;
	u64 xdp_bytes;
	u64 xdp_drops;
	u64 xdp_tx_err;
	u64 peer_tq_xdp_xmit;
	u64 peer_tq_xdp_xmit_err;
};

struct veth_rq_stats {
	struct veth_stats vs;
	struct u64_stats_sync syncp;
};

struct veth_rq {
	struct veth_rq_stats stats;
};

struct net_device {
	int ifindex;
	unsigned int real_num_rx_queues;
	unsigned int real_num_tx_queues;
	void *priv;
};

struct veth_priv {
	struct net_device *peer;
	struct veth_rq *rq;
};

struct veth_q_stat_desc {
	char desc[32];
	size_t offset;
};

#define VETH_RQ_STAT(m) offsetof(struct veth_stats, m)

static const struct veth_q_stat_desc veth_rq_stats_desc[] = {
	{ "xdp_packets", VETH_RQ_STAT(xdp_packets) },
	{ "xdp_bytes", VETH_RQ_STAT(xdp_bytes) },
	{ "drops", VETH_RQ_STAT(rx_drops) },
};
#define VETH_RQ_STATS_LEN ARRAY_SIZE(veth_rq_stats_desc)

static const struct veth_q_stat_desc veth_tq_stats_desc[] = {
	{ "xdp_xmit", VETH_RQ_STAT(peer_tq_xdp_xmit) },
	{ "xdp_xmit_errors", VETH_RQ_STAT(peer_tq_xdp_xmit_err) },
};
#define VETH_TQ_STATS_LEN ARRAY_SIZE(veth_tq_stats_desc)

static inline void *netdev_priv(const struct net_device *dev) { return dev->priv; }
void veth_get_page_pool_stats(struct net_device *dev, u64 *data);

void veth_get_ethtool_stats(struct net_device *dev,
			    struct ethtool_stats *stats, u64 *data)
{
	struct veth_priv *rcv_priv, *priv = netdev_priv(dev);
	struct net_device *peer = priv->peer;
	unsigned int i, j, idx, pp_idx;

	data[0] = peer ? peer->ifindex : 0;
	idx = 1;
	for (i = 0; i < dev->real_num_rx_queues; i++) {
		const struct veth_rq_stats *rq_stats = &priv->rq[i].stats;
		const void *stats_base = (void *)&rq_stats->vs;
		unsigned int start;
		size_t offset;

		do {
			start = u64_stats_fetch_begin(&rq_stats->syncp);
			for (j = 0; j < VETH_RQ_STATS_LEN; j++) {
				offset = veth_rq_stats_desc[j].offset;
				data[idx + j] = *(u64 *)(stats_base + offset);
			}
		} while (u64_stats_fetch_retry(&rq_stats->syncp, start));
		idx += VETH_RQ_STATS_LEN;
	}
	pp_idx = idx;

	if (!peer)
		goto page_pool_stats;

	rcv_priv = netdev_priv(peer);
	for (i = 0; i < peer->real_num_rx_queues; i++) {
		const struct veth_rq_stats *rq_stats = &rcv_priv->rq[i].stats;
		const void *base = (void *)&rq_stats->vs;
		unsigned int start, tx_idx = idx;
		size_t offset;

		tx_idx += (i % dev->real_num_tx_queues) * VETH_TQ_STATS_LEN;
		do {
			start = u64_stats_fetch_begin(&rq_stats->syncp);
			for (j = 0; j < VETH_TQ_STATS_LEN; j++) {
				offset = veth_tq_stats_desc[j].offset;
				data[tx_idx + j] += *(u64 *)(base + offset); /* EXPECT: seqlint-seqcount-read-side-effect */
			}
		} while (u64_stats_fetch_retry(&rq_stats->syncp, start));
	}
	pp_idx = idx + dev->real_num_tx_queues * VETH_TQ_STATS_LEN;

page_pool_stats:
	veth_get_page_pool_stats(dev, &data[pp_idx]);
}
