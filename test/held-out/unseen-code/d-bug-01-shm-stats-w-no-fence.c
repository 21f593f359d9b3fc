// Modelled on: DPDK lib/eal/include/rte_seqcount.h:rte_seqcount_write_begin()/_end()
//   (hand-rolled, as applications did before DPDK 22.07 added rte_seqcount) and
//   app/test/test_seqlock.c:writer_run() (DPDK 22.11).
// FLAGS: @dpdk@
// A primary process publishes per-port counters in a memzone for secondary processes
// (proc-info style), guarded by an odd/even word hdr->w. The writer stores the odd
// value relaxed and goes straight to the counters: rte_seqcount_write_begin() has a
// release fence here. Without it (rte_smp_wmb() would do too) the counter stores may
// become visible before the odd w on arm64, and a secondary process reads a torn set.
#include <stdint.h>
#include <stdbool.h>
#include <rte_atomic.h>
#include <rte_pause.h>
#include <rte_branch_prediction.h>

#define SHM_MAX_PORTS	32

struct shm_hdr {
	uint32_t w;
	uint32_t nb_ports;
};

struct shm_port_stats {
	uint64_t ipackets;
	uint64_t opackets;
	uint64_t ibytes;
	uint64_t obytes;
	uint64_t imissed;
};

struct shm_stats {
	struct shm_hdr hdr;
	struct shm_port_stats port[SHM_MAX_PORTS];
};

struct port_counters {
	uint64_t rx_pkts, tx_pkts, rx_bytes, tx_bytes, rx_missed;
};

void
shm_stats_publish(struct shm_stats *sh, const struct port_counters *pc, uint16_t nb_ports)
{
	struct shm_hdr *hdr = &sh->hdr;
	uint32_t w;
	uint16_t i;

	if (nb_ports > SHM_MAX_PORTS)
		nb_ports = SHM_MAX_PORTS;

	w = hdr->w;
	__atomic_store_n(&hdr->w, w + 1, __ATOMIC_RELAXED);

	for (i = 0; i < nb_ports; i++) {
		sh->port[i].ipackets = pc[i].rx_pkts; /* EXPECT: seqlint-seqcount-write-missing-barrier */
		sh->port[i].opackets = pc[i].tx_pkts;
		sh->port[i].ibytes = pc[i].rx_bytes;
		sh->port[i].obytes = pc[i].tx_bytes;
		sh->port[i].imissed = pc[i].rx_missed;
	}
	hdr->nb_ports = nb_ports;

	__atomic_store_n(&hdr->w, w + 2, __ATOMIC_RELEASE);
}

int
shm_stats_read_port(const struct shm_stats *sh, uint16_t port, struct shm_port_stats *out)
{
	uint32_t begin;

	do {
		begin = __atomic_load_n(&sh->hdr.w, __ATOMIC_ACQUIRE);
		if (unlikely(begin & 1)) {
			rte_pause();
			continue;
		}
		if (port >= sh->hdr.nb_ports)
			return -1;
		*out = sh->port[port];
		rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((begin & 1) || __atomic_load_n(&sh->hdr.w, __ATOMIC_RELAXED) != begin);

	return 0;
}
