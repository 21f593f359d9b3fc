// Modelled on: drivers/net/ethernet/airoha/airoha_eth.c:airoha_qdma_rx_process(),
//              airoha_qdma_fill_rx_queue() (Linux 6.12)
// Shipped bug: "net: airoha: Add dma_rmb() and READ_ONCE() in airoha_qdma_rx_process()" (4ae0604a0673, 2026)
// The other side is the QDMA engine. It DMAs a frame into the buffer, writes the msg
// words of the descriptor, and then sets DONE in desc->ctrl. The driver polls ctrl.
// Once it sees DONE it reads the buffer address and msg0/msg1 (source port, DSA tag)
// of the same descriptor. Without dma_rmb() after the DONE test, a weakly ordered CPU
// may load those words before the engine has written them, and the frame goes to the
// wrong port. The refill side is correct: writel() orders the descriptor writes
// before the CPU index moves.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u32 __le32;
#define le32_to_cpu(x)		((u32)(x))
#define cpu_to_le32(x)		((__le32)(x))

#define QDMA_DESC_DONE		(1u << 31)
#define QDMA_DESC_LEN_MASK	0xffffu
#define RXMSG_SPORT_SHIFT	25
#define RXMSG_SPORT_MASK	0xfu
#define NUM_PORTS		4

struct qdma_desc {
	__le32 rsv, ctrl, addr, data;
	__le32 msg0, msg1, msg2, msg3;
};

struct rx_entry { void *buf; u32 dma_addr; u32 dma_len; };

struct rx_queue {
	struct qdma_desc *desc;		/* coherent DMA memory */
	struct rx_entry *entry;
	int ndesc, head, tail, queued;
	u32 buf_size;
	volatile u32 __iomem *cpu_idx;	/* REG_RX_CPU_IDX(qid) */
	unsigned long rx_dropped;
};

extern void *rxq_page_alloc(struct rx_queue *q, u32 *dma_addr);
extern void rxq_page_recycle(struct rx_queue *q, void *buf);
extern void rxq_deliver(struct rx_queue *q, void *buf, int len, int port, u32 sptag);

/* <asm-generic/io.h> shape: __io_bw() is wmb() */
static inline void writel(u32 val, volatile u32 __iomem *addr)
{
	wmb();
	*addr = val;
}

static int rxq_refill(struct rx_queue *q)
{
	int nframes = 0;

	while (q->queued < q->ndesc - 1) {
		struct rx_entry *e = &q->entry[q->head];
		struct qdma_desc *desc = &q->desc[q->head];
		u32 dma;
		void *buf = rxq_page_alloc(q, &dma);

		if (!buf)
			break;
		q->head = (q->head + 1) % q->ndesc;
		q->queued++;
		nframes++;

		e->buf = buf;
		e->dma_addr = dma;
		e->dma_len = q->buf_size;
		WRITE_ONCE(desc->ctrl, cpu_to_le32(e->dma_len & QDMA_DESC_LEN_MASK));
		WRITE_ONCE(desc->addr, cpu_to_le32(dma));
		WRITE_ONCE(desc->data, cpu_to_le32(q->head));
		WRITE_ONCE(desc->msg0, 0);
		WRITE_ONCE(desc->msg1, 0);
		writel(q->head, q->cpu_idx);
	}
	return nframes;
}

int rxq_poll(struct rx_queue *q, int budget)
{
	int done = 0;

	while (done < budget) {
		struct rx_entry *e = &q->entry[q->tail];
		struct qdma_desc *desc = &q->desc[q->tail];
		u32 ctrl, addr, msg0, msg1;
		int len, port;

		ctrl = le32_to_cpu(desc->ctrl); /* EXPECT: seqlint-mp-missing-barrier */
		if (!(ctrl & QDMA_DESC_DONE))
			break;

		addr = le32_to_cpu(desc->addr);
		len = ctrl & QDMA_DESC_LEN_MASK;
		if (!addr || !len)
			break;

		q->tail = (q->tail + 1) % q->ndesc;
		q->queued--;

		msg1 = le32_to_cpu(desc->msg1);
		port = (msg1 >> RXMSG_SPORT_SHIFT) & RXMSG_SPORT_MASK;
		if (port >= NUM_PORTS) {
			q->rx_dropped++;
			rxq_page_recycle(q, e->buf);
			continue;
		}
		msg0 = le32_to_cpu(desc->msg0);
		rxq_deliver(q, e->buf, len, port, msg0 & 0xff);
		done++;
	}
	rxq_refill(q);
	return done;
}
