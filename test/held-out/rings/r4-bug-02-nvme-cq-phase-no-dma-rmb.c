// Modelled on: drivers/nvme/host/pci.c:nvme_cqe_pending(), nvme_poll_cq(),
//              nvme_handle_cqe(), nvme_update_cq_head() (Linux 6.12; the bug as before b69e2ef24b7b)
// Shipped bug: Linux b69e2ef24b7b (Keith Busch, 2020): after 324b494c2862 inlined the
//   phase test into the poll loop, stale completion contents were observed (reported on
//   arm64); the fix added dma_rmb() in nvme_poll_cq() after nvme_cqe_pending().
//   FreeBSD's nvme(4) shipped the same defect and fixed it in D30995 (2021).
// A completion-queue consumer tests the phase bit of the next entry in a helper and
// then reads the entry's command id and result with no dma_rmb().
// The other side is the NVMe controller. It DMA-writes a 16-byte completion entry into
// the CQ (dma_alloc_coherent()) and writes the status word, whose bit 0 is the phase
// tag, as part of that entry; the host owns an entry once its phase equals the host's
// expected phase. Testing the phase and then reading command_id/result is
// load-then-load from device-written memory: without a read barrier after the phase
// test the CPU may satisfy the command_id load first, from the previous lap.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
#define le16_to_cpu(x)	((u16)(x))
#define le32_to_cpu(x)	((u32)(x))

struct cq_entry {
	__le64 result;
	__le16 sq_head;
	__le16 sq_id;
	u16 command_id;
	__le16 status;		/* bit 0: phase tag */
};

struct cq_ctx {
	struct cq_entry *cqes;	/* dma_alloc_coherent(), written by the controller */
	u16 q_depth;
	u16 cq_head;
	u8 cq_phase;
};

struct completion_sink {
	void (*complete)(struct completion_sink *s, u16 command_id, u16 status, u64 result);
	unsigned long spurious;
};

/* the phase tag tells whether the entry at head is new */
static inline bool cqe_pending(const struct cq_ctx *cq)
{
	const struct cq_entry *e = &cq->cqes[cq->cq_head];

	return (le16_to_cpu(READ_ONCE(e->status)) & 1) == cq->cq_phase; /* EXPECT: seqlint-mp-missing-barrier */
}

static inline void cq_advance(struct cq_ctx *cq)
{
	u32 next = cq->cq_head + 1u;

	if (next == cq->q_depth) {
		cq->cq_head = 0;
		cq->cq_phase ^= 1;
	} else {
		cq->cq_head = (u16)next;
	}
}

static void cq_handle(struct cq_ctx *cq, struct completion_sink *s, u16 idx)
{
	const struct cq_entry *e = &cq->cqes[idx];
	u16 cid = READ_ONCE(e->command_id);

	if (unlikely(cid == 0xffff)) {
		s->spurious++;
		return;
	}
	s->complete(s, cid, le16_to_cpu(e->status) >> 1, e->result);
}

int cq_poll(struct cq_ctx *cq, struct completion_sink *s)
{
	int found = 0;

	while (cqe_pending(cq)) {
		found++;
		cq_handle(cq, s, cq->cq_head);
		cq_advance(cq);
	}
	/* the caller rings the CQ head doorbell (not modelled) */
	return found;
}
