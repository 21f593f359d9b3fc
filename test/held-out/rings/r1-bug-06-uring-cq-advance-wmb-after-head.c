// Modelled on: liburing src/liburing.h:io_uring_cq_advance(), io_uring_cqe_seen()
//              (liburing git, 2019, before ecefd7958eb3 which is in liburing-0.1)
// Shipped bug: "Fix the use of memory barriers" (ecefd7958eb3, 2019)
// The other side is the kernel. It is the producer of the CQ ring: it reads the
// process's CQ head to see which slots are free, and then overwrites them with new
// completions. The process reads each CQE and then moves the head. The slot loads
// must be done before the head store is visible, or the kernel can overwrite a CQE
// that is still being read. The shipped helper bumped the head and issued a write
// barrier AFTER the store. So nothing came between the CQE loads and the head store.
// The fix is a store-release of the head.
#include <stdatomic.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#define write_barrier()	__asm__ __volatile__("" ::: "memory")
#else
#define write_barrier()	__sync_synchronize()
#endif

#define io_uring_smp_load_acquire(p)					\
	atomic_load_explicit((_Atomic __typeof__(*(p)) *)(p),		\
			     memory_order_acquire)

struct uring_cqe {
	uint64_t user_data;
	int32_t res;
	uint32_t flags;
};

struct uring_cq {
	unsigned *khead;
	unsigned *ktail;
	unsigned *kring_mask;
	struct uring_cqe *cqes;
};

struct request {
	int32_t result;
	unsigned flags;
	void (*complete)(struct request *req);
};

static inline void cq_advance(struct uring_cq *cq, unsigned nr)
{
	if (nr) {
		*cq->khead += nr; /* EXPECT: seqlint-mp-missing-barrier */
		/*
		 * Ensure that the kernel sees our new head, the kernel has
		 * the matching read barrier.
		 */
		write_barrier();
	}
}

unsigned drain_completions(struct uring_cq *cq, unsigned budget)
{
	const unsigned mask = *cq->kring_mask;
	unsigned head = *cq->khead;
	unsigned tail = io_uring_smp_load_acquire(cq->ktail);
	unsigned n = 0;

	while (head != tail && n < budget) {
		const struct uring_cqe *cqe = &cq->cqes[head & mask];
		struct request *req = (struct request *)(uintptr_t)cqe->user_data;

		req->result = cqe->res;
		req->flags = cqe->flags;
		req->complete(req);
		head++;
		n++;
	}
	cq_advance(cq, n);
	return n;
}
