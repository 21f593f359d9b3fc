// Modelled on: drivers/net/ethernet/cortina/gemini.c:gmac_clean_txq() (called from gmac_start_xmit())
//              vs gmac_irq()/gmac_update_hw_stats() (Linux 6.12; a 32-bit ARM SoC)
// Same bug class as: "net: stmmac: protect updates of 64-bit statistics counters" (38cc3c6dcc09, 2024)
// FLAGS: -DBITS_PER_LONG=32
// One u64_stats_sync ("ir" stats) is written by the hard interrupt handler and
// by the periodic MIB update, both under irq_lock with interrupts off, and by
// the tx reclaim done inside ndo_start_xmit, which runs with BH disabled and
// the tx queue lock but neither irq_lock nor interrupts off. The interrupt can
// arrive on the same CPU in the middle of the xmit path's write section, and
// another CPU's handler is not excluded either: two writers on one seqcount.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/u64_stats_sync.h>
#include <linux/spinlock.h>

typedef enum { NETDEV_TX_OK = 0, NETDEV_TX_BUSY = 0x10 } netdev_tx_t;
typedef enum { IRQ_NONE, IRQ_HANDLED } irqreturn_t;
typedef irqreturn_t (*irq_handler_t)(int, void *);
extern int request_threaded_irq(unsigned int irq, irq_handler_t handler, irq_handler_t thread_fn,
				unsigned long flags, const char *name, void *dev);
static inline int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
			      const char *name, void *dev)
{ return request_threaded_irq(irq, handler, NULL, flags, name, dev); }
extern u32 readl(const volatile void *addr);
extern void dev_kfree_skb_any(void *skb);

struct sk_buff { unsigned int len; u16 queue_mapping; };
struct net_device;
struct net_device_ops { int (*ndo_open)(struct net_device *dev);
			netdev_tx_t (*ndo_start_xmit)(struct sk_buff *skb, struct net_device *dev); };

struct cgm_txd { u32 status; u32 byte_count; u32 flags; };
enum { CGM_TX_OK = 0x1, CGM_TX_SOF = 0x2 };
struct cgm_txq { struct cgm_txd *ring; struct sk_buff **skb; unsigned int cptr; };

struct cgm_port {
	struct net_device *netdev;
	void *dma_base, *mac_base;
	unsigned int irq, txq_order;
	struct cgm_txq txq[4];
	spinlock_t irq_lock;			/* interrupt registers */
	struct u64_stats_sync ir_stats_syncp;
	u64 tx_packets, tx_bytes, tx_errors, rx_fifo_errors, rx_missed;
};

extern struct cgm_port *cgm_priv(struct net_device *dev);
extern int cgm_map_and_post(struct cgm_port *port, struct cgm_txq *txq, struct sk_buff *skb);

/* tx reclaim, called from ndo_start_xmit (BH off, tx queue lock held) */
static void cgm_clean_txq(struct cgm_port *port, struct cgm_txq *txq, unsigned int hw_rptr)
{
	unsigned int m = (1 << port->txq_order) - 1, c = txq->cptr;
	unsigned int pkts = 0, errs = 0;
	unsigned long bytes = 0;

	while (c != hw_rptr) {
		struct cgm_txd *d = &txq->ring[c];

		dev_kfree_skb_any(txq->skb[c]);
		c = (c + 1) & m;
		if (!(d->flags & CGM_TX_SOF))
			continue;
		if (!(d->status & CGM_TX_OK)) {
			errs++;
			continue;
		}
		pkts++;
		bytes += d->byte_count;
	}

	u64_stats_update_begin(&port->ir_stats_syncp); /* EXPECT: seqlint-seqcount-write-unlocked */
	port->tx_errors += errs;
	port->tx_packets += pkts;
	port->tx_bytes += bytes;
	u64_stats_update_end(&port->ir_stats_syncp);
	txq->cptr = c;
}

static netdev_tx_t cgm_start_xmit(struct sk_buff *skb, struct net_device *netdev)
{
	struct cgm_port *port = cgm_priv(netdev);
	struct cgm_txq *txq = &port->txq[skb->queue_mapping & 3];
	unsigned int r = readl(port->dma_base) & 0xffff;

	if (cgm_map_and_post(port, txq, skb))
		return NETDEV_TX_BUSY;
	cgm_clean_txq(port, txq, r);
	return NETDEV_TX_OK;
}

static irqreturn_t cgm_irq(int irq, void *data)
{
	struct cgm_port *port = cgm_priv(data);
	u32 st = readl(port->mac_base);

	if (!st)
		return IRQ_NONE;
	if (st & 0x4) {
		spin_lock(&port->irq_lock);
		u64_stats_update_begin(&port->ir_stats_syncp);
		port->rx_fifo_errors++;
		port->rx_missed += readl(port->mac_base + 0x10);
		u64_stats_update_end(&port->ir_stats_syncp);
		spin_unlock(&port->irq_lock);
	}
	return IRQ_HANDLED;
}

static int cgm_open(struct net_device *netdev)
{
	struct cgm_port *port = cgm_priv(netdev);

	return request_irq(port->irq, cgm_irq, 0x80 /* IRQF_SHARED */, "cgm", netdev);
}

const struct net_device_ops cgm_netdev_ops = {
	.ndo_open	= cgm_open,
	.ndo_start_xmit	= cgm_start_xmit,
};
