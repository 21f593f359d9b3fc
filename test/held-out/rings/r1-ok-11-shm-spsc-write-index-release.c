// Modelled on: the index protocol of include/linux/circ_buf.h and
//              Documentation/core-api/circular-buffers.rst, written with C11 <stdatomic.h>
//              for a POSIX shared-memory segment (Linux 6.12 docs, C11)
// Pattern: single-producer/single-consumer message FIFO in a POSIX shared-memory
//   segment (shm_open + mmap). Only the producer process is in this file. Records are
//   copied in and the write index is published with memory_order_release (fixed).
// The other side is a consumer process, built from another source file. It loads
// w_idx, and for each record between its r_idx and w_idx it reads the length word and
// the payload, then stores r_idx. The producer's record stores have to be visible
// before the new w_idx, so the w_idx store must be a release (or follow a release
// fence). A relaxed store lets a weakly ordered CPU publish the index first, and the
// consumer then parses a half-written record. The producer's own acquire load of
// r_idx (to find free space) is correct.
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>

#define SLOT_PAYLOAD	240

struct shm_slot {
	uint32_t len;
	uint32_t type;
	unsigned char payload[SLOT_PAYLOAD];
};

struct shm_fifo_hdr {
	_Alignas(64) _Atomic uint32_t w_idx;	/* written by the producer */
	_Alignas(64) _Atomic uint32_t r_idx;	/* written by the consumer */
	uint32_t nslots;			/* power of two, set at creation */
	uint32_t magic;
};

struct shm_fifo {
	struct shm_fifo_hdr *hdr;
	struct shm_slot *slots;			/* follows the header in the mapping */
	uint64_t sent, full;
};

static inline uint32_t fifo_free(struct shm_fifo *f, uint32_t w)
{
	uint32_t r = atomic_load_explicit(&f->hdr->r_idx, memory_order_acquire);

	return f->hdr->nslots - (w - r);
}

int fifo_send(struct shm_fifo *f, uint32_t type, const void *buf, size_t len)
{
	/* our own index: nobody else writes it */
	uint32_t w = atomic_load_explicit(&f->hdr->w_idx, memory_order_relaxed);
	struct shm_slot *s;

	if (len > SLOT_PAYLOAD)
		return -EMSGSIZE;
	if (fifo_free(f, w) == 0) {
		f->full++;
		return -EAGAIN;
	}

	s = &f->slots[w & (f->hdr->nslots - 1)];
	s->type = type;
	s->len = (uint32_t)len;
	memcpy(s->payload, buf, len);

	/* the record before the index that makes it visible */
	atomic_store_explicit(&f->hdr->w_idx, w + 1, memory_order_release);
	f->sent++;
	return 0;
}

int fifo_send_many(struct shm_fifo *f, uint32_t type, const void *const *bufs,
		   const size_t *lens, unsigned n)
{
	unsigned i;
	int err;

	for (i = 0; i < n; i++) {
		err = fifo_send(f, type, bufs[i], lens[i]);
		if (err)
			return i ? (int)i : err;
	}
	return (int)n;
}
