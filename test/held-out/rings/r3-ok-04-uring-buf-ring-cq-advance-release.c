// Modelled on: liburing src/include/liburing.h:io_uring_buf_ring_add(),
//              io_uring_buf_ring_advance(), __io_uring_buf_ring_cq_advance(),
//              io_uring_cq_advance() (liburing 2.6, with c44319a6bfb9), with a receive loop around them
// Shipped bug: "io_uring_buf_ring_cq_advance: ensure tail store is ordered with buffers" (c44319a6bfb9, 2024)
// The other side is the kernel. It consumes "provided buffers" from a ring the
// application shares with it. The kernel may run in an SQPOLL or io-wq thread, on
// another CPU. It loads br->tail and then reads addr/len/bid of the buffers below it.
// io_uring_buf_ring_advance() publishes the tail with a store-release. The combined
// "advance both the buffer ring and the CQ" helper did a plain br->tail += n. So on a
// CPU that reorders stores, the kernel could pick up a buffer slot before its
// addr/len were written. The tail store is a release in one helper and plain in the
// other. This file is the fix: the combined helper calls buf_ring_advance().
#include <stdatomic.h>
#include <stdint.h>

#define io_uring_smp_store_release(p, v)				\
	atomic_store_explicit((_Atomic __typeof__(*(p)) *)(p), (v),	\
			      memory_order_release)
#define io_uring_smp_load_acquire(p)					\
	atomic_load_explicit((_Atomic __typeof__(*(p)) *)(p),		\
			     memory_order_acquire)

struct io_uring_buf { uint64_t addr; uint32_t len; uint16_t bid; uint16_t resv; };
struct io_uring_buf_ring {
	union {
		struct { uint64_t resv1; uint32_t resv2; uint16_t resv3; uint16_t tail; };
		struct io_uring_buf bufs[0];
	};
};

struct uring_cqe { uint64_t user_data; int32_t res; uint32_t flags; };
struct uring_cq { unsigned *khead, *ktail; unsigned ring_mask; struct uring_cqe *cqes; };

#define IORING_CQE_F_BUFFER	(1U << 0)
#define IORING_CQE_BUFFER_SHIFT	16

static inline void buf_ring_add(struct io_uring_buf_ring *br, void *addr, unsigned len,
				unsigned short bid, int mask, int off)
{
	struct io_uring_buf *buf = &br->bufs[(br->tail + off) & mask];

	buf->addr = (unsigned long)(uintptr_t)addr;
	buf->len = len;
	buf->bid = bid;
}

/* Make 'count' new buffers visible to the kernel. */
static inline void buf_ring_advance(struct io_uring_buf_ring *br, int count)
{
	unsigned short new_tail = br->tail + count;

	io_uring_smp_store_release(&br->tail, new_tail);
}

static inline void cq_advance(struct uring_cq *cq, unsigned nr)
{
	if (nr)
		io_uring_smp_store_release(cq->khead, *cq->khead + nr);
}

/* Advance the buffer ring and the CQ together, saving an atomic. */
static inline void buf_ring_cq_advance(struct uring_cq *cq, struct io_uring_buf_ring *br,
				       int cq_count, int buf_count)
{
	buf_ring_advance(br, buf_count);
	cq_advance(cq, (unsigned)cq_count);
}

void bufs_setup(struct io_uring_buf_ring *br, char *base, unsigned bufsz, int nbufs)
{
	int i;

	br->tail = 0;
	for (i = 0; i < nbufs; i++)
		buf_ring_add(br, base + (unsigned)i * bufsz, bufsz, (unsigned short)i,
			     nbufs - 1, i);
	buf_ring_advance(br, nbufs);
}

int recv_loop_once(struct uring_cq *cq, struct io_uring_buf_ring *br, char *base,
		   unsigned bufsz, int nbufs, void (*consume)(const char *, int))
{
	unsigned head = *cq->khead, tail = io_uring_smp_load_acquire(cq->ktail);
	int seen = 0, nret = 0;

	for (; head != tail; head++, seen++) {
		const struct uring_cqe *cqe = &cq->cqes[head & cq->ring_mask];
		unsigned short bid;

		if (cqe->res <= 0 || !(cqe->flags & IORING_CQE_F_BUFFER))
			continue;
		bid = (unsigned short)(cqe->flags >> IORING_CQE_BUFFER_SHIFT);
		consume(base + (unsigned)bid * bufsz, cqe->res);
		/* hand the buffer straight back */
		buf_ring_add(br, base + (unsigned)bid * bufsz, bufsz, bid, nbufs - 1, nret++);
	}
	buf_ring_cq_advance(cq, br, seen, nret);
	return seen;
}
