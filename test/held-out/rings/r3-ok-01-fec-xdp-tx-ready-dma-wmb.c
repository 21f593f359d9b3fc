// Modelled on: drivers/net/ethernet/freescale/fec_main.c:fec_enet_txq_submit_frag_skb(),
//              fec_enet_txq_xmit_frame(), fec_enet_xdp_xmit() (Linux 6.4, with 9025944fddfe)
// Shipped bug: "net: fec: add dma_wmb to ensure correct descriptor values" (9025944fddfe, 2023)
// The other side is the FEC's uDMA, which walks the TX buffer descriptors and sends
// every BD whose status has READY set, reading cbd_bufaddr/cbd_datlen of that BD. The
// skb path writes address and length, then a barrier, then the status word with
// READY. The XDP transmit path, added later, wrote the same fields and set READY with
// no barrier. On i.MX8 (arm64) the engine could send a frame with a stale address or
// length. The fix added dma_wmb() before the status store (the same commit also added
// one before txq->bd.cur). This file is the fix.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u16 __fec16;
typedef u32 __fec32;
#define cpu_to_fec16(x)		((__fec16)(x))
#define cpu_to_fec32(x)		((__fec32)(x))

#define BD_ENET_TX_READY	0x8000
#define BD_ENET_TX_WRAP		0x2000
#define BD_ENET_TX_INTR		0x1000
#define BD_ENET_TX_LAST		0x0800
#define BD_ENET_TX_TC		0x0400
#define ENOMEM			12

struct bufdesc { __fec16 cbd_datlen; __fec16 cbd_sc; __fec32 cbd_bufaddr; };

struct txq {
	struct bufdesc *base, *cur, *last;
	void **tx_buf;
	u32 __iomem *reg_desc_active;
	unsigned long xdp_sent;
};

extern u32 fec_map(struct txq *q, const void *data, unsigned int len);

static inline void writel(u32 val, volatile u32 __iomem *addr)
{
	wmb();
	*addr = val;
}

static inline struct bufdesc *next_bd(struct bufdesc *bdp, struct txq *q)
{
	return bdp >= q->last ? q->base : bdp + 1;
}

/* skb path: one BD per fragment */
struct bufdesc *txq_submit_frag(struct txq *q, struct bufdesc *bdp, u32 addr,
				unsigned int len, bool last)
{
	u16 status = bdp == q->last ? BD_ENET_TX_WRAP : 0;

	status |= BD_ENET_TX_TC | BD_ENET_TX_READY;
	if (last)
		status |= BD_ENET_TX_LAST | BD_ENET_TX_INTR;

	bdp->cbd_bufaddr = cpu_to_fec32(addr);
	bdp->cbd_datlen = cpu_to_fec16(len);
	/* Make sure the updates to rest of the descriptor are
	 * performed before transferring ownership. */
	wmb();
	bdp->cbd_sc = cpu_to_fec16(status);
	return next_bd(bdp, q);
}

/* XDP path: one frame, one BD */
static int txq_xmit_frame(struct txq *q, void *frame, const void *data, unsigned int len)
{
	struct bufdesc *bdp = q->cur;
	u16 status = bdp == q->last ? BD_ENET_TX_WRAP : 0;
	u32 addr = fec_map(q, data, len);

	if (!addr)
		return -ENOMEM;
	q->tx_buf[bdp - q->base] = frame;
	status |= BD_ENET_TX_INTR | BD_ENET_TX_LAST;

	bdp->cbd_bufaddr = cpu_to_fec32(addr);
	bdp->cbd_datlen = cpu_to_fec16(len);

	/* Send it on its way: ready, interrupt when done, last BD, add CRC. */
	/* Make sure the updates to rest of the descriptor are performed
	 * before transferring ownership. */
	dma_wmb();
	status |= BD_ENET_TX_READY | BD_ENET_TX_TC;
	bdp->cbd_sc = cpu_to_fec16(status);

	bdp = next_bd(bdp, q);
	/* Make sure the update to bdp are performed before txq->bd.cur. */
	dma_wmb();
	q->cur = bdp;
	return 0;
}

int fec_xdp_xmit(struct txq *q, int n, void **frames, const void **data,
		 const unsigned int *len)
{
	int i, sent = 0;

	for (i = 0; i < n; i++) {
		if (txq_xmit_frame(q, frames[i], data[i], len[i]))
			break;
		sent++;
	}
	/* Trigger transmission start */
	writel(0, q->reg_desc_active);
	q->xdp_sent += sent;
	return sent;
}
