// Modelled on: drivers/net/virtio_net.c:virtnet_poll()/virtnet_receive() and the combined rx/tx NAPI
//              of drivers/net/ethernet/cortina/gemini.c:gmac_napi_poll() (Linux 6.12)
// FLAGS: -DBITS_PER_LONG=32
// Correct: the per-queue stats and their u64_stats_sync have no lock, and they
// are written from three functions -- tx reclaim, rx clean and rx refill --
// but all three are only called from the queue's NAPI poll. NAPI runs one poll
// of a given napi_struct at a time (NAPI_STATE_SCHED), so there is a single
// writer context. The hard interrupt only schedules NAPI and the xmit path
// does not touch these counters; ndo_get_stats64 only reads.
#include <linux/types.h>
#include <linux/u64_stats_sync.h>

typedef enum { IRQ_NONE, IRQ_HANDLED } irqreturn_t;
struct net_device;
struct napi_struct { unsigned long state; int weight; };
extern void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
			   int (*poll)(struct napi_struct *, int));
extern bool napi_complete_done(struct napi_struct *n, int work_done);
extern void napi_schedule(struct napi_struct *n);
extern int request_threaded_irq(unsigned int irq, irqreturn_t (*h)(int, void *),
				irqreturn_t (*t)(int, void *), unsigned long flags,
				const char *name, void *dev);
#define container_of(p, type, member) ((type *)((char *)(p) - __builtin_offsetof(type, member)))

struct rtnl_link_stats64 { u64 rx_packets, tx_packets, rx_bytes, tx_bytes, rx_dropped; };
struct ring_stats {
	u64_stats_t rx_packets, rx_bytes, rx_drops, refills;
	u64_stats_t tx_packets, tx_bytes;
	struct u64_stats_sync syncp;
};

struct ring_queue { struct napi_struct napi; struct net_device *dev; unsigned int irq; struct ring_stats stats; };

extern int ring_hw_next_rx(struct ring_queue *q, unsigned int *len);	/* <0: empty, 0: ok, 1: bad frame */
extern int ring_hw_next_tx_done(struct ring_queue *q, unsigned int *len);
extern int ring_hw_post_rx_buffers(struct ring_queue *q);
extern void ring_hw_unmask_irq(struct ring_queue *q);

static void ring_clean_tx(struct ring_queue *q)
{
	unsigned int len, pkts = 0, bytes = 0;

	while (ring_hw_next_tx_done(q, &len) == 0) {
		pkts++;
		bytes += len;
	}
	u64_stats_update_begin(&q->stats.syncp);
	u64_stats_add(&q->stats.tx_packets, pkts);
	u64_stats_add(&q->stats.tx_bytes, bytes);
	u64_stats_update_end(&q->stats.syncp);
}

static int ring_clean_rx(struct ring_queue *q, int budget)
{
	unsigned int len, bytes = 0, drops = 0;
	int done = 0, r;

	while (done < budget && (r = ring_hw_next_rx(q, &len)) >= 0) {
		if (r) {
			drops++;
		} else {
			bytes += len;
			done++;
		}
	}
	u64_stats_update_begin(&q->stats.syncp);
	u64_stats_add(&q->stats.rx_packets, done);
	u64_stats_add(&q->stats.rx_bytes, bytes);
	u64_stats_add(&q->stats.rx_drops, drops);
	u64_stats_update_end(&q->stats.syncp);
	return done;
}

static void ring_refill(struct ring_queue *q)
{
	if (ring_hw_post_rx_buffers(q) > 0) {
		u64_stats_update_begin(&q->stats.syncp);
		u64_stats_inc(&q->stats.refills);
		u64_stats_update_end(&q->stats.syncp);
	}
}

static int ring_poll(struct napi_struct *napi, int budget)
{
	struct ring_queue *q = container_of(napi, struct ring_queue, napi);
	int done;

	ring_clean_tx(q);
	done = ring_clean_rx(q, budget);
	ring_refill(q);
	if (done < budget && napi_complete_done(napi, done))
		ring_hw_unmask_irq(q);
	return done;
}

static irqreturn_t ring_irq(int irq, void *data)
{
	napi_schedule(&((struct ring_queue *)data)->napi);
	return IRQ_HANDLED;
}

void ring_get_stats64(struct ring_queue *q, struct rtnl_link_stats64 *tot)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&q->stats.syncp);
		tot->rx_packets = u64_stats_read(&q->stats.rx_packets);
		tot->rx_bytes = u64_stats_read(&q->stats.rx_bytes);
		tot->tx_packets = u64_stats_read(&q->stats.tx_packets);
		tot->tx_bytes = u64_stats_read(&q->stats.tx_bytes);
	} while (u64_stats_fetch_retry(&q->stats.syncp, start));
}

int ring_queue_setup(struct ring_queue *q)
{
	u64_stats_init(&q->stats.syncp);
	netif_napi_add(q->dev, &q->napi, ring_poll);
	return request_threaded_irq(q->irq, ring_irq, NULL, 0, "ringq", q);
}
