// Modelled on: io_uring/io_uring.h:io_sqring_entries(), io_uring/io_uring.c:io_get_sqe(),
//              io_submit_sqes(), io_commit_sqring() (Linux 6.12)
// Pattern: the kernel side of an io_uring submission queue reading the SQ tail and
//   then the SQ array and the SQEs. This file is the correct form, as upstream:
//   smp_load_acquire() of the tail ("make sure SQ entry isn't read before tail").
// The other side is the application. The SQ ring header, the SQ index array and the
// SQE array are kernel pages that the process has mmap()ed (IORING_OFF_SQ_RING,
// IORING_OFF_SQES). The application fills an SQE and the array slot, then
// store-releases sq.tail (liburing io_uring_smp_store_release). The kernel, on
// io_uring_enter() or in the SQPOLL thread on another CPU, compares the tail with its
// cached head and reads the entries below it. The tail load must be an acquire (or be
// followed by smp_rmb()), or the SQE loads can be satisfied before the tail load and
// return what the application wrote a lap earlier. The head is given back with a
// store-release once the SQEs are read; that half is correct here.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define min(a, b)	((a) < (b) ? (a) : (b))

struct uring_sqe { u8 opcode; u8 flags; u16 ioprio; s32 fd; u64 off; u64 addr; u32 len; u32 op_flags; u64 user_data; u64 pad[3]; };

struct uring_sq_hdr { u32 head; u32 tail; };
struct uring_rings {			/* shared with user space through mmap */
	struct uring_sq_hdr sq;
	struct uring_sq_hdr cq;
	u32 sq_ring_mask, cq_ring_mask;
	u32 sq_dropped;
	u32 sq_flags;
};

struct uring_ctx {
	struct uring_rings *rings;
	u32 *sq_array;			/* user-written slot -> SQE index */
	const struct uring_sqe *sq_sqes;
	u32 sq_entries;
	u32 cached_sq_head;		/* kernel private */
};

extern int issue_sqe(struct uring_ctx *ctx, const struct uring_sqe *sqe);

static inline u32 sqring_entries(struct uring_ctx *ctx)
{
	struct uring_rings *rings = ctx->rings;
	u32 entries;

	/* make sure no SQ entry is read before the tail */
	entries = smp_load_acquire(&rings->sq.tail) - ctx->cached_sq_head;
	return min(entries, ctx->sq_entries);
}

static bool get_sqe(struct uring_ctx *ctx, const struct uring_sqe **sqe)
{
	u32 mask = ctx->sq_entries - 1;
	u32 head = ctx->cached_sq_head++ & mask;

	head = READ_ONCE(ctx->sq_array[head]);
	if (unlikely(head >= ctx->sq_entries)) {
		WRITE_ONCE(ctx->rings->sq_dropped, READ_ONCE(ctx->rings->sq_dropped) + 1);
		return false;
	}
	*sqe = &ctx->sq_sqes[head];
	return true;
}

static void commit_sqring(struct uring_ctx *ctx)
{
	/* the SQE loads before the application may reuse the slots */
	smp_store_release(&ctx->rings->sq.head, ctx->cached_sq_head);
}

int submit_sqes(struct uring_ctx *ctx, unsigned int nr)
{
	u32 entries = sqring_entries(ctx);
	unsigned int left, submitted = 0;

	if (unlikely(!entries))
		return 0;
	left = min(nr, entries);
	do {
		const struct uring_sqe *sqe;

		if (unlikely(!get_sqe(ctx, &sqe)))
			continue;
		if (issue_sqe(ctx, sqe) == 0)
			submitted++;
	} while (--left);

	commit_sqring(ctx);
	return (int)submitted;
}
