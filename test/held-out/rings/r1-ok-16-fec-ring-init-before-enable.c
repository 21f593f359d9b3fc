// Modelled on: drivers/net/ethernet/freescale/fec_main.c:fec_enet_bd_init(), fec_restart()
//              (Linux 6.12)
// Correct: ring setup. All RX descriptors are given to the DMA (EMPTY set in the same
// store as the rest of the status) and all TX descriptors are cleared. The driver's
// ring cursors (bd.cur, dirty_tx) are reset with plain stores. None of this needs a
// barrier between the descriptor stores and the cursor or status stores: the engine is
// stopped (ECR.ETHEREN clear) and the rings are not reachable until the ring base
// registers are written and the engine is enabled. Those are writel() calls, and they
// order every earlier memory write before them. The final writel() to RDAR tells
// the engine that descriptors are ready.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u16 __fec16;
typedef u32 __fec32;
#define cpu_to_fec16(x)		((__fec16)(x))

#define BD_ENET_RX_EMPTY	0x8000
#define BD_ENET_RX_WRAP		0x2000
#define BD_ENET_TX_WRAP		0x2000
#define ECR_ETHEREN		0x2

struct bufdesc { __fec16 cbd_datlen; __fec16 cbd_sc; __fec32 cbd_bufaddr; };

struct bd_ring {
	struct bufdesc *base, *cur, *last;
	u32 dma;			/* bus address of base */
	int ring_size;
};

struct fec_priv {
	struct bd_ring rx, tx;
	struct bufdesc *dirty_tx;
	void **tx_skb;
	u32 __iomem *reg_rdsr, *reg_tdsr, *reg_ecr, *reg_rdar, *reg_mrbr;
	u32 rx_buf_size;
};

static inline void writel(u32 val, volatile u32 __iomem *addr)
{
	wmb();			/* __io_bw() */
	*addr = val;
}

static void bd_init(struct fec_priv *fep)
{
	struct bufdesc *bdp;
	int i;

	/* RX: every descriptor owned by the (stopped) engine */
	for (bdp = fep->rx.base; bdp <= fep->rx.last; bdp++)
		bdp->cbd_sc = cpu_to_fec16(bdp->cbd_bufaddr ? BD_ENET_RX_EMPTY : 0);
	bdp = fep->rx.last;
	bdp->cbd_sc |= cpu_to_fec16(BD_ENET_RX_WRAP);
	fep->rx.cur = fep->rx.base;

	/* TX: everything owned by the CPU and empty */
	for (i = 0, bdp = fep->tx.base; bdp <= fep->tx.last; bdp++, i++) {
		bdp->cbd_sc = 0;
		bdp->cbd_bufaddr = 0;
		fep->tx_skb[i] = NULL;
	}
	bdp = fep->tx.last;
	bdp->cbd_sc |= cpu_to_fec16(BD_ENET_TX_WRAP);
	fep->tx.cur = fep->tx.base;
	fep->dirty_tx = fep->tx.last;
}

void fec_restart(struct fec_priv *fep)
{
	/* engine is stopped here: fec_stop() cleared ETHEREN */
	bd_init(fep);

	writel(fep->rx.dma, fep->reg_rdsr);
	writel(fep->tx.dma, fep->reg_tdsr);
	writel(fep->rx_buf_size, fep->reg_mrbr);

	writel(ECR_ETHEREN, fep->reg_ecr);
	/* RX descriptors are ready */
	writel(0, fep->reg_rdar);
}
