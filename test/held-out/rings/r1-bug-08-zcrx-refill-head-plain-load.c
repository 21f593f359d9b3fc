// Modelled on: liburing examples/zcrx.c:rq_nr_queued(), return_buffer(), process_recvzc()
//              (liburing 2.13)
// Shipped bug: "examples/zcrx: fix RQ consumption ordering" (603f83e31761, 2025)
// The other side is the kernel. With zero-copy receive, the process hands buffers
// back through a refill queue (RQ) that it shares with the kernel through mmap. The
// process is the producer: it writes an RQE at rq_tail & mask and store-releases
// *ktail. The kernel consumes RQEs and store-releases *khead when it has finished
// reading them. Before it overwrites a slot, the producer checks how much room is
// left by loading *khead. If that load is plain, the RQE stores after it can be
// done before the load. Then the process can overwrite a slot that the kernel is
// still reading. The "queue full" test is a control dependency, but this is C11 code
// with a plain load. The compiler may move that load, and C11 gives a control
// dependency no ordering. The load needs acquire (load -> store ordering).
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define IORING_ZCRX_AREA_SHIFT	48
#define IORING_ZCRX_AREA_MASK	(~(((uint64_t)1 << IORING_ZCRX_AREA_SHIFT) - 1))
#define IORING_CQE_F_MORE	(1U << 1)

#define io_uring_smp_store_release(p, v)				\
	atomic_store_explicit((_Atomic __typeof__(*(p)) *)(p), (v),	\
			      memory_order_release)

struct uring_cqe { uint64_t user_data; int32_t res; uint32_t flags; };
struct zcrx_cqe { uint64_t off; uint64_t __pad; };	/* follows a 32-byte CQE */
struct zcrx_rqe { uint64_t off; uint32_t len; uint32_t __pad; };

struct zcrx_rq {
	unsigned *khead;		/* kernel: consumer index */
	unsigned *ktail;		/* us: producer index */
	unsigned rq_tail;		/* private copy of *ktail */
	unsigned ring_entries;
	struct zcrx_rqe *rqes;
};

struct zcrx_ctx {
	struct zcrx_rq rq;
	char *area;
	uint64_t area_token;
	unsigned long received, dropped;
};

extern void verify_payload(const char *data, size_t len, unsigned long seq);

static unsigned rq_nr_queued(struct zcrx_rq *rq)
{
	return rq->rq_tail - *rq->khead; /* EXPECT: seqlint-mp-missing-barrier */
}

static void return_buffer(struct zcrx_ctx *ctx, const struct uring_cqe *cqe)
{
	const struct zcrx_cqe *rcqe = (const struct zcrx_cqe *)(cqe + 1);
	struct zcrx_rq *rq = &ctx->rq;
	struct zcrx_rqe *rqe;

	if (rq_nr_queued(rq) == rq->ring_entries) {
		fprintf(stderr, "refill queue is full, drop the buffer\n");
		ctx->dropped++;
		return;
	}
	rqe = &rq->rqes[rq->rq_tail & (rq->ring_entries - 1)];
	rqe->off = (rcqe->off & ~IORING_ZCRX_AREA_MASK) | ctx->area_token;
	rqe->len = (uint32_t)cqe->res;
	io_uring_smp_store_release(rq->ktail, ++rq->rq_tail);
}

int process_recvzc(struct zcrx_ctx *ctx, const struct uring_cqe *cqe)
{
	const struct zcrx_cqe *rcqe = (const struct zcrx_cqe *)(cqe + 1);
	uint64_t mask = ((uint64_t)1 << IORING_ZCRX_AREA_SHIFT) - 1;

	if (!(cqe->flags & IORING_CQE_F_MORE))
		return 1;	/* final CQE: stream finished */
	if (cqe->res < 0)
		return cqe->res;

	verify_payload(ctx->area + (rcqe->off & mask), (size_t)cqe->res, ctx->received);
	ctx->received += (unsigned long)cqe->res;
	return_buffer(ctx, cqe);
	return 0;
}
