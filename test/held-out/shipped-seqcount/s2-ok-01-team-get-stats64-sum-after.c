// Modelled on: drivers/net/team/team_core.c:team_get_stats64() (Linux 6.12)
// Correct (the fixed kernel shape): inside the u64_stats fetch/retry loop the
// per-CPU counters are only copied into locals; the "+=" into the caller's
// rtnl_link_stats64 happens after the retry loop, once per CPU. The u32 drop
// counters are read with READ_ONCE() and summed outside any read section.
// A tool that treats every "+=" in the function as part of the section, or
// every store through "stats", would flag this.
// FLAGS: -DBITS_PER_LONG=32
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/u64_stats_sync.h>

#define NR_CPUS 8
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)
#define per_cpu_ptr(ptr, cpu) (&(ptr)[cpu])

struct rtnl_link_stats64 {
	u64 rx_packets;
	u64 tx_packets;
	u64 rx_bytes;
	u64 tx_bytes;
	u64 rx_dropped;
	u64 tx_dropped;
	u64 multicast;
	u64 rx_nohandler;
};

struct team_pcpu_stats {
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	u64_stats_t rx_multicast;
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	struct u64_stats_sync syncp;
	u32 rx_dropped;
	u32 tx_dropped;
	u32 rx_nohandler;
};

struct team {
	struct team_pcpu_stats *pcpu_stats;	/* per-cpu, [NR_CPUS] */
	int en_port_count;
};

void team_get_stats64(struct team *team, struct rtnl_link_stats64 *stats)
{
	struct team_pcpu_stats *p;
	u64 rx_packets, rx_bytes, rx_multicast, tx_packets, tx_bytes;
	u32 rx_dropped = 0, tx_dropped = 0, rx_nohandler = 0;
	unsigned int start;
	int i;

	for_each_possible_cpu(i) {
		p = per_cpu_ptr(team->pcpu_stats, i);
		do {
			start = u64_stats_fetch_begin(&p->syncp);
			rx_packets = u64_stats_read(&p->rx_packets);
			rx_bytes = u64_stats_read(&p->rx_bytes);
			rx_multicast = u64_stats_read(&p->rx_multicast);
			tx_packets = u64_stats_read(&p->tx_packets);
			tx_bytes = u64_stats_read(&p->tx_bytes);
		} while (u64_stats_fetch_retry(&p->syncp, start));

		stats->rx_packets += rx_packets;
		stats->rx_bytes += rx_bytes;
		stats->multicast += rx_multicast;
		stats->tx_packets += tx_packets;
		stats->tx_bytes += tx_bytes;
		/*
		 * rx_dropped, tx_dropped & rx_nohandler are u32,
		 * updated without syncp protection.
		 */
		rx_dropped += READ_ONCE(p->rx_dropped);
		tx_dropped += READ_ONCE(p->tx_dropped);
		rx_nohandler += READ_ONCE(p->rx_nohandler);
	}
	stats->rx_dropped = rx_dropped;
	stats->tx_dropped = tx_dropped;
	stats->rx_nohandler = rx_nohandler;
}
