// Modelled on: drivers/net/ethernet/stmicro/stmmac/dwmac4_descs.c:dwmac4_rd_prepare_tx_desc(),
//              stmmac_main.c:stmmac_xmit(), stmmac_flush_tx_descriptors() (Linux 6.12)
// Pattern: TX descriptor ownership handed to the DMA engine with the OWN bit in des3,
//   written with no dma_wmb() after the rest of the frame's descriptors.
// The other side is the GMAC DMA engine. It fetches descriptors on its own, and for
// each one it checks OWN in des3 first; with OWN set it reads des0..des2 (buffer
// address, length). The fragment descriptors get OWN as they are filled, but the
// engine only starts a frame once the FIRST descriptor is owned. So every earlier
// store of the frame must be visible before that one des3 store. The upstream helper
// has dma_wmb() for exactly the "first descriptor with OWN" case. The doorbell later is
// fine: wmb() and then the tail-pointer write.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u32 __le32;
#define cpu_to_le32(x)		((__le32)(x))
#define le32_to_cpu(x)		((u32)(x))

#define TDES2_BUF1_SIZE_MASK	0x3fffu
#define TDES3_PKT_SIZE_MASK	0x7fffu
#define TDES3_CIC_FULL		(3u << 16)
#define TDES3_LAST_DESC		(1u << 28)
#define TDES3_FIRST_DESC	(1u << 29)
#define TDES3_OWN		(1u << 31)

struct dma_desc { __le32 des0, des1, des2, des3; };

struct tx_queue {
	struct dma_desc *dma_tx;	/* coherent ring */
	unsigned int cur_tx, ring_size;
	u32 tail_addr;
	volatile u32 __iomem *tail_reg;	/* DMA_CHAN_TX_END_ADDR */
	unsigned long tx_packets;
};

static inline void writel(u32 val, volatile u32 __iomem *addr)
{
	wmb();
	*addr = val;
}

static void txd_set_addr(struct dma_desc *p, u64 dma)
{
	p->des0 = cpu_to_le32((u32)dma);
	p->des1 = cpu_to_le32((u32)(dma >> 32));
}

static void txd_prepare(struct dma_desc *p, bool is_fs, unsigned int len,
			bool csum, bool tx_own, bool ls, unsigned int tot_len)
{
	u32 tdes3 = le32_to_cpu(p->des3);

	p->des2 |= cpu_to_le32(len & TDES2_BUF1_SIZE_MASK);

	tdes3 |= tot_len & TDES3_PKT_SIZE_MASK;
	tdes3 = is_fs ? tdes3 | TDES3_FIRST_DESC : tdes3 & ~TDES3_FIRST_DESC;
	tdes3 = csum ? tdes3 | TDES3_CIC_FULL : tdes3 & ~TDES3_CIC_FULL;
	tdes3 = ls ? tdes3 | TDES3_LAST_DESC : tdes3 & ~TDES3_LAST_DESC;

	/* Finally the OWN bit: the DMA may start right after this store. */
	if (tx_own)
		tdes3 |= TDES3_OWN;

	p->des3 = cpu_to_le32(tdes3); /* EXPECT: seqlint-mp-missing-barrier */
}

int txq_xmit(struct tx_queue *q, const u64 *frag_dma, const unsigned int *frag_len,
	     unsigned int nfrags, bool csum, unsigned int skb_len)
{
	unsigned int first_entry = q->cur_tx, entry = first_entry, i;
	struct dma_desc *first = &q->dma_tx[first_entry];

	/* Fragments first, each one owned by the DMA as soon as it is filled. */
	for (i = 1; i < nfrags; i++) {
		struct dma_desc *d;

		entry = (entry + 1) & (q->ring_size - 1);
		d = &q->dma_tx[entry];
		txd_set_addr(d, frag_dma[i]);
		txd_prepare(d, false, frag_len[i], csum, true, i == nfrags - 1, skb_len);
	}

	/* Then the first descriptor, which releases the whole frame. */
	txd_set_addr(first, frag_dma[0]);
	txd_prepare(first, true, frag_len[0], csum, true, nfrags == 1, skb_len);

	q->cur_tx = (entry + 1) & (q->ring_size - 1);
	q->tx_packets++;

	/* Doorbell: descriptors are in memory before the tail pointer moves. */
	q->tail_addr = q->cur_tx * (u32)sizeof(struct dma_desc);
	writel(q->tail_addr, q->tail_reg);
	return 0;
}
