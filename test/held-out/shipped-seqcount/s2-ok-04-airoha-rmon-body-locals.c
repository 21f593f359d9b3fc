// Modelled on: drivers/net/ethernet/airoha/airoha_eth.c:airoha_ethtool_get_rmon_stats()
//   (Linux 6.12)
// Correct: the do/while body declares its own locals -- the bucket index i
// (incremented inside the read section) and, in this version, an "undersize"
// sum built with "+=" -- so every retry starts them afresh. Everything that
// leaves the section is a plain store into the caller's ethtool_rmon_stats,
// which the last (validated) attempt overwrites. The undersize sum is an
// addition for this case; the rest follows the driver.
// FLAGS: -DBITS_PER_LONG=32
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ETHTOOL_RMON_HIST_MAX 10

struct ethtool_rmon_hist_range {
	u16 low;
	u16 high;
};

struct ethtool_rmon_stats {
	u64 undersize_pkts;
	u64 oversize_pkts;
	u64 fragments;
	u64 jabbers;
	u64 hist[ETHTOOL_RMON_HIST_MAX];
	u64 hist_tx[ETHTOOL_RMON_HIST_MAX];
};

struct airoha_hw_stats {
	spinlock_t lock;	/* protect concurrent hw_stats accesses */
	struct u64_stats_sync syncp;
	u64 rx_ok_pkts;
	u64 tx_ok_pkts;
	u64 rx_errors;
	u64 tx_len[7];
	u64 rx_runt;
	u64 rx_fragment;
	u64 rx_jabber;
	u64 rx_len[7];
};

struct airoha_gdm_port {
	int id;
	struct airoha_hw_stats stats;
};

static const struct ethtool_rmon_hist_range airoha_ethtool_rmon_ranges[] = {
	{ 0, 64 },
	{ 65, 127 },
	{ 128, 255 },
	{ 256, 511 },
	{ 512, 1023 },
	{ 1024, 1518 },
	{ 1519, 10239 },
	{},
};

void airoha_update_hw_stats(struct airoha_gdm_port *port);

void airoha_ethtool_get_rmon_stats(struct airoha_gdm_port *port,
				   struct ethtool_rmon_stats *stats,
				   const struct ethtool_rmon_hist_range **ranges)
{
	struct airoha_hw_stats *hw_stats = &port->stats;
	unsigned int start;

	BUILD_BUG_ON(ARRAY_SIZE(airoha_ethtool_rmon_ranges) !=
		     ARRAY_SIZE(hw_stats->tx_len) + 1);
	BUILD_BUG_ON(ARRAY_SIZE(airoha_ethtool_rmon_ranges) !=
		     ARRAY_SIZE(hw_stats->rx_len) + 1);

	*ranges = airoha_ethtool_rmon_ranges;
	airoha_update_hw_stats(port);
	do {
		u64 undersize = 0;
		int i;

		start = u64_stats_fetch_begin(&port->stats.syncp);
		stats->fragments = hw_stats->rx_fragment;
		stats->jabbers = hw_stats->rx_jabber;
		undersize += hw_stats->rx_runt;
		undersize += hw_stats->rx_fragment;
		for (i = 0; i < ARRAY_SIZE(airoha_ethtool_rmon_ranges) - 1;
		     i++) {
			stats->hist[i] = hw_stats->rx_len[i];
			stats->hist_tx[i] = hw_stats->tx_len[i];
		}
		stats->undersize_pkts = undersize;
	} while (u64_stats_fetch_retry(&port->stats.syncp, start));
}
