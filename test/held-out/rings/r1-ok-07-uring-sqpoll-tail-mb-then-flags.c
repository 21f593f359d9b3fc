// Modelled on: liburing src/queue.c:__io_uring_flush_sq(), sq_ring_needs_enter(),
//              __io_uring_submit() (liburing 2.2, with 744f4156b25d)
// Shipped bug: "Fix memory ordering in sq_ring_needs_enter" (744f4156b25d, 2022)
// The other side is the kernel's SQPOLL thread. It polls the SQ tail, and before it
// sleeps it sets IORING_SQ_NEED_WAKEUP and then checks the tail once more. The process
// store-releases the new tail and then reads the flags to decide whether to wake the
// thread with io_uring_enter(). This is a store followed by a load of another
// location (the Dekker shape), on both sides. The release orders the SQE stores
// before the tail, but it does not order the tail store before the later flags
// load. Both sides can miss each other and the submission sits in the ring until
// something else wakes the poller. A full barrier (io_uring_smp_mb) is needed between
// the tail store and the flags load. This file is the fix.
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define IORING_SETUP_SQPOLL	(1U << 1)
#define IORING_SQ_NEED_WAKEUP	(1U << 0)
#define IORING_ENTER_SQ_WAKEUP	(1U << 1)

#define io_uring_smp_store_release(p, v)				\
	atomic_store_explicit((_Atomic __typeof__(*(p)) *)(p), (v),	\
			      memory_order_release)
#define io_uring_smp_mb()						\
	atomic_thread_fence(memory_order_seq_cst)
#define IO_URING_READ_ONCE(var)						\
	atomic_load_explicit((_Atomic __typeof__(var) *)&(var),		\
			     memory_order_relaxed)
#define IO_URING_WRITE_ONCE(var, val)					\
	atomic_store_explicit((_Atomic __typeof__(var) *)&(var),	\
			      (val), memory_order_relaxed)

struct uring_sq {
	unsigned *khead, *ktail, *kring_mask, *kflags;
	unsigned *array;
	unsigned sqe_head, sqe_tail;	/* private: filled but not yet flushed */
};

struct uring {
	struct uring_sq sq;
	unsigned flags;
	int ring_fd;
};

extern int sys_io_uring_enter(int fd, unsigned to_submit, unsigned min_complete,
			      unsigned flags);

static inline unsigned flush_sq(struct uring *ring)
{
	struct uring_sq *sq = &ring->sq;
	const unsigned mask = *sq->kring_mask;
	unsigned tail = *sq->ktail;		/* only we write it */
	unsigned to_submit = sq->sqe_tail - sq->sqe_head;

	while (to_submit--) {
		sq->array[tail & mask] = sq->sqe_head & mask;
		tail++;
		sq->sqe_head++;
	}
	/* the kernel must see the SQE/array stores before the tail */
	io_uring_smp_store_release(sq->ktail, tail);
	/* may be stale under SQPOLL; only an estimate of what is in flight */
	return tail - IO_URING_READ_ONCE(*sq->khead);
}

static inline bool sq_ring_needs_enter(struct uring *ring, unsigned *flags)
{
	if (!(ring->flags & IORING_SETUP_SQPOLL))
		return true;

	/*
	 * Ensure the kernel can see the store to the SQ tail before we read
	 * the flags.
	 */
	io_uring_smp_mb();

	if (IO_URING_READ_ONCE(*ring->sq.kflags) & IORING_SQ_NEED_WAKEUP) {
		*flags |= IORING_ENTER_SQ_WAKEUP;
		return true;
	}
	return false;
}

int uring_submit(struct uring *ring)
{
	unsigned submitted = flush_sq(ring);
	unsigned flags = 0;

	if (sq_ring_needs_enter(ring, &flags))
		return sys_io_uring_enter(ring->ring_fd, submitted, 0, flags);
	return (int)submitted;
}
