// Modelled on: drivers/net/ethernet/intel/igb/igb_main.c:igb_tx_map(), igb_clean_tx_irq()
//              (Linux 6.12)
// Correct: the transmit path writes the data descriptors, then dma_wmb(), then
// next_to_watch (read by the clean path on another CPU), and then it rings the
// doorbell with writel(). writel() already orders all earlier memory writes before
// the MMIO write, so no wmb() is needed right before it. The dma_wmb() is there for
// next_to_watch. The clean path loads next_to_watch with READ_ONCE, and its
// smp_rmb() orders that load before the DD status load. After it sees DD it clears
// next_to_watch and frees the buffer.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u32 __le32;
typedef u64 __le64;
#define cpu_to_le32(x)		((__le32)(x))
#define cpu_to_le64(x)		((__le64)(x))
#define TXD_DCMD		(0x0b000000u)	/* EOP | IFCS | RS */
#define TXD_STAT_DD		0x1u

union adv_tx_desc {
	struct { __le64 buffer_addr; __le32 cmd_type_len; __le32 olinfo_status; } read;
	struct { __le64 rsvd; __le32 nxtseq_seed; __le32 status; } wb;
};

struct tx_buffer {
	union adv_tx_desc *next_to_watch;
	unsigned long time_stamp;
	void *skb;
	u32 bytecount;
};

struct tx_ring {
	union adv_tx_desc *desc;
	struct tx_buffer *buffer_info;
	u16 count, next_to_use, next_to_clean;
	u32 __iomem *tail;
	unsigned long jiffies_now;
	u64 packets, bytes;
};

extern void tx_free_skb(void *skb);

static inline void writel(u32 val, volatile u32 __iomem *addr)
{
	/* x86: a "memory"-clobbering MOV; other arches put wmb() (__io_bw) here */
	asm volatile("movl %0,%1" : : "r"(val), "m"(*addr) : "memory");
}

int tx_map(struct tx_ring *r, void *skb, const u64 *dma, const u32 *len,
	   unsigned int nfrags, bool xmit_more)
{
	struct tx_buffer *first = &r->buffer_info[r->next_to_use];
	union adv_tx_desc *d = NULL;
	u16 i = r->next_to_use;
	unsigned int f;
	u32 total = 0;

	for (f = 0; f < nfrags; f++) {
		d = &r->desc[i];
		d->read.buffer_addr = cpu_to_le64(dma[f]);
		d->read.cmd_type_len = cpu_to_le32(len[f] | (f == nfrags - 1 ? TXD_DCMD : 0));
		d->read.olinfo_status = 0;
		total += len[f];
		if (++i == r->count)
			i = 0;
	}
	first->skb = skb;
	first->bytecount = total;
	first->time_stamp = r->jiffies_now;

	/* descriptor status bits before next_to_watch */
	dma_wmb();
	first->next_to_watch = d;
	r->next_to_use = i;

	if (!xmit_more)
		writel(i, r->tail);
	return 0;
}

bool tx_clean(struct tx_ring *r, unsigned int budget)
{
	u16 i = r->next_to_clean;

	while (budget--) {
		struct tx_buffer *buf = &r->buffer_info[i];
		union adv_tx_desc *eop = READ_ONCE(buf->next_to_watch);

		if (!eop)
			break;
		/* next_to_watch before the status it points at */
		smp_rmb();
		if (!(READ_ONCE(eop->wb.status) & cpu_to_le32(TXD_STAT_DD)))
			break;

		buf->next_to_watch = NULL;
		r->packets++;
		r->bytes += buf->bytecount;
		tx_free_skb(buf->skb);
		buf->skb = NULL;
		i = (u16)((eop - r->desc) + 1);
		if (i == r->count)
			i = 0;
	}
	r->next_to_clean = i;
	return budget != 0;
}
