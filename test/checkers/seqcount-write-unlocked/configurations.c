// RUN: %clang_plugin -DBITS_PER_LONG=32 -fplugin-arg-seqlint-checks=seqcount-write-unlocked -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-write-unlocked, writers that serve two configurations of one
 * device. The shape is a NIC driver with two descriptor formats: a legacy
 * format handled only from NAPI, and an extended one whose devices also get
 * a dedicated rx interrupt. Each format has its own receive and refill
 * functions, and every place that needs one chooses by the device's format
 * (`if (!dev_extended(np)) legacy(); else extended();`). The legacy
 * writers run with bottom halves disabled only, but the interrupt handler
 * that also writes the statistics calls the extended ones, which a legacy
 * device never runs: the code's own test of the format says the two sets
 * are alternatives. An extended writer in NAPI is still interrupted by the
 * extended interrupt handler. A writer chosen by a test of the context
 * (in_irq()) or of a number (the budget) is no alternative: such a test
 * picks one call per run, and two runs can overlap.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>
#include "Inputs/entry-points.h"

struct napi_struct { int weight; int (*poll)(struct napi_struct *, int); };
struct net_device;
void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
		    int (*poll)(struct napi_struct *, int));
int in_irq(void);

struct nic {
	int desc_format;
	u64 rx_packets, rx_bytes, rx_drops;
	struct u64_stats_sync rx_syncp;
	struct napi_struct napi;
	struct net_device *dev;
};

static int dev_extended(struct nic *np)
{
	return np->desc_format == 3;
}

/* Legacy format: reached from NAPI only. Correct. */
static int rx_legacy(struct nic *np, int budget)
{
	u64_stats_update_begin(&np->rx_syncp);
	np->rx_packets += budget;
	u64_stats_update_end(&np->rx_syncp);
	return budget;
}

static void count_drop_legacy(struct nic *np)
{
	u64_stats_update_begin(&np->rx_syncp);
	np->rx_drops++;
	u64_stats_update_end(&np->rx_syncp);
}

static int refill_legacy(struct nic *np)
{
	count_drop_legacy(np);
	return 0;
}

/* Extended format: from NAPI and from the rx interrupt. */
static int rx_extended(struct nic *np, int budget)
{
	u64_stats_update_begin(&np->rx_syncp); // expected-warning {{write section of 'np->rx_syncp' runs with bottom halves disabled when reached from 'nic_poll', but 'nic_irq_rx' also writes it from a hard interrupt}}
	np->rx_packets += budget;
	np->rx_bytes += 64 * budget;
	u64_stats_update_end(&np->rx_syncp);
	return budget;
}

static int refill_extended(struct nic *np)
{
	u64_stats_update_begin(&np->rx_syncp); // expected-warning {{write section of 'np->rx_syncp' runs with bottom halves disabled when reached from 'nic_poll', but 'nic_irq_rx' also writes it from a hard interrupt}}
	np->rx_drops++;
	u64_stats_update_end(&np->rx_syncp);
	return 0;
}

static int nic_poll(struct napi_struct *napi, int budget)
{
	struct nic *np = container_of(napi, struct nic, napi);
	int done;

	if (!dev_extended(np)) {
		done = rx_legacy(np, budget);
		refill_legacy(np);
	} else {
		done = rx_extended(np, budget);
		refill_extended(np);
	}
	return done;
}

static irqreturn_t nic_irq_rx(int irq, void *data)
{
	struct nic *np = data;

	if (rx_extended(np, 16))
		refill_extended(np);
	return IRQ_HANDLED;
}

int nic_open(struct nic *np)
{
	netif_napi_add(np->dev, &np->napi, nic_poll);
	if (dev_extended(np))
		return request_irq(2, nic_irq_rx, 0, "rx", np);
	return 0;
}

/* Bug: the choice is by context, not by the device. */
struct tx_ring {
	u64 tx_packets;
	struct u64_stats_sync tx_syncp;
	struct napi_struct napi;
	struct net_device *dev;
};

static void tx_count_task(struct tx_ring *r)
{
	u64_stats_update_begin(&r->tx_syncp); // expected-warning {{write section of 'r->tx_syncp' runs with bottom halves disabled when reached from 'tx_poll', but 'tx_irq' also writes it from a hard interrupt}}
	r->tx_packets++;
	u64_stats_update_end(&r->tx_syncp);
}

static void tx_count_irq(struct tx_ring *r)
{
	u64_stats_update_begin(&r->tx_syncp); // expected-warning {{write section of 'r->tx_syncp' runs with bottom halves disabled when reached from 'tx_poll', but 'tx_irq' also writes it from a hard interrupt}}
	r->tx_packets++;
	u64_stats_update_end(&r->tx_syncp);
}

static void tx_count(struct tx_ring *r)
{
	if (in_irq())
		tx_count_irq(r);
	else
		tx_count_task(r);
}

static int tx_poll(struct napi_struct *napi, int budget)
{
	struct tx_ring *r = container_of(napi, struct tx_ring, napi);

	tx_count(r);
	return 0;
}

static irqreturn_t tx_irq(int irq, void *data)
{
	tx_count_irq(data);
	return IRQ_HANDLED;
}

int tx_open(struct tx_ring *r)
{
	netif_napi_add(r->dev, &r->napi, tx_poll);
	return request_irq(3, tx_irq, 0, "tx", r);
}

/* Bug: the choice is by a number (the budget), not by the device. */
struct cq {
	u64 completions;
	struct u64_stats_sync syncp;
	struct napi_struct napi;
	struct net_device *dev;
};

static void cq_count_bulk(struct cq *q, int n)
{
	u64_stats_update_begin(&q->syncp); // expected-warning {{write section of 'q->syncp' runs with bottom halves disabled when reached from 'cq_poll', but 'cq_irq' also writes it from a hard interrupt}}
	q->completions += n;
	u64_stats_update_end(&q->syncp);
}

static void cq_count_one(struct cq *q)
{
	u64_stats_update_begin(&q->syncp); // expected-warning {{write section of 'q->syncp' runs with bottom halves disabled when reached from 'cq_poll', but 'cq_irq' also writes it from a hard interrupt}}
	q->completions++;
	u64_stats_update_end(&q->syncp);
}

static int cq_poll(struct napi_struct *napi, int budget)
{
	struct cq *q = container_of(napi, struct cq, napi);

	if (budget > 16)
		cq_count_bulk(q, budget);
	else
		cq_count_one(q);
	return 0;
}

static irqreturn_t cq_irq(int irq, void *data)
{
	cq_count_one(data);
	return IRQ_HANDLED;
}

int cq_open(struct cq *q)
{
	netif_napi_add(q->dev, &q->napi, cq_poll);
	return request_irq(4, cq_irq, 0, "cq", q);
}
