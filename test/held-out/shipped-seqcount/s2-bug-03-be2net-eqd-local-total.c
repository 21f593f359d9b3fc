// Modelled on: drivers/net/ethernet/emulex/benet/be_main.c:be_get_new_eqd() (Linux 6.12,
//   before the fix)
// Shipped bug: "be2net: fix data race in be_get_new_eqd" (David Yang, Jan 2026,
//   upstream 302e5b481caa, Fixes: 209477704187)
// The per-EQ packet totals rx_pkts/tx_pkts are locals declared before the
// queue loops and summed with "+=" inside the u64_stats fetch/retry loops: a
// retry adds that queue's counter again, inflating the packet rate that picks
// the interrupt delay. The fix reads into a temporary and adds after the loop.
// FLAGS: -DBITS_PER_LONG=32
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/u64_stats_sync.h>

struct be_rx_stats { u64 rx_bytes; u64 rx_pkts; u32 rx_drops_no_skbs; struct u64_stats_sync sync; };
struct be_tx_stats { u64 tx_bytes; u64 tx_pkts; u64 tx_reqs; struct u64_stats_sync sync; };
struct be_rx_obj { struct be_rx_stats stats; int cq_id; };
struct be_tx_obj { struct be_tx_stats stats; int q_id; };

struct be_aic_obj {
	u32 min_eqd;
	u32 max_eqd;
	u32 prev_eqd;
	u32 et_eqd;
	unsigned long jiffies;
	u64 rx_pkts_prev;
	u64 tx_reqs_prev;
};

struct be_adapter {
	struct be_rx_obj rx_obj[16];
	struct be_tx_obj tx_obj[16];
	struct be_aic_obj aic_obj[16];
	int num_rx_qs, num_tx_qs, num_evt_qs;
	bool aic_enabled;
};

struct be_eq_obj {
	struct be_adapter *adapter;
	int idx;
};

#define for_all_rx_queues_on_eq(adapter, eqo, rxo, i)			\
	for (i = eqo->idx, rxo = &adapter->rx_obj[i]; i < adapter->num_rx_qs; \
	     i += adapter->num_evt_qs, rxo += adapter->num_evt_qs)
#define for_all_tx_queues_on_eq(adapter, eqo, txo, i)			\
	for (i = eqo->idx, txo = &adapter->tx_obj[i]; i < adapter->num_tx_qs; \
	     i += adapter->num_evt_qs, txo += adapter->num_evt_qs)

extern volatile unsigned long jiffies;
#define time_before(a, b) ((long)((a) - (b)) < 0)
unsigned int jiffies_to_msecs(unsigned long j);
void be_aic_update(struct be_aic_obj *aic, u64 rx_pkts, u64 tx_pkts, unsigned long now);

int be_get_new_eqd(struct be_eq_obj *eqo)
{
	struct be_adapter *adapter = eqo->adapter;
	int eqd, start;
	struct be_aic_obj *aic;
	struct be_rx_obj *rxo;
	struct be_tx_obj *txo;
	u64 rx_pkts = 0, tx_pkts = 0;
	unsigned long now;
	u32 pps, delta;
	int i;

	aic = &adapter->aic_obj[eqo->idx];
	if (!adapter->aic_enabled) {
		if (aic->jiffies)
			aic->jiffies = 0;
		return aic->et_eqd;
	}

	for_all_rx_queues_on_eq(adapter, eqo, rxo, i) {
		do {
			start = u64_stats_fetch_begin(&rxo->stats.sync);
			rx_pkts += rxo->stats.rx_pkts; /* EXPECT: seqlint-seqcount-read-side-effect */
		} while (u64_stats_fetch_retry(&rxo->stats.sync, start));
	}

	for_all_tx_queues_on_eq(adapter, eqo, txo, i) {
		do {
			start = u64_stats_fetch_begin(&txo->stats.sync);
			tx_pkts += txo->stats.tx_reqs; /* EXPECT: seqlint-seqcount-read-side-effect */
		} while (u64_stats_fetch_retry(&txo->stats.sync, start));
	}

	/* Skip, if wrapped around or first calculation */
	now = jiffies;
	if (!aic->jiffies || time_before(now, aic->jiffies) ||
	    rx_pkts < aic->rx_pkts_prev || tx_pkts < aic->tx_reqs_prev) {
		be_aic_update(aic, rx_pkts, tx_pkts, now);
		return aic->prev_eqd;
	}

	delta = jiffies_to_msecs(now - aic->jiffies);
	if (delta == 0)
		return aic->prev_eqd;

	pps = (((u32)(rx_pkts - aic->rx_pkts_prev) * 1000) / delta) +
	      (((u32)(tx_pkts - aic->tx_reqs_prev) * 1000) / delta);
	eqd = (pps / 15000) << 2;
	if (eqd < 8)
		eqd = 0;
	eqd = eqd < aic->max_eqd ? eqd : aic->max_eqd;
	eqd = eqd > aic->min_eqd ? eqd : aic->min_eqd;

	be_aic_update(aic, rx_pkts, tx_pkts, now);
	return eqd;
}
