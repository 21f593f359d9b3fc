// Modelled on: liburing src/queue.c:__io_uring_flush_sq(), sq_ring_needs_enter(),
//              src/include/liburing.h:_io_uring_get_sqe() (liburing 2.9)
// Correct: without SQPOLL the kernel reads the SQ tail only inside io_uring_enter(),
// which this same thread calls right after the flush. Program order up to the
// syscall is all the ordering needed, so liburing stores *ktail plainly and reads
// *khead plainly in get_sqe. With SQPOLL a kernel thread polls the ring concurrently.
// Then the tail is store-released, the head is load-acquired, and io_uring_smp_mb()
// separates the tail store from the NEED_WAKEUP flag load. The relaxed khead load in
// flush only returns an estimate.
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IORING_SETUP_SQPOLL	(1U << 1)
#define IORING_SQ_NEED_WAKEUP	(1U << 0)
#define IORING_ENTER_SQ_WAKEUP	(1U << 1)

#define io_uring_smp_store_release(p, v)				\
	atomic_store_explicit((_Atomic __typeof__(*(p)) *)(p), (v),	\
			      memory_order_release)
#define io_uring_smp_load_acquire(p)					\
	atomic_load_explicit((_Atomic __typeof__(*(p)) *)(p),		\
			     memory_order_acquire)
#define io_uring_smp_mb()	atomic_thread_fence(memory_order_seq_cst)
#define IO_URING_READ_ONCE(var)						\
	atomic_load_explicit((_Atomic __typeof__(var) *)&(var),		\
			     memory_order_relaxed)

struct uring_sqe { uint8_t opcode, flags; uint16_t ioprio; int32_t fd; uint64_t off, addr; uint32_t len, rw_flags; uint64_t user_data; uint64_t pad[3]; };

struct uring_sq {
	unsigned *khead, *ktail, *kflags;
	unsigned ring_mask, ring_entries;
	struct uring_sqe *sqes;
	unsigned sqe_head, sqe_tail;
};

struct uring { struct uring_sq sq; unsigned flags; int ring_fd; };

extern int sys_io_uring_enter(int fd, unsigned to_submit, unsigned min_complete,
			      unsigned flags);

struct uring_sqe *uring_get_sqe(struct uring *ring)
{
	struct uring_sq *sq = &ring->sq;
	unsigned head, next = sq->sqe_tail + 1;

	if (!(ring->flags & IORING_SETUP_SQPOLL))
		head = *sq->khead;
	else
		head = io_uring_smp_load_acquire(sq->khead);

	if (next - head <= sq->ring_entries) {
		struct uring_sqe *sqe = &sq->sqes[sq->sqe_tail & sq->ring_mask];

		sq->sqe_tail = next;
		return sqe;
	}
	return NULL;
}

static unsigned flush_sq(struct uring *ring)
{
	struct uring_sq *sq = &ring->sq;
	unsigned tail = sq->sqe_tail;

	if (sq->sqe_head != tail) {
		sq->sqe_head = tail;
		/* Ensure the kernel sees the SQE updates before the tail update. */
		if (!(ring->flags & IORING_SETUP_SQPOLL))
			*sq->ktail = tail;
		else
			io_uring_smp_store_release(sq->ktail, tail);
	}
	/* atomic, not acquire: only an estimate of what is still queued */
	return tail - IO_URING_READ_ONCE(*sq->khead);
}

int uring_submit(struct uring *ring)
{
	unsigned submitted = flush_sq(ring);
	unsigned flags = 0;

	if (!submitted)
		return 0;
	if (ring->flags & IORING_SETUP_SQPOLL) {
		/* tail store before the flags load */
		io_uring_smp_mb();
		if (!(IO_URING_READ_ONCE(*ring->sq.kflags) & IORING_SQ_NEED_WAKEUP))
			return (int)submitted;
		flags |= IORING_ENTER_SQ_WAKEUP;
	}
	return sys_io_uring_enter(ring->ring_fd, submitted, 0, flags);
}
