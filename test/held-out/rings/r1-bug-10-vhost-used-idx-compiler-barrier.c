// Modelled on: DPDK lib/librte_vhost/vhost_rxtx.c:virtio_dev_rx(), reserve_avail_buf()
//              (DPDK 16.04-rc2)
// Shipped bug: "vhost: use SMP barriers instead of compiler ones" (e994bcda55cc, 2016)
// This is the device side of a virtqueue, in a userspace vhost backend. The other side
// is the guest's virtio-net driver, in another address space, which is not in this
// file. The backend copies a packet into the guest's buffer and writes the
// used->ring[] element (id, len). Then it moves used->idx. The guest reads used->idx
// and then the element. Before the idx store there was only rte_compiler_barrier().
// That stops the compiler from reordering but not the CPU: on arm64/POWER the guest
// can see the new index before the element or the packet data. The fix is
// rte_smp_wmb(). The rte_mb() after the store (store -> load of avail->flags) was
// already there.
#include <stdint.h>
#include <stddef.h>

#define unlikely(x)		__builtin_expect(!!(x), 0)
#define MAX_PKT_BURST		32
#define VRING_AVAIL_F_NO_INTERRUPT	1

#define rte_compiler_barrier()	__asm__ __volatile__("" ::: "memory")
#define rte_mb()		__sync_synchronize()
#define rte_pause()		__builtin_ia32_pause()
static inline int rte_atomic16_cmpset(volatile uint16_t *dst, uint16_t exp, uint16_t src)
{
	return __sync_bool_compare_and_swap(dst, exp, src);
}

struct vring_desc { uint64_t addr; uint32_t len; uint16_t flags; uint16_t next; };
struct vring_avail { uint16_t flags; uint16_t idx; uint16_t ring[]; };
struct vring_used_elem { uint32_t id; uint32_t len; };
struct vring_used { uint16_t flags; uint16_t idx; struct vring_used_elem ring[]; };

struct vhost_vq {
	struct vring_desc *desc;	/* guest memory, mapped */
	struct vring_avail *avail;
	struct vring_used *used;
	uint16_t size;
	volatile uint16_t last_used_idx;
	volatile uint16_t last_used_idx_res;
	uint32_t vhost_hlen;
	int callfd;
};

struct pkt;
extern int copy_pkt_to_desc(struct vhost_vq *vq, struct pkt *p, uint16_t desc_idx,
			    uint32_t *copied);
extern int eventfd_write(int fd, uint64_t value);

static uint32_t reserve_avail_buf(struct vhost_vq *vq, uint32_t count,
				  uint16_t *start, uint16_t *end)
{
	uint16_t res_start, avail_idx;

	if (count > MAX_PKT_BURST)
		count = MAX_PKT_BURST;
again:
	res_start = vq->last_used_idx_res;
	avail_idx = *(volatile uint16_t *)&vq->avail->idx;
	if ((uint16_t)(avail_idx - res_start) < count)
		count = (uint16_t)(avail_idx - res_start);
	if (count == 0)
		return 0;
	/* full barrier: also orders avail->idx before the avail->ring loads */
	if (unlikely(!rte_atomic16_cmpset(&vq->last_used_idx_res, res_start,
					  (uint16_t)(res_start + count))))
		goto again;
	*start = res_start;
	*end = (uint16_t)(res_start + count);
	return count;
}

uint32_t vhost_enqueue_burst(struct vhost_vq *vq, struct pkt **pkts, uint32_t count)
{
	uint16_t desc_indexes[MAX_PKT_BURST];
	uint16_t res_start, res_end;
	uint32_t i;

	count = reserve_avail_buf(vq, count, &res_start, &res_end);
	if (count == 0)
		return 0;

	for (i = 0; i < count; i++)
		desc_indexes[i] = vq->avail->ring[(res_start + i) & (vq->size - 1)];

	for (i = 0; i < count; i++) {
		uint16_t used_idx = (res_start + i) & (vq->size - 1);
		uint32_t copied = 0;
		int err = copy_pkt_to_desc(vq, pkts[i], desc_indexes[i], &copied);

		vq->used->ring[used_idx].id = desc_indexes[i];
		vq->used->ring[used_idx].len = err ? vq->vhost_hlen : copied + vq->vhost_hlen;
	}

	rte_compiler_barrier();

	/* Wait until it's our turn to add our buffers to the used ring. */
	while (unlikely(vq->last_used_idx != res_start))
		rte_pause();

	*(volatile uint16_t *)&vq->used->idx += count; /* EXPECT: seqlint-mp-missing-barrier */
	vq->last_used_idx = res_end;

	/* flush used->idx update before we read avail->flags */
	rte_mb();

	if (!(vq->avail->flags & VRING_AVAIL_F_NO_INTERRUPT) && vq->callfd >= 0)
		eventfd_write(vq->callfd, 1);
	return count;
}
