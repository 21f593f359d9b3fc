// Modelled on: DPDK lib/eal/include/rte_seqcount.h:rte_seqcount_read_begin()/
//   rte_seqcount_read_retry() (hand-rolled) and app/test/test_seqlock.c:reader_run()
//   (DPDK 22.11).
// FLAGS: @dpdk@
// Worker lcores read a forwarding configuration (next-hop MAC, TX port, rate) that the
// control thread updates under an odd/even word named `cw`. The begin is an acquire
// load, but the recheck is a relaxed load with no
// rte_atomic_thread_fence(__ATOMIC_ACQUIRE) before it (rte_seqcount_read_retry() has
// one): the recheck may be satisfied before the loads of the configuration, and a
// worker can accept the MAC of one update with the port of another.
#include <stdint.h>
#include <stdbool.h>
#include <rte_atomic.h>
#include <rte_pause.h>
#include <rte_spinlock.h>
#include <rte_branch_prediction.h>

struct fwd_cfg {
	uint32_t cw;		/* odd while the control thread rewrites the fields */
	rte_spinlock_t wlock;	/* serializes control-plane writers */
	uint8_t dst_mac[6];
	uint16_t tx_port;
	uint16_t tx_queue;
	uint32_t rate_pps;
};

struct fwd_snapshot {
	uint8_t dst_mac[6];
	uint16_t tx_port;
	uint16_t tx_queue;
	uint32_t rate_pps;
};

void
fwd_cfg_get(const struct fwd_cfg *cfg, struct fwd_snapshot *snap)
{
	uint32_t begin;
	int i;

	for (;;) {
		begin = __atomic_load_n(&cfg->cw, __ATOMIC_ACQUIRE);
		if (unlikely(begin & 1)) {
			rte_pause();
			continue;
		}
		for (i = 0; i < 6; i++)
			snap->dst_mac[i] = cfg->dst_mac[i];
		snap->tx_port = cfg->tx_port;
		snap->tx_queue = cfg->tx_queue;
		snap->rate_pps = cfg->rate_pps;

		if (likely(__atomic_load_n(&cfg->cw, __ATOMIC_RELAXED) == begin)) /* EXPECT: seqlint-seqcount-read-missing-barrier */
			break;
	}
}

void
fwd_cfg_set(struct fwd_cfg *cfg, const struct fwd_snapshot *n)
{
	uint32_t cw;
	int i;

	rte_spinlock_lock(&cfg->wlock);
	cw = cfg->cw + 1;
	__atomic_store_n(&cfg->cw, cw, __ATOMIC_RELAXED);
	rte_atomic_thread_fence(__ATOMIC_RELEASE);

	for (i = 0; i < 6; i++)
		cfg->dst_mac[i] = n->dst_mac[i];
	cfg->tx_port = n->tx_port;
	cfg->tx_queue = n->tx_queue;
	cfg->rate_pps = n->rate_pps;

	__atomic_store_n(&cfg->cw, cw + 1, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&cfg->wlock);
}
