// Modelled on: io_uring/io_uring.c:__io_cqring_events(), io_cqe_cache_refill();
//              io_uring/io_uring.h:io_get_cqe_overflow(), io_fill_cqe_req(),
//              io_commit_cqring() (Linux 6.12)
// Correct: the kernel side of an io_uring completion queue. The CQ ring header and the
// CQE array are kernel pages that the application has mmap()ed (IORING_OFF_CQ_RING).
// - Free space: the kernel loads the application's cq.head with READ_ONCE() and only
//   if there is room does it hand out CQE slots and write them. The CQE stores are
//   control-dependent on the head load (a conditional return sits between them), which
//   orders load-then-store in the kernel memory model; the application pairs by
//   store-releasing cq.head after it has read the CQEs (liburing io_uring_cq_advance).
// - Publication: the CQEs are copied in with memcpy() and the tail is published with
//   smp_store_release() ("order cqe stores with ring update"); the application loads
//   the tail with an acquire.
// The cached tail and the slot cache are private to the kernel (under the CQ lock).
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define min(a, b)	((a) < (b) ? (a) : (b))
#define memcpy(d, s, n)	__builtin_memcpy(d, s, n)

struct uring_cqe { u64 user_data; s32 res; u32 flags; };
struct uring_ring_hdr { u32 head; u32 tail; };

struct uring_rings {			/* shared with user space through mmap */
	struct uring_ring_hdr sq, cq;
	u32 sq_ring_mask, cq_ring_mask;
	u32 cq_overflow;
	u32 cq_flags;
	struct uring_cqe cqes[];
};

struct uring_ctx {
	struct uring_rings *rings;
	u32 cq_entries;
	u32 cached_cq_tail;		/* kernel private */
	struct uring_cqe *cqe_cached;	/* next free slot, kernel private */
	struct uring_cqe *cqe_sentinel;
	u64 overflowed;
};

struct completion { struct uring_cqe cqe; };

static inline u32 cqring_events(struct uring_ctx *ctx)
{
	return ctx->cached_cq_tail - READ_ONCE(ctx->rings->cq.head);
}

static bool cqe_cache_refill(struct uring_ctx *ctx)
{
	u32 off = ctx->cached_cq_tail & (ctx->cq_entries - 1);
	u32 queued, free, len;

	/* user space may cheat with the head: clamp */
	queued = min(cqring_events(ctx), ctx->cq_entries);
	free = ctx->cq_entries - queued;
	len = min(free, ctx->cq_entries - off);
	if (!len)
		return false;

	ctx->cqe_cached = &ctx->rings->cqes[off];
	ctx->cqe_sentinel = ctx->cqe_cached + len;
	return true;
}

static inline bool get_cqe(struct uring_ctx *ctx, struct uring_cqe **ret)
{
	if (unlikely(ctx->cqe_cached >= ctx->cqe_sentinel)) {
		if (unlikely(!cqe_cache_refill(ctx)))
			return false;
	}
	*ret = ctx->cqe_cached;
	ctx->cached_cq_tail++;
	ctx->cqe_cached++;
	return true;
}

static inline void commit_cqring(struct uring_ctx *ctx)
{
	/* the CQE stores before the new tail */
	smp_store_release(&ctx->rings->cq.tail, ctx->cached_cq_tail);
}

unsigned int post_completions(struct uring_ctx *ctx, const struct completion *c, unsigned int n)
{
	unsigned int i, posted = 0;
	struct uring_cqe *cqe;

	for (i = 0; i < n; i++) {
		if (unlikely(!get_cqe(ctx, &cqe))) {
			ctx->overflowed++;
			continue;
		}
		memcpy(cqe, &c[i].cqe, sizeof(*cqe));
		posted++;
	}
	if (posted)
		commit_cqring(ctx);
	return posted;
}
