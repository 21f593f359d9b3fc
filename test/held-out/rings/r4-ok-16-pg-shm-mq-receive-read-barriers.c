// Modelled on: PostgreSQL src/backend/storage/ipc/shm_mq.c:shm_mq_receive_bytes(),
//              shm_mq_inc_bytes_read(); port/atomics/arch-x86.h, generic-gcc.h (PostgreSQL 15.18)
// Correct: the receiving process of a byte queue in a dynamic shared memory segment
// (shm_open() + mmap()). The sender copies bytes into the ring, issues pg_write_barrier()
// and advances bytes_written (r4-ok-11); it reads bytes_read, issues pg_memory_barrier()
// and only then overwrites ring space.
// - Receive: bytes_written is loaded, then pg_read_barrier(), then the caller reads the
//   ring through the returned pointer. When the queue is detached, a second read
//   barrier precedes a re-read of bytes_written (the sender may have advanced it before
//   setting detached).
// - Give back: pg_read_barrier() separates the ring reads from the update of
//   bytes_read. A read barrier suffices because the update is a load of bytes_read
//   followed by a store whose value depends on it: ring loads -> (read barrier) -> load
//   of bytes_read -> (data dependency) -> store of bytes_read. This is the upstream
//   argument, and it holds in the kernel memory model (rmb and a data dependency are
//   both preserved program order) and on the hardware PostgreSQL targets; on x86 all
//   three barriers compile to at most a compiler barrier because TSO keeps these orders.
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#if defined(__x86_64__)
# define pg_compiler_barrier()	__asm__ __volatile__("" ::: "memory")
# define pg_memory_barrier()	__asm__ __volatile__("lock; addl $0,0(%%rsp)" ::: "memory", "cc")
# define pg_read_barrier()	pg_compiler_barrier()
# define pg_write_barrier()	pg_compiler_barrier()
#else
# define pg_compiler_barrier()	__asm__ __volatile__("" ::: "memory")
# define pg_memory_barrier()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
# define pg_read_barrier()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
# define pg_write_barrier()	__atomic_thread_fence(__ATOMIC_RELEASE)
#endif

typedef struct { volatile uint64_t value; } pg_atomic_uint64;

static inline uint64_t pg_atomic_read_u64(volatile pg_atomic_uint64 *p)
{
	return p->value;
}

static inline void pg_atomic_write_u64(volatile pg_atomic_uint64 *p, uint64_t v)
{
	p->value = v;
}

#define Min(a, b)	((a) < (b) ? (a) : (b))

typedef enum { MQ_SUCCESS, MQ_WOULD_BLOCK, MQ_DETACHED } mq_result;

struct byte_mq {			/* in the DSM segment */
	pg_atomic_uint64 bytes_read;
	pg_atomic_uint64 bytes_written;
	size_t ring_size;
	bool detached;
	uint8_t ring_offset;
	char ring[];
};

struct mq_recv_handle {			/* private to the receiving process */
	struct byte_mq *mq;
	size_t consume_pending;		/* read out of the ring, not yet given back */
};

extern void wake_sender(struct byte_mq *mq);

static mq_result mq_receive_bytes(struct mq_recv_handle *h, size_t bytes_needed,
				  size_t *nbytesp, const char **datap)
{
	struct byte_mq *mq = h->mq;
	size_t ringsize = mq->ring_size;
	uint64_t used, written;

	for (;;) {
		uint64_t read;
		size_t offset;

		written = pg_atomic_read_u64(&mq->bytes_written);
		read = pg_atomic_read_u64(&mq->bytes_read) + h->consume_pending;
		used = written - read;
		offset = read % (uint64_t)ringsize;

		if (used >= bytes_needed || offset + used >= ringsize) {
			*nbytesp = Min(used, ringsize - offset);
			*datap = &mq->ring[mq->ring_offset + offset];
			/* bytes_written before the caller reads the data */
			pg_read_barrier();
			return MQ_SUCCESS;
		}

		if (mq->detached) {
			/* the sender may have advanced bytes_written before detaching */
			pg_read_barrier();
			if (written != pg_atomic_read_u64(&mq->bytes_written))
				continue;
			return MQ_DETACHED;
		}
		return MQ_WOULD_BLOCK;
	}
}

static void mq_inc_bytes_read(struct byte_mq *mq, size_t n)
{
	/* the ring reads before the update; pairs with the sender's full barrier */
	pg_read_barrier();
	pg_atomic_write_u64(&mq->bytes_read, pg_atomic_read_u64(&mq->bytes_read) + n);
	wake_sender(mq);
}

mq_result mq_receive(struct mq_recv_handle *h, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		const char *data;
		size_t n;
		mq_result r = mq_receive_bytes(h, 1, &n, &data);

		if (r != MQ_SUCCESS)
			return r;
		n = Min(n, len - got);
		memcpy((char *)buf + got, data, n);
		got += n;
		h->consume_pending += n;

		/* give space back in batches of a quarter ring */
		if (h->consume_pending > h->mq->ring_size / 4) {
			mq_inc_bytes_read(h->mq, h->consume_pending);
			h->consume_pending = 0;
		}
	}
	return MQ_SUCCESS;
}
