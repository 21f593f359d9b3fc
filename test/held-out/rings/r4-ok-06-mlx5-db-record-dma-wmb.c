// Modelled on: drivers/net/ethernet/mellanox/mlx5/core/en/txrx.h:mlx5e_notify_hw(),
//              en_tx.c:mlx5e_sq_xmit_wqe(), include/linux/mlx5/doorbell.h:mlx5_write64()
//              (Linux 6.12)
// Pattern: send-queue doorbell in two steps: the WQEs are built, then the doorbell
//   RECORD (a 32-bit word in host memory) is written, then the MMIO doorbell. This file
//   is the correct form, as upstream: dma_wmb() before the record, wmb() before the MMIO.
// The other side is the ConnectX NIC. The WQE ring and the doorbell record both live in
// coherent host memory (mlx5_db_alloc()/dma_alloc_coherent()). The NIC reads the record
// to learn the producer counter, not only when the MMIO "BlueFlame" doorbell is written:
// after an error recovery, after a dropped doorbell, or when it polls the record. So the
// WQE stores (control and data segments) must be visible before the record store, and
// the record before the MMIO write. dma_wmb() orders the WQE stores before the record
// store (both are coherent memory); wmb() orders the record before the raw MMIO store.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u32 __be32;
typedef u64 __be64;
typedef u64 dma_addr_t;
#define cpu_to_be32(x)	((__be32)__builtin_bswap32(x))
#define cpu_to_be64(x)	((__be64)__builtin_bswap64(x))

#define WQE_CTRL_CQ_UPDATE	(2 << 2)
#define OPCODE_SEND		0x0a
#define WQEBB_SHIFT		6

struct wqe_ctrl_seg { __be32 opmod_idx_opcode; __be32 qpn_ds; u8 signature; u8 rsvd[2]; u8 fm_ce_se; __be32 imm; };
struct wqe_data_seg { __be32 byte_count; __be32 lkey; __be64 addr; };
struct tx_wqe { struct wqe_ctrl_seg ctrl; struct wqe_data_seg data[3]; };

struct cyc_wq {
	struct tx_wqe *wqes;		/* coherent, read by the NIC */
	__be32 *db;			/* doorbell record, coherent, read by the NIC */
	u16 sz_m1;
};

struct txsq {
	struct cyc_wq wq;
	u16 pc;				/* producer counter, driver private */
	u32 sqn;
	u32 mkey;
	void __iomem *uar_map;		/* BlueFlame doorbell page */
	u64 xmit_more_skipped;
};

static inline void __raw_writeq(u64 val, volatile void __iomem *addr)
{
	*(volatile u64 __iomem *)addr = val;
}

static inline void db_write64(__be32 val[2], void __iomem *dest)
{
	__raw_writeq(*(u64 *)val, dest);
}

static inline void sq_notify_hw(struct cyc_wq *wq, u16 pc, void __iomem *uar_map,
				struct wqe_ctrl_seg *ctrl)
{
	ctrl->fm_ce_se |= WQE_CTRL_CQ_UPDATE;
	/* the WQE before the doorbell record */
	dma_wmb();

	*wq->db = cpu_to_be32(pc);

	/* the doorbell record before the MMIO doorbell */
	wmb();

	db_write64((__be32 *)ctrl, uar_map);
}

void sq_xmit(struct txsq *sq, const dma_addr_t *addr, const u32 *len, unsigned int nseg,
	     bool xmit_more)
{
	u16 pi = sq->pc & sq->wq.sz_m1;
	struct tx_wqe *wqe = &sq->wq.wqes[pi];
	struct wqe_ctrl_seg *cseg = &wqe->ctrl;
	unsigned int i;

	if (nseg > 3)
		nseg = 3;
	for (i = 0; i < nseg; i++) {
		wqe->data[i].addr = cpu_to_be64(addr[i]);
		wqe->data[i].lkey = cpu_to_be32(sq->mkey);
		wqe->data[i].byte_count = cpu_to_be32(len[i]);
	}
	cseg->opmod_idx_opcode = cpu_to_be32(((u32)sq->pc << 8) | OPCODE_SEND);
	cseg->qpn_ds = cpu_to_be32((sq->sqn << 8) | (nseg + 1));
	sq->pc++;

	if (xmit_more) {
		sq->xmit_more_skipped++;
		return;
	}
	sq_notify_hw(&sq->wq, sq->pc, sq->uar_map, cseg);
}
