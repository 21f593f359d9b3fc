// Modelled on: liburing src/liburing.h:io_uring_for_each_cqe(), src/queue.c:__io_uring_get_cqe()
//              (liburing git, 2019, before ecefd7958eb3 which is in liburing-0.1)
// Shipped bug: "Fix the use of memory barriers" (ecefd7958eb3, 2019)
// The other side is the kernel. It fills a CQE in the ring it shares with the process
// through mmap, then store-releases the CQ tail. The process compares its head with
// the tail and reads the CQE at head & mask. The shipped macro called read_barrier()
// BEFORE loading the tail. Nothing ordered the tail load before the CQE loads, so on
// arm64 a CQE could be read before the kernel had filled it. The fix made the tail
// load io_uring_smp_load_acquire(). The head update is shown here in its fixed form
// (release); r1-bug-06 is the shipped version of that half.
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>

#if defined(__x86_64__) || defined(__i386__)
#define read_barrier()	__asm__ __volatile__("" ::: "memory")
#else
#define read_barrier()	__sync_synchronize()
#endif

#define io_uring_smp_store_release(p, v)				\
	atomic_store_explicit((_Atomic __typeof__(*(p)) *)(p), (v),	\
			      memory_order_release)

struct uring_cqe {
	uint64_t user_data;
	int32_t res;
	uint32_t flags;
};

struct uring_cq {			/* pointers into the mmap()ed CQ ring */
	unsigned *khead;
	unsigned *ktail;
	unsigned *kring_mask;
	unsigned *koverflow;
	struct uring_cqe *cqes;
};

struct uring {
	struct uring_cq cq;
	int ring_fd;
};

struct reaper {
	uint64_t completed, failed;
	void (*done)(uint64_t user_data, int32_t res);
};

unsigned reap_cqes(struct uring *ring, struct reaper *rp, unsigned max)
{
	struct uring_cq *cq = &ring->cq;
	const unsigned mask = *cq->kring_mask;
	unsigned head = *cq->khead;
	unsigned seen = 0;

	while (seen < max) {
		const struct uring_cqe *cqe;
		unsigned tail;

		/* See the comment in the kernel: it has the matching write barrier. */
		read_barrier();
		tail = *cq->ktail; /* EXPECT: seqlint-mp-missing-barrier */
		if (head == tail)
			break;

		cqe = &cq->cqes[head & mask];
		if (cqe->res < 0)
			rp->failed++;
		else
			rp->completed++;
		rp->done(cqe->user_data, cqe->res);
		head++;
		seen++;
	}

	/* CQEs are consumed: let the kernel reuse the slots. */
	if (seen)
		io_uring_smp_store_release(cq->khead, head);
	return seen;
}
