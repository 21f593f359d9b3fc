// Modelled on: MPICH src/mpid/ch3/channels/nemesis/include/mpid_nem_inline.h:
//              MPID_nem_mpich_send_header(), mpid_nem_datatypes.h (fastbox),
//              OpenPA opa_primitives.h (MPICH 3.x)
// Pattern: the nemesis "fastbox": one cell per (sender, receiver) pair in the
//   shared-memory region, with a flag word that says who owns it (0: the sender may
//   fill it, 1: full, the receiver owns it). The sender fills the cell and then sets
//   the flag with a plain store (the write barrier that older MPICH had before
//   `flag.value = 1`, today OPA_store_release_int, is dropped).
// The other side is another MPI process on the node: the region is created with
// shm_open() + ftruncate() + mmap(MAP_SHARED) by one rank and mapped by the others.
// The receiver polls the flag with an acquire load and then reads the cell header
// and payload, so every cell store must be visible before the flag store.
// FLAGS: --no-kernel-stubs
#include <stdint.h>
#include <string.h>

typedef struct { volatile int v; } OPA_int_t;

static inline int OPA_load_acquire_int(const OPA_int_t *p)
{ return __atomic_load_n(&p->v, __ATOMIC_ACQUIRE); }
static inline void OPA_store_int(OPA_int_t *p, int val) { p->v = val; }

#define FBOX_PAYLOAD	64

struct nem_pkt_hdr { int32_t source; int32_t dest; int32_t datalen; uint16_t seqno; uint16_t type; };
struct nem_cell { struct nem_pkt_hdr hdr; uint8_t payload[FBOX_PAYLOAD]; };
struct nem_fbox { union { OPA_int_t value; char pad[64]; } flag; struct nem_cell cell; };

struct nem_vc { struct nem_fbox *fbox_out; int peer; uint16_t send_seqno; };

/* 0: sent through the fastbox; -1: box busy or message too big, use the queue */
int fbox_try_send(struct nem_vc *vc, int my_rank, const void *buf, int size)
{
	struct nem_fbox *pbox = vc->fbox_out;

	if (size > FBOX_PAYLOAD || OPA_load_acquire_int(&pbox->flag.value) != 0)
		return -1;
	pbox->cell.hdr.source = my_rank;
	pbox->cell.hdr.dest = vc->peer;
	pbox->cell.hdr.datalen = size;
	pbox->cell.hdr.seqno = vc->send_seqno++;
	memcpy(pbox->cell.payload, buf, (size_t)size);
	OPA_store_int(&pbox->flag.value, 1); /* EXPECT: seqlint-mp-missing-barrier */
	return 0;
}
