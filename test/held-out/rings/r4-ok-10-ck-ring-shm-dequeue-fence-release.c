// Modelled on: Concurrency Kit include/ck_ring.h:_ck_ring_dequeue_sc(), _ck_ring_enqueue_sp(),
//              include/ck_pr.h fences (ck 0.7.1), used over a POSIX shared-memory segment
//              (ck_ring keeps the slot buffer outside struct ck_ring so that two processes
//              can map it at different addresses)
// Pattern: single-consumer dequeue that copies a record out of the slot and then
//   publishes the new consumer head. This file is the correct form: ck_pr_fence_release()
//   (earlier loads and stores before later stores) before the head store. (ck 0.7.1
//   itself has ck_pr_fence_store() at this place, see r4-bug-10.)
// The other side is the producer process. It loads c_head, and when the ring is not
// full it overwrites the slot at p_tail and then publishes p_tail. The consumer reads
// the slot (loads) and then stores c_head: load-then-store. A store fence orders only
// stores; on an RMO machine (arm64: "dmb ishst") the c_head store can become visible
// before the slot loads are satisfied, the producer overwrites the slot, and the
// consumer copies out half of the next record. A release fence also orders the slot
// loads before the c_head store. The fence before the consumer's copy
// (load fence after reading p_tail) and the producer's store fence before p_tail are
// correct.
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ck_pr_barrier()		__asm__ __volatile__("" ::: "memory")
#if defined(__x86_64__) || defined(__i386__)
/* CK_MD_TSO: only store->load needs an instruction */
# define ck_pr_fence_load()	ck_pr_barrier()
# define ck_pr_fence_store()	ck_pr_barrier()
# define ck_pr_fence_release()	ck_pr_barrier()
# define ck_pr_fence_memory()	__asm__ __volatile__("mfence" ::: "memory")
#elif defined(__aarch64__)
/* CK_MD_RMO */
# define ck_pr_fence_load()	__asm__ __volatile__("dmb ishld" ::: "memory")
# define ck_pr_fence_store()	__asm__ __volatile__("dmb ishst" ::: "memory")
# define ck_pr_fence_release()	__asm__ __volatile__("dmb ish" ::: "memory")
# define ck_pr_fence_memory()	__asm__ __volatile__("dmb ish" ::: "memory")
#else
# define ck_pr_fence_load()	__sync_synchronize()
# define ck_pr_fence_store()	__sync_synchronize()
# define ck_pr_fence_release()	__sync_synchronize()
# define ck_pr_fence_memory()	__sync_synchronize()
#endif

static inline unsigned int ck_pr_load_uint(const unsigned int *p)
{
	return *(const volatile unsigned int *)p;
}

static inline void ck_pr_store_uint(unsigned int *p, unsigned int v)
{
	*(volatile unsigned int *)p = v;
}

/* the header at the start of the shared segment */
struct shm_ring {
	unsigned int c_head;
	char pad_c[60];
	unsigned int p_tail;
	unsigned int p_head;
	char pad_p[56];
	unsigned int size;
	unsigned int mask;
};

/* one process's view: the same segment, mapped wherever mmap() put it */
struct shm_ring_view {
	struct shm_ring *ring;
	unsigned char *slots;		/* follows the header in the mapping */
};

bool shm_ring_enqueue_sp(struct shm_ring_view *v, const void *rec, unsigned int size)
{
	struct shm_ring *ring = v->ring;
	const unsigned int mask = ring->mask;
	unsigned int consumer, producer, delta;

	consumer = ck_pr_load_uint(&ring->c_head);
	producer = ring->p_tail;
	delta = producer + 1;
	if ((delta & mask) == (consumer & mask))
		return false;

	memcpy(v->slots + (size_t)size * (producer & mask), rec, size);

	/* the slot before the new producer tail */
	ck_pr_fence_store();
	ck_pr_store_uint(&ring->p_tail, delta);
	return true;
}

bool shm_ring_dequeue_sc(struct shm_ring_view *v, void *out, unsigned int size)
{
	struct shm_ring *ring = v->ring;
	const unsigned int mask = ring->mask;
	unsigned int consumer, producer;

	consumer = ring->c_head;
	producer = ck_pr_load_uint(&ring->p_tail);
	if (consumer == producer)
		return false;

	/* the producer tail before the slot */
	ck_pr_fence_load();

	memcpy(out, v->slots + (size_t)size * (consumer & mask), size);

	/* the copy before the consumer head moves */
	ck_pr_fence_release();
	ck_pr_store_uint(&ring->c_head, consumer + 1);
	return true;
}
