// Modelled on: Open MPI opal/mca/btl/sm/btl_sm_fbox.h:mca_btl_sm_check_fboxes(),
//              mca_btl_sm_fbox_read_header() (v5.0; btl/vader in v3-v4), and
//              opal/include/opal/sys/gcc_builtin/atomic.h
// Pattern: the receiver side of a per-peer "fast box": a byte ring in the sender's
//   shared-memory segment where every record starts with a 64-bit header word
//   {size, tag, seq}; tag != 0 with the expected seq means the record is complete.
//   The receiver checks tag and seq and then, as Open MPI does, issues
//   opal_atomic_rmb() before reading the record body. Correct form of r5-bug-05.
// The other side is another MPI process on the node (the segment is mapped from a
// file in /dev/shm with mmap(MAP_SHARED), or via xpmem/CMA). The sender copies the
// body, issues opal_atomic_wmb() and writes the header tag last, so the receiver
// must order its header load before its body loads.
// FLAGS: --no-kernel-stubs
#include <stdbool.h>
#include <stdint.h>

#define opal_atomic_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define opal_atomic_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)

typedef union {
	struct { uint32_t size; uint16_t tag; uint16_t seq; } data;
	uint64_t ival;
} fbox_hdr_t;

struct fbox_in {
	unsigned char *buffer;		/* in the peer's shared segment */
	uint32_t start;			/* offset of the next record */
	uint16_t seq;			/* expected sequence number */
	volatile uint32_t *startp;	/* tells the sender how far we got */
};

typedef void (*am_cb)(uint16_t tag, const unsigned char *body, uint32_t size);

static inline fbox_hdr_t fbox_read_header(const unsigned char *rec)
{
	fbox_hdr_t tmp = { .ival = *(const volatile uint64_t *)rec };
	return tmp;
}

bool fbox_poll(struct fbox_in *in, uint32_t mask, const am_cb *handlers)
{
	uint32_t start = in->start & mask;
	int n;

	for (n = 0; n < 16; n++) {
		const fbox_hdr_t hdr = fbox_read_header(in->buffer + start);

		if (hdr.data.tag == 0 || hdr.data.seq != in->seq)
			break;
		in->seq++;
		opal_atomic_rmb();	/* the header before the body */
		if ((hdr.data.tag & 0xfe) != 0xfe)
			handlers[hdr.data.tag](hdr.data.tag, in->buffer + start + sizeof(hdr),
					       hdr.data.size);
		start = (start + sizeof(hdr) + hdr.data.size + 7u) & ~7u & mask;
	}
	if (n) {
		in->start = start;
		opal_atomic_mb();	/* record reads before the sender may reuse them */
		*in->startp = start;
	}
	return n != 0;
}
