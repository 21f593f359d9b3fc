// Modelled on: PostgreSQL src/backend/storage/ipc/shm_mq.c:shm_mq_send_bytes(),
//              shm_mq_inc_bytes_written(), shm_mq_receive_bytes(); port/atomics/arch-x86.h,
//              generic-gcc.h (PostgreSQL 15.18)
// Pattern: the sender of a single-producer/single-consumer byte queue that lives in a
//   dynamic shared memory segment (dsm_impl_posix: shm_open() + mmap()) copies bytes
//   into the ring and then advances mq_bytes_written with no pg_write_barrier().
// The other side is the receiver, a different backend process (a parallel worker
// or its leader). It reads mq_bytes_written, issues pg_read_barrier(), and then reads
// the ring bytes below that count. The sender's ring stores must therefore be visible
// before the new count; shm_mq_inc_bytes_written() has pg_write_barrier() for exactly
// this ("pairs with the read barrier found in shm_mq_receive_bytes"). The full barrier
// between the sender's read of mq_bytes_read and its memcpy into the ring is kept and
// is correct. pg_atomic_uint64 accesses are single-copy-atomic volatile loads and
// stores on 64-bit platforms, with no ordering of their own.
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

/* in the DSM segment */
struct byte_mq {
	pg_atomic_uint64 bytes_read;
	pg_atomic_uint64 bytes_written;
	size_t ring_size;
	bool detached;
	uint8_t ring_offset;
	char ring[];
};

/* private to the sending process */
struct mq_send_handle {
	struct byte_mq *mq;
	size_t send_pending;		/* written into the ring, not yet counted */
};

extern void wake_receiver(struct byte_mq *mq);

static void mq_inc_bytes_written(struct byte_mq *mq, size_t n)
{
	/* only this process writes bytes_written: no atomic add needed */
	pg_atomic_write_u64(&mq->bytes_written, pg_atomic_read_u64(&mq->bytes_written) + n); /* EXPECT: seqlint-mp-missing-barrier */
}

mq_result mq_send_bytes(struct mq_send_handle *h, size_t nbytes, const void *data,
			size_t *bytes_written)
{
	struct byte_mq *mq = h->mq;
	size_t sent = 0, ringsize = mq->ring_size;

	while (sent < nbytes) {
		uint64_t rb, wb, used;
		size_t available, offset, sendnow;

		rb = pg_atomic_read_u64(&mq->bytes_read);
		wb = pg_atomic_read_u64(&mq->bytes_written) + h->send_pending;
		used = wb - rb;
		available = Min(ringsize - used, nbytes - sent);

		pg_compiler_barrier();
		if (mq->detached) {
			*bytes_written = sent;
			return MQ_DETACHED;
		}
		if (available == 0) {
			*bytes_written = sent;
			return MQ_WOULD_BLOCK;
		}

		offset = wb % (uint64_t)ringsize;
		sendnow = Min(available, ringsize - offset);

		/* the read of bytes_read before our writes into the ring */
		pg_memory_barrier();
		memcpy(&mq->ring[mq->ring_offset + offset], (const char *)data + sent, sendnow);
		sent += sendnow;
		h->send_pending += sendnow;

		/* publish in batches of a quarter ring */
		if (h->send_pending > ringsize / 4) {
			mq_inc_bytes_written(mq, h->send_pending);
			h->send_pending = 0;
			wake_receiver(mq);
		}
	}
	*bytes_written = sent;
	return MQ_SUCCESS;
}
