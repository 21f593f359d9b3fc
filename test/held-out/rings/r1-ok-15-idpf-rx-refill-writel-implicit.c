// Modelled on: drivers/net/ethernet/intel/idpf/idpf_singleq_txrx.c:
//              idpf_rx_singleq_buf_hw_alloc_all(), idpf_rx_buf_hw_update() (Linux 6.12)
// Correct: the refill loop writes buffer addresses into RX descriptors and then moves
// the tail register with writel() and no explicit barrier ("writel has an implicit
// memory barrier", as the upstream comment says). On every architecture writel()
// orders earlier normal-memory writes before the MMIO write (x86: the MOV is ordered
// and has a "memory" clobber; arm64: __iowmb()). The device fetches descriptors only
// below the tail, so this is the only ordering it needs. next_to_use is private to
// the driver.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u64 __le64;
typedef u64 dma_addr_t;
#define cpu_to_le64(x)	((__le64)(x))

union rx_desc {
	struct { __le64 pkt_addr; __le64 hdr_addr; } read;
	struct { __le64 qword0; __le64 qword1; } wb;
};

struct rx_buf { void *page; u32 offset; };

struct rx_queue {
	union rx_desc *desc;
	struct rx_buf *rx_buf;
	u16 desc_count, next_to_use, next_to_alloc;
	u32 rx_buf_size;
	u32 __iomem *tail;
	u64 alloc_fail;
};

extern dma_addr_t rx_alloc_page(struct rx_queue *q, struct rx_buf *buf);

static inline void __raw_writel(u32 val, volatile u32 __iomem *addr)
{
	*addr = val;
}

/* arm64 shape: __iowmb() before the raw store */
static inline void writel(u32 val, volatile u32 __iomem *addr)
{
	dma_wmb();
	__raw_writel(val, addr);
}

static void rx_buf_hw_update(struct rx_queue *q, u32 val)
{
	q->next_to_use = (u16)val;
	if (unlikely(!q->tail))
		return;
	/* writel has an implicit memory barrier */
	writel(val, q->tail);
}

bool rx_refill(struct rx_queue *q, u16 cleaned_count)
{
	u16 nta = q->next_to_alloc;
	union rx_desc *d;
	struct rx_buf *buf;

	if (!cleaned_count)
		return false;

	d = &q->desc[nta];
	buf = &q->rx_buf[nta];
	do {
		dma_addr_t addr = rx_alloc_page(q, buf);

		if (!addr) {
			q->alloc_fail++;
			break;
		}
		d->read.pkt_addr = cpu_to_le64(addr);
		d->read.hdr_addr = 0;
		d++;
		buf++;
		nta++;
		if (unlikely(nta == q->desc_count)) {
			d = &q->desc[0];
			buf = q->rx_buf;
			nta = 0;
		}
		cleaned_count--;
	} while (cleaned_count);

	if (q->next_to_alloc != nta) {
		rx_buf_hw_update(q, nta);
		q->next_to_alloc = nta;
	}
	return !!cleaned_count;
}
