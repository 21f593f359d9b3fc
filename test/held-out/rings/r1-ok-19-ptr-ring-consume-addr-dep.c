// Modelled on: include/linux/ptr_ring.h:__ptr_ring_produce(), __ptr_ring_peek(),
//              __ptr_ring_discard_one(), __ptr_ring_consume() (Linux 6.12)
// Correct: ptr_ring has no index shared between the two sides. A slot is full when
// it holds a non-NULL pointer. The producer fills the object, then smp_wmb(), then
// WRITE_ONCE()s the pointer into the slot. The consumer READ_ONCE()s the slot and only
// touches the object through that pointer. The address dependency orders the object
// loads after the slot load (READ_ONCE has implied the Alpha barrier since 4.15), so
// no smp_rmb() is needed. The consumer frees slots by storing NULL in batches.
// Coherence on each slot orders that store after its own load of the same slot.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define ENOSPC 28

struct pkt { u32 len; u32 mark; u8 data[]; };

struct ptr_ring {
	int producer;
	int consumer_head;
	int consumer_tail;
	int size;
	int batch;
	void **queue;
};

int ptr_ring_produce(struct ptr_ring *r, struct pkt *p, u32 len, u32 mark)
{
	if (unlikely(!r->size) || r->queue[r->producer])
		return -ENOSPC;

	p->len = len;
	p->mark = mark;
	/* Make sure the pointer we are storing points to valid data.
	 * Pairs with the dependency ordering in ptr_ring_consume(). */
	smp_wmb();
	WRITE_ONCE(r->queue[r->producer++], p);
	if (unlikely(r->producer >= r->size))
		r->producer = 0;
	return 0;
}

static inline void *ptr_ring_peek(struct ptr_ring *r)
{
	if (likely(r->size))
		return READ_ONCE(r->queue[r->consumer_head]);
	return NULL;
}

static inline void ptr_ring_discard_one(struct ptr_ring *r)
{
	int head = r->consumer_head++;

	/* Zero out entries in reverse order, once a batch is consumed. */
	if (unlikely(r->consumer_head - r->consumer_tail >= r->batch ||
		     r->consumer_head >= r->size)) {
		while (likely(head >= r->consumer_tail))
			WRITE_ONCE(r->queue[head--], NULL);
		r->consumer_tail = r->consumer_head;
	}
	if (unlikely(r->consumer_head >= r->size)) {
		r->consumer_head = 0;
		r->consumer_tail = 0;
	}
}

u32 ptr_ring_consume_len(struct ptr_ring *r, u32 *mark)
{
	struct pkt *p = ptr_ring_peek(r);

	if (!p)
		return 0;
	ptr_ring_discard_one(r);
	*mark = p->mark;	/* dependent loads through p */
	return p->len;
}
