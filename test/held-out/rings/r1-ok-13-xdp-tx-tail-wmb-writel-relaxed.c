// Modelled on: drivers/net/ethernet/intel/i40e/i40e_txrx.c:i40e_xmit_xdp_ring(),
//              i40e_xdp_ring_update_tail(), i40e_finalize_xdp_rx() (Linux 6.12)
// Pattern: XDP_TX doorbell through writel_relaxed(), fixed: wmb() before it, as upstream.
// The other side is the NIC. When the tail register moves, it fetches the
// descriptors below the new tail by DMA. writel() would order earlier normal-memory
// stores before the MMIO write. writel_relaxed() does not order anything against
// normal memory (Documentation/driver-api/device-io.rst), so the descriptors written
// in the NAPI loop can still be in flight when the device fetches them. Upstream does
// wmb(); writel_relaxed(). The smp_wmb() before next_to_watch is for the TX clean path
// on another CPU and is correct.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u64 __le64;
typedef u64 dma_addr_t;
#define cpu_to_le64(x)		((__le64)(x))
#define TXD_CMD_EOP		0x1ull
#define TXD_CMD_RS		0x2ull
#define TXD_CMD_ICRC		0x4ull
#define TXD_CMD_SHIFT		4
#define TXD_BUF_SZ_SHIFT	34
#define XDP_TX_OK		2
#define XDP_CONSUMED		1

struct tx_desc { __le64 buffer_addr; __le64 cmd_type_offset_bsz; };
struct tx_buffer { struct tx_desc *next_to_watch; void *frame; u32 bytecount; dma_addr_t dma; };

struct xdp_ring {
	struct tx_desc *desc;		/* coherent ring */
	struct tx_buffer *tx_bi;
	u16 count, next_to_use, next_to_clean;
	u32 xdp_tx_active;
	u32 __iomem *tail;
	u64 tx_busy;
};

extern dma_addr_t xdp_map_frame(struct xdp_ring *r, void *data, u32 len);

/* x86 <asm/io.h> shape: writel_relaxed() is the bare MMIO store */
static inline void writel_relaxed(u32 val, volatile u32 __iomem *addr)
{
	*addr = val;
}

static inline u16 ring_unused(const struct xdp_ring *r)
{
	u16 ntc = r->next_to_clean, ntu = r->next_to_use;

	return (u16)(((ntc > ntu) ? 0 : r->count) + ntc - ntu - 1);
}

int xdp_xmit_frame(struct xdp_ring *r, void *data, u32 size)
{
	u16 index = r->next_to_use;
	struct tx_buffer *bi = &r->tx_bi[index];
	struct tx_desc *d = &r->desc[index];
	dma_addr_t dma;

	if (unlikely(ring_unused(r) < 1)) {
		r->tx_busy++;
		return XDP_CONSUMED;
	}
	dma = xdp_map_frame(r, data, size);
	if (!dma)
		return XDP_CONSUMED;

	bi->bytecount = size;
	bi->frame = data;
	bi->dma = dma;
	d->buffer_addr = cpu_to_le64(dma);
	d->cmd_type_offset_bsz = cpu_to_le64(((TXD_CMD_ICRC | TXD_CMD_EOP | TXD_CMD_RS)
					      << TXD_CMD_SHIFT) |
					     ((u64)size << TXD_BUF_SZ_SHIFT));

	/* status bits before next_to_watch, for the clean path on another CPU */
	smp_wmb();
	r->xdp_tx_active++;
	bi->next_to_watch = d;
	if (++index == r->count)
		index = 0;
	r->next_to_use = index;
	return XDP_TX_OK;
}

static inline void xdp_ring_update_tail(struct xdp_ring *r)
{
	/* Force memory writes to complete before letting h/w know there
	 * are new descriptors to fetch. */
	wmb();
	writel_relaxed(r->next_to_use, r->tail);
}

/* end of a NAPI poll that ran XDP programs */
void xdp_finalize_rx(struct xdp_ring *r, unsigned int xdp_res)
{
	if (xdp_res & XDP_TX_OK)
		xdp_ring_update_tail(r);
}
