// Modelled on: drivers/nvme/host/pci.c:nvme_dbbuf_update_and_check_event(),
//              nvme_write_sq_db(), nvme_dbbuf_need_event() (Linux 6.12, with 07e860202d18)
// Shipped bug: "nvme-pci: add a memory barrier to nvme_dbbuf_update_and_check_event"
//   (Linux 4.19, 2018, https://lkml.org/lkml/2018/8/14/1031; 07e860202d18 as recalled,
//   the hash was not checked against a Linux clone). SPDK's userspace driver shipped the
//   same defect and fixed it in lib/nvme (f23e89c58e70, 2019, citing that thread).
// The other side is an emulated NVMe controller (QEMU, a hypervisor's vhost target).
// With the Doorbell Buffer Config feature the host does not write the MMIO doorbell for
// every command: it writes the new SQ tail into a "shadow doorbell" word in host memory
// (dma_alloc_coherent()) and then reads the controller's "event index" word from a second
// coherent page; only if the tail crossed the event index does it ring the MMIO doorbell.
// The controller does the mirror image: it writes the event index, then re-reads the
// shadow doorbell. This is store-then-load on both sides (Dekker): the host must make its
// shadow-doorbell store visible before it loads the event index, or both sides can miss
// each other and the queue stalls. The wmb() before the shadow store only orders the SQ
// entries before it; the fix adds mb() between the shadow store and the event-index
// load (the controller has the matching full barrier). This file is the fix.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u32 __le32;
typedef u64 dma_addr_t;
#define le32_to_cpu(x)	((u32)(x))
#define cpu_to_le32(x)	((__le32)(x))

struct sq_cmd { u8 opcode; u8 flags; u16 command_id; u32 nsid; u64 rsvd[7]; };

struct nvmeq {
	struct sq_cmd *sq_cmds;		/* dma_alloc_coherent() */
	u16 q_depth;
	u16 sq_tail;
	u16 last_sq_tail;
	u32 __iomem *q_db;		/* MMIO doorbell */
	__le32 *dbbuf_sq_db;		/* shadow doorbell, coherent host memory */
	__le32 *dbbuf_sq_ei;		/* event index, written by the controller */
};

static inline void writel(u32 val, volatile u32 __iomem *addr)
{
	wmb();
	*addr = val;
}

static inline int dbbuf_need_event(u16 event_idx, u16 new_idx, u16 old)
{
	return (u16)(new_idx - event_idx - 1) < (u16)(new_idx - old);
}

/* true if the MMIO doorbell still has to be written */
static bool dbbuf_update_and_check(u16 value, __le32 *db, __le32 *ei)
{
	u16 old_value, event_idx;

	if (!db)
		return true;

	/* the SQ entries before the shadow doorbell */
	wmb();

	old_value = (u16)le32_to_cpu(*db);
	*db = cpu_to_le32(value);

	/* the shadow doorbell before the event index (store then load) */
	mb();

	event_idx = (u16)le32_to_cpu(READ_ONCE(*ei));
	if (!dbbuf_need_event(event_idx, value, old_value))
		return false;
	return true;
}

void nvmeq_write_sq_db(struct nvmeq *q, bool write_sq)
{
	if (!write_sq) {
		u16 next_tail = q->sq_tail + 1;

		if (next_tail == q->q_depth)
			next_tail = 0;
		if (next_tail != q->last_sq_tail)
			return;
	}

	if (dbbuf_update_and_check(q->sq_tail, q->dbbuf_sq_db, q->dbbuf_sq_ei))
		writel(q->sq_tail, q->q_db);
	q->last_sq_tail = q->sq_tail;
}
