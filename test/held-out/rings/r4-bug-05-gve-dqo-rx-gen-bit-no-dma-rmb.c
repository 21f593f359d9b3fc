// Modelled on: drivers/net/ethernet/google/gve/gve_rx_dqo.c:gve_rx_poll_dqo(), gve_rx_dqo(),
//              gve_desc_dqo.h:struct gve_rx_compl_desc_dqo (Linux 6.12)
// Pattern: RX completion-queue poll loop that compares the generation bit of the next
//   completion descriptor with the expected one and then reads buf_id, the error bits
//   and the lengths with no dma_rmb() in between.
// The other side is the NIC (gVNIC). It DMA-writes 32-byte completion descriptors into
// a ring from dma_alloc_coherent() and flips the generation bit on every lap, so a slot
// whose generation differs from cur_gen_bit is new. The generation bit shares a 16-bit
// word with the packet length only; buf_id and the error flags are in other words, so
// the CPU can read them before the generation word and get the previous lap's buf_id.
// Upstream has dma_rmb() after the test ("Do not read data until we own the
// descriptor"). The buffer-queue refill and its doorbell are not shown.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
#define le16_to_cpu(x)	((u16)(x))
#define EINVAL		22
#define ENOMEM		12

#define CMPL_LEN_MASK		0x3fff
#define CMPL_GEN_SHIFT		14
#define CMPL_ERR_RX		0x04
#define CMPL_EOP		0x02

struct rx_cmpl_desc {
	u8 rxdid;
	u8 err_flags;		/* CMPL_ERR_RX */
	__le16 ptype;
	__le16 len_gen;		/* bits 0-13 length, bit 14 generation */
	__le16 hdr_len;
	u8 status;		/* CMPL_EOP */
	u8 reserved;
	__le16 buf_id;
	__le32 hash;
	__le64 ts_rsvd[2];
};

struct rx_buf_state { void *page; u32 offset; bool in_use; };

struct rx_complq {
	struct rx_cmpl_desc *ring;	/* written by the NIC */
	u32 head, mask;
	u32 num_free_slots;
	u8 cur_gen_bit;
};

struct rx_ring {
	struct rx_complq complq;
	struct rx_buf_state *bufs;
	u16 num_bufs;
	u64 rx_bytes, rx_packets, rx_errors, rx_nomem;
};

extern int rx_build_frame(struct rx_ring *rx, struct rx_buf_state *bs, u16 len, bool eop);

static inline u8 cmpl_gen(const struct rx_cmpl_desc *d)
{
	return (le16_to_cpu(d->len_gen) >> CMPL_GEN_SHIFT) & 1; /* EXPECT: seqlint-mp-missing-barrier */
}

static int rx_one(struct rx_ring *rx, const struct rx_cmpl_desc *d)
{
	u16 id = le16_to_cpu(d->buf_id);
	struct rx_buf_state *bs;

	if (unlikely(id >= rx->num_bufs))
		return -EINVAL;
	bs = &rx->bufs[id];
	if (unlikely(!bs->in_use))
		return -EINVAL;
	if (unlikely(d->err_flags & CMPL_ERR_RX)) {
		bs->in_use = false;
		return -EINVAL;
	}
	rx->rx_bytes += le16_to_cpu(d->len_gen) & CMPL_LEN_MASK;
	return rx_build_frame(rx, bs, le16_to_cpu(d->len_gen) & CMPL_LEN_MASK,
			      d->status & CMPL_EOP);
}

int rx_poll(struct rx_ring *rx, int budget)
{
	struct rx_complq *cq = &rx->complq;
	int done = 0, err;

	while (done < budget) {
		const struct rx_cmpl_desc *d = &cq->ring[cq->head];

		/* no more completions */
		if (cmpl_gen(d) == cq->cur_gen_bit)
			break;

		err = rx_one(rx, d);
		if (err == -ENOMEM)
			rx->rx_nomem++;
		else if (err < 0)
			rx->rx_errors++;
		else
			rx->rx_packets++;

		cq->head = (cq->head + 1) & cq->mask;
		cq->num_free_slots++;
		/* the generation flips when the ring wraps */
		cq->cur_gen_bit ^= (cq->head == 0);
		done++;
	}
	return done;
}
