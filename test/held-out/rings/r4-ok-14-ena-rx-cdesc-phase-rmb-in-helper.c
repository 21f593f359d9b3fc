// Modelled on: drivers/net/ethernet/amazon/ena/ena_eth_com.c:ena_com_get_next_rx_cdesc(),
//              ena_com_cdesc_rx_pkt_get(), ena_com_rx_pkt() (Linux 6.12)
// Correct: the RX completion ring (dma_alloc_coherent(), entries of a run-time size,
// reached by byte arithmetic) is written by the ENA device, which sets the phase bit of
// each completion descriptor last. The helper that finds the next descriptor tests the
// phase with READ_ONCE() and issues dma_rmb() before it returns the pointer, so every
// load the caller makes through that pointer (status, length, req_id) is ordered after
// the phase load. The caller loops over the descriptors of one packet (until LAST) and
// never reads a descriptor the helper did not hand out. head and phase are
// driver-private and flip on wrap. (Upstream keeps a count of a partial packet across
// polls; here an incomplete packet rewinds head and phase, which is equivalent.)
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define EIO			5
#define CDESC_PHASE_SHIFT	24
#define CDESC_PHASE_MASK	(1u << CDESC_PHASE_SHIFT)
#define CDESC_LAST_MASK		(1u << 26)
#define CDESC_FIRST_MASK	(1u << 27)

struct rx_cdesc {
	u32 status;		/* phase, first, last, error bits */
	u16 length;
	u16 req_id;
	u32 hash;
	u16 sub_qid;
	u8 offset;
	u8 reserved;
};

struct io_cq {
	void *cdesc_virt;		/* coherent ring written by the device */
	u16 cdesc_entry_size;
	u16 q_depth;
	u16 head;
	u8 phase;
};

struct rx_buf_info { u16 len; u16 req_id; };

static inline void cq_inc_head(struct io_cq *cq)
{
	cq->head++;
	/* the expected phase flips on every wrap */
	if (unlikely((cq->head & (cq->q_depth - 1)) == 0))
		cq->phase ^= 1;
}

static struct rx_cdesc *next_rx_cdesc(struct io_cq *cq)
{
	u16 masked = cq->head & (cq->q_depth - 1);
	struct rx_cdesc *cdesc;
	u32 phase;

	cdesc = (struct rx_cdesc *)((uintptr_t)cq->cdesc_virt +
				    (uintptr_t)masked * cq->cdesc_entry_size);
	phase = (READ_ONCE(cdesc->status) & CDESC_PHASE_MASK) >> CDESC_PHASE_SHIFT;
	if (phase != cq->phase)
		return NULL;

	/* read the rest of the descriptor only after the phase bit */
	dma_rmb();
	return cdesc;
}

/* number of descriptors of the next packet, 0 if it is not complete yet */
int rx_pkt_get(struct io_cq *cq, struct rx_buf_info *bufs, u16 max_bufs, u32 *hash)
{
	u16 count = 0, head_start = cq->head;
	u8 phase_start = cq->phase;
	struct rx_cdesc *cdesc;
	u32 status;

	for (;;) {
		cdesc = next_rx_cdesc(cq);
		if (!cdesc)
			break;
		status = READ_ONCE(cdesc->status);
		if (count >= max_bufs)
			return -EIO;
		bufs[count].len = READ_ONCE(cdesc->length);
		bufs[count].req_id = READ_ONCE(cdesc->req_id);
		count++;
		cq_inc_head(cq);
		if (status & CDESC_LAST_MASK) {
			*hash = READ_ONCE(cdesc->hash);
			return count;
		}
	}
	/* packet not complete: rewind and try again at the next poll */
	cq->head = head_start;
	cq->phase = phase_start;
	return 0;
}
