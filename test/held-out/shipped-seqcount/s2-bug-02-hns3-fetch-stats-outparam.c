// Modelled on: drivers/net/ethernet/hisilicon/hns3/hns3_enet.c:hns3_fetch_stats()
//   and hns3_nic_get_stats64() (Linux 6.12, before the fix)
// Shipped bug: "net: hns3: fix data race in hns3_fetch_stats" (David Yang, Jan 2026,
//   upstream 748a81c8ceda, Fixes: b20d7fe51e0d)
// Each ring's counters are added into the caller's rtnl_link_stats64 with
// "stats->x += ring->stats.y" inside the u64_stats fetch/retry loop, so a
// retry adds the ring a second time (the real function had ~30 such lines;
// four are kept here). The fix copies ring->stats in the loop, adds after it.
// FLAGS: -DBITS_PER_LONG=32
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/u64_stats_sync.h>

struct rtnl_link_stats64 {
	u64 rx_packets;
	u64 tx_packets;
	u64 rx_bytes;
	u64 tx_bytes;
	u64 rx_errors;
	u64 tx_errors;
	u64 rx_dropped;
	u64 tx_dropped;
	u64 multicast;
};

struct ring_stats {
	u64 sw_err_cnt;
	u64 seg_pkt_cnt;
	union {
		struct {
			u64 tx_pkts;
			u64 tx_bytes;
			u64 tx_busy;
		};
		struct {
			u64 rx_pkts;
			u64 rx_bytes;
			u64 rx_err_cnt;
			u64 rx_multicast;
		};
	};
};

struct hns3_enet_ring {
	struct hns3_enet_ring *next;
	struct ring_stats stats;
	struct u64_stats_sync syncp;
	int queue_index;
};

struct hns3_nic_priv {
	struct hns3_enet_ring *ring;
	int num_tqps;
	unsigned long state;
};

static void hns3_fetch_stats(struct rtnl_link_stats64 *stats,
			     struct hns3_enet_ring *ring, bool is_tx)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&ring->syncp);
		if (is_tx) {
			stats->tx_bytes += ring->stats.tx_bytes; /* EXPECT: seqlint-seqcount-read-side-effect */
			stats->tx_packets += ring->stats.tx_pkts; /* EXPECT: seqlint-seqcount-read-side-effect */
		} else {
			stats->rx_bytes += ring->stats.rx_bytes; /* EXPECT: seqlint-seqcount-read-side-effect */
			stats->rx_packets += ring->stats.rx_pkts; /* EXPECT: seqlint-seqcount-read-side-effect */
		}
	} while (u64_stats_fetch_retry(&ring->syncp, start));
}

void hns3_nic_get_stats64(struct hns3_nic_priv *priv,
			  struct rtnl_link_stats64 *stats)
{
	struct rtnl_link_stats64 ring_total_stats;
	int queue_num = priv->num_tqps;
	struct hns3_enet_ring *ring;
	int idx;

	if (priv->state & 1)
		return;

	__builtin_memset(&ring_total_stats, 0, sizeof(ring_total_stats));
	for (idx = 0; idx < queue_num; idx++) {
		/* fetch the tx stats */
		ring = &priv->ring[idx];
		hns3_fetch_stats(&ring_total_stats, ring, true);

		/* fetch the rx stats */
		ring = &priv->ring[idx + queue_num];
		hns3_fetch_stats(&ring_total_stats, ring, false);
	}

	stats->tx_bytes = ring_total_stats.tx_bytes;
	stats->tx_packets = ring_total_stats.tx_packets;
	stats->rx_bytes = ring_total_stats.rx_bytes;
	stats->rx_packets = ring_total_stats.rx_packets;
}
