// Modelled on: DPDK lib/eal/include/rte_seqcount.h (write_begin: relaxed store + release
//   fence; write_end: release store; read_begin: acquire load; read_retry: odd test,
//   acquire fence, relaxed load), hand-rolled with rte_smp_wmb()/rte_smp_rmb() as in
//   pre-C11 DPDK code, DPDK 22.11.
// FLAGS: @dpdk@
// Correct: a primary process publishes per-port counters in shared memory for secondary
// processes under an odd/even word hdr->w, written only by the primary's stats lcore.
// Writer: odd store, rte_smp_wmb(), data, rte_smp_wmb(), even store. Reader: load,
// wait while odd, rte_smp_rmb(), copy, rte_smp_rmb(), recheck.
#include <stdint.h>
#include <stdbool.h>
#include <rte_atomic.h>
#include <rte_pause.h>
#include <rte_branch_prediction.h>

#define SHM_MAX_PORTS	32

struct shm_hdr {
	volatile uint32_t w;
	uint32_t nb_ports;
};

struct shm_port_stats {
	uint64_t ipackets;
	uint64_t opackets;
	uint64_t ibytes;
	uint64_t obytes;
};

struct shm_stats {
	struct shm_hdr hdr;
	struct shm_port_stats port[SHM_MAX_PORTS];
};

void
shm_stats_publish(struct shm_stats *sh, const struct shm_port_stats *src, uint16_t n)
{
	struct shm_hdr *hdr = &sh->hdr;
	uint16_t i;

	if (n > SHM_MAX_PORTS)
		n = SHM_MAX_PORTS;

	hdr->w++;
	rte_smp_wmb();

	for (i = 0; i < n; i++)
		sh->port[i] = src[i];
	hdr->nb_ports = n;

	rte_smp_wmb();
	hdr->w++;
}

int
shm_stats_read_port(const struct shm_stats *sh, uint16_t port, struct shm_port_stats *out)
{
	uint32_t begin;
	uint16_t n;

	do {
		while (unlikely((begin = sh->hdr.w) & 1))
			rte_pause();
		rte_smp_rmb();
		n = sh->hdr.nb_ports;
		if (port < n)
			*out = sh->port[port];
		rte_smp_rmb();
	} while (sh->hdr.w != begin);

	return port < n ? 0 : -1;
}
