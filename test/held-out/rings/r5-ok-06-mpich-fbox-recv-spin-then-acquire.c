// Modelled on: MPICH src/mpid/ch3/channels/nemesis/include/mpid_nem_inline.h:
//              MPID_nem_mpich_test_recv(), MPID_nem_mpich_release_fbox();
//              mpid_nem_impl.h:MPID_nem_waitforlock() (MPICH 3.x), OpenPA
// Correct: the receiver side of the nemesis fastbox (see r5-bug-04). A blocking
// receive first spins on the flag with plain volatile loads and sched_yield(), as
// MPID_nem_waitforlock() does; nothing of the cell is read through those loads. It then
// re-reads the flag with OPA_load_acquire_int(), copies the header and payload out,
// and hands the box back to the sender with OPA_store_release_int(flag, 0).
// The other side is the sending MPI process (shm_open() + mmap(MAP_SHARED) region).
// The acquire load orders the cell loads after the flag load (pairing with the
// sender's release store of 1); the release store of 0 orders the cell loads before
// the sender may see the box free and refill it.
// FLAGS: --no-kernel-stubs
#include <sched.h>
#include <stdint.h>
#include <string.h>

typedef struct { volatile int v; } OPA_int_t;

static inline int OPA_load_acquire_int(const OPA_int_t *p)
{ return __atomic_load_n(&p->v, __ATOMIC_ACQUIRE); }
static inline void OPA_store_release_int(OPA_int_t *p, int val)
{ __atomic_store_n(&p->v, val, __ATOMIC_RELEASE); }

#define FBOX_PAYLOAD	64

struct nem_pkt_hdr { int32_t source; int32_t dest; int32_t datalen; uint16_t seqno; uint16_t type; };
struct nem_cell { struct nem_pkt_hdr hdr; uint8_t payload[FBOX_PAYLOAD]; };
struct nem_fbox { union { OPA_int_t value; char pad[64]; } flag; struct nem_cell cell; };

static inline void fbox_wait_full(struct nem_fbox *pbox, int count)
{
	while (pbox->flag.value.v != 1) {
		if (--count == 0)
			sched_yield();
	}
}

/* blocking receive of one message from a given peer's fastbox */
int fbox_recv(struct nem_fbox *pbox, uint16_t expect_seq, void *buf, int *len)
{
	int n;

	fbox_wait_full(pbox, 1000);
	if (OPA_load_acquire_int(&pbox->flag.value) != 1)
		return -1;
	if (pbox->cell.hdr.seqno != expect_seq)
		return -1;	/* out of order: leave it for the queue path */
	n = pbox->cell.hdr.datalen;
	if (n > FBOX_PAYLOAD)
		n = FBOX_PAYLOAD;
	memcpy(buf, pbox->cell.payload, (size_t)n);
	*len = n;
	OPA_store_release_int(&pbox->flag.value, 0);
	return 0;
}
